"""Bad input: each case gives a clear ExtractionError or a result (saying why when it is empty), never another
exception, a hang or runaway memory."""

from __future__ import annotations

import gzip
import random
import time
import tracemalloc

import pytest

from extraction import (
    EmptyDocumentError,
    ExtractionConfig,
    ExtractionError,
    ExtractionResult,
    NotHTMLError,
    extract,
)
from extraction.errors import TooManyAttributesError
from tests.extraction.pages import DOCS, NEWS, check_contract, fixture_bytes, fixture_text

LONG_PARAGRAPH = (
    "This paragraph is long enough to count as prose, with commas, full stops and enough words. " * 2
).strip()


def result_of(html: str | bytes, **kwargs: object) -> ExtractionResult:
    outcome = check_contract(html, **kwargs)
    assert isinstance(outcome, ExtractionResult), f"expected a result, got {outcome!r}"
    return outcome


def result_and_peak_memory(html: str) -> tuple[ExtractionResult, int]:
    """The result of `html` and the most memory (bytes) Python allocated at once while extracting it."""
    tracemalloc.start()
    try:
        result = result_of(html)
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def error_of(html: str | bytes, **kwargs: object) -> ExtractionError:
    outcome = check_contract(html, **kwargs)
    assert isinstance(outcome, ExtractionError), "expected an ExtractionError, got a result"
    return outcome


@pytest.mark.parametrize("html", [b"", "", b" \r\n\t ", "\n\n   \t", "\u00a0\u2003"])
def test_empty_and_whitespace_input(html: str | bytes) -> None:
    assert isinstance(error_of(html), EmptyDocumentError)


def test_png_header() -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06\x00\x00\x00"
    assert isinstance(error_of(png), NotHTMLError)


def test_random_bytes_with_nuls() -> None:
    data = random.Random(20240501).randbytes(8192)
    assert b"\x00" in data
    assert isinstance(error_of(data), NotHTMLError)


def test_gzip_body() -> None:
    assert isinstance(error_of(gzip.compress(fixture_bytes(NEWS))), NotHTMLError)


def test_latin1_bytes_declared_utf8() -> None:
    data = fixture_text(NEWS).encode("cp1252", errors="replace")
    result = result_of(data, encoding="utf-8")
    assert result.encoding == "cp1252"
    assert "“Our third quarter results reflected broad-based growth" in result.text


def test_bytes_invalid_in_every_charset() -> None:
    # Bytes undefined in windows-1252 and invalid as UTF-8, inside and around the article.
    junk = b"\x81\x8d\x8f\x90\x9d"
    data = (
        fixture_bytes(NEWS)
        .replace(b"Rival Lowe's", junk + b" Rival Lowe's")
        .replace(b"<body", junk + b"<body")
    )
    result = result_of(data, encoding="utf-8")
    assert "\ufffd" * 5 + " Rival Lowe's was also lower" in result.text


def test_bogus_http_charsets() -> None:
    for label in ("x-no-such-charset", "rot13", "hex", "bad\x00label", "unicode_escape", "utf-16"):
        result = result_of(fixture_bytes(NEWS), encoding=label)
        assert result.encoding == "utf-8", label
        assert "Home Depot shares are up 39 percent" in result.text, label


def test_twenty_megabyte_page_completes() -> None:
    paragraph = "<p>Paragraph {} of a very long generated page, with commas, words and full stops.</p>\n"
    count = 20_000_000 // len(paragraph.format(0))
    html = (
        "<html><body><article>"
        + "".join(paragraph.format(i) for i in range(count))
        + "</article></body></html>"
    )
    assert len(html) >= 19_900_000
    result = result_of(html.encode())
    config = ExtractionConfig()
    assert len(result.blocks) == config.max_blocks
    assert result.reason == f"only the first {config.max_blocks} blocks were read"
    assert result.blocks[0].text.startswith("Paragraph 0 of a very long generated page")


def test_text_node_over_ten_megabytes() -> None:
    # One text node past libxml2's default 10 MB limit: it used to vanish with everything after it.
    html = "<html><body><p>" + "word " * 2_200_000 + "</p><p>" + LONG_PARAGRAPH + "</p></body></html>"
    result = result_of(html)
    config = ExtractionConfig()
    assert len(result.blocks) == 2
    assert len(result.blocks[0].text) == config.max_block_chars
    assert result.blocks[1].text == LONG_PARAGRAPH


def test_five_thousand_nested_divs() -> None:
    html = "<html><body>" + "<div>" * 5000 + LONG_PARAGRAPH + "</div>" * 5000 + "</body></html>"
    result = result_of(html)
    assert "nest deeper than the parser's limit" in result.reason


def test_text_before_deep_nesting_is_kept() -> None:
    html = f"<html><body><p>{LONG_PARAGRAPH}</p>" + "<div>" * 5000 + "x" + "</div>" * 5000 + "</body></html>"
    result = result_of(html)
    assert result.text == LONG_PARAGRAPH
    assert "nest deeper than the parser's limit" in result.reason


def test_thousand_nested_divs_are_read_whole() -> None:
    html = "<html><body>" + "<div>" * 1000 + f"<p>{LONG_PARAGRAPH}</p>" + "</div>" * 1000 + "</body></html>"
    result = result_of(html)
    assert result.text == LONG_PARAGRAPH
    assert result.reason == ""


def test_frameset_only_page() -> None:
    html = (
        "<html><head><title>Frames</title></head>"
        '<frameset cols="25%,75%"><frame src="menu.html"><frame src="main.html"></frameset></html>'
    )
    result = result_of(html)
    assert result.title == "Frames"
    assert result.blocks == []
    assert result.reason


def test_scripts_only_page() -> None:
    html = "<script>var a = 'not text';</script>\n<script type='module'>import x from './x.js';</script>"
    result = result_of(html)
    assert result.blocks == []
    assert result.reason == "the page has no visible text"


def test_xml_declaration_in_str_input() -> None:
    plain = extract(fixture_text(DOCS))
    for declaration in (
        '<?xml version="1.0" encoding="utf-8"?>\n',
        "\ufeff<?xml version='1.0' encoding='ISO-8859-1'?>",
    ):
        result = result_of(declaration + fixture_text(DOCS))
        assert result.text == plain.text


def test_page_without_body() -> None:
    result = result_of("<html><head><title>Only a head</title><meta charset='utf-8'></head></html>")
    assert result.title == "Only a head"
    assert result.blocks == []
    assert result.reason


def test_fragment() -> None:
    result = result_of("<p>hello world</p>")
    assert result.visible_text == "hello world"
    long_fragment = result_of(f"<p>{LONG_PARAGRAPH}</p>")
    assert long_fragment.text == LONG_PARAGRAPH


def test_markup_without_any_element() -> None:
    for html in ("<!-- just a comment -->", "<!DOCTYPE html>", "<?php echo 1; ?>", '<?xml version="1.0"?>'):
        result = result_of(html)
        assert result.blocks == []
        assert result.reason


def test_plain_text_is_read_as_a_page() -> None:
    result = result_of(LONG_PARAGRAPH.encode())
    assert result.text == LONG_PARAGRAPH


def test_nul_and_control_characters_in_str_input() -> None:
    html = f"<p>{LONG_PARAGRAPH}</p><p>a\x00b\x0bc\x1fd</p>"
    result = result_of(html)
    assert LONG_PARAGRAPH in result.text


def test_lone_surrogate_does_not_cut_the_page() -> None:
    # A str decoded with errors="surrogateescape": lxml used to stop at the surrogate and drop the rest.
    html = fixture_text(NEWS).replace("Rival Lowe's", "Rival\udce9 Lowe's")
    result = result_of(html)
    assert "Rival\ufffd Lowe's" in result.text
    assert "Home Depot shares are up 39 percent" in result.text


def test_page_truncated_mid_tag() -> None:
    data = fixture_bytes(NEWS)
    cut = data.index(b"Looking ahead") + 40
    result = result_of(data[:cut] + b'<p class="x')
    assert "Dow component Home Depot reported" in result.text


def test_utf16_page_without_bom() -> None:
    data = fixture_text(DOCS).encode("utf-16-le")
    assert isinstance(error_of(data), NotHTMLError)  # no way to tell it from binary without a hint
    result = result_of(data, encoding="utf-16le")
    assert result.text == extract(fixture_text(DOCS)).text


# Fuzz findings of `python -m benchmarks.fuzz` (.cache/fuzz/minimal/), trimmed.


def test_an_element_with_tens_of_thousands_of_attributes_is_refused() -> None:
    # min-many-attributes.html: 32,000 attributes on one <div> took libxml2 1.3 s to parse.
    html = "<div " + " ".join(f'a{number}="{number}"' for number in range(32_000)) + ">x</div>"
    started = time.perf_counter()
    error = error_of(html)
    assert time.perf_counter() - started < 0.5
    assert isinstance(error, TooManyAttributesError)
    assert error.kind == "too_many_attributes"
    fewer = "<div " + " ".join(f"a{number}" for number in range(1_500)) + ">x</div>"
    assert isinstance(error_of(fewer), TooManyAttributesError)
    assert result_of(fewer, config=ExtractionConfig(max_attributes=1_500)).visible_text == "x"


def test_a_long_word_with_an_at_sign_is_read_in_linear_time() -> None:
    # min-email-regex.html and min-email-regex-cjk.html: the e-mail count took 1.7 s and 3.0 s.
    html = "<p>@" + "a" * 24_000 + "</p><p>" + "\u65e5\u672c\u8a9e\u306e\u6587\u7ae0" * 4_000 + " a@b.org</p>"
    started = time.perf_counter()
    result = result_of(html)
    assert time.perf_counter() - started < 0.5
    assert [block.features.email_count for block in result.blocks] == [0, 1]


def test_many_paragraphs_deep_in_a_tree_take_little_memory() -> None:
    # min-deep-paths.html: 2,000 nested divs around 250,000 paragraphs exhausted 2 GB; a tenth of the
    # paragraphs needed 160 MB for their paths alone.
    html = "<html><body>" + "<div>" * 2_000 + "<p>text</p>" * 20_000 + "</div>" * 2_000 + "</body></html>"
    result, peak = result_and_peak_memory(html)
    assert len(result.blocks) == 20_000
    assert peak < 60_000_000


def test_a_megabyte_class_attribute_takes_little_memory() -> None:
    # min-long-class-paths.html: a 1 MB class attribute on the wrapper of 3,000 paragraphs repeated itself
    # in every paragraph's path.
    html = '<html><body><div class="' + "c " * 500_000 + '">' + "<p>text</p>" * 3_000 + "</div></body></html>"
    result, peak = result_and_peak_memory(html)
    assert len(result.blocks) == 3_000
    assert len({block.path for block in result.blocks}) == 1
    assert len(result.blocks[0].path) == ExtractionConfig().max_path_chars
    assert peak < 60_000_000
