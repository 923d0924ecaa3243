"""extract(): the whole pipeline on real pages, and the text it gives back."""

from __future__ import annotations

import copy
import pickle

import pytest

from extraction import BlockKind, DocumentTooLargeError, ExtractionConfig, extract
from extraction.result import RULE_LABELS, RULE_TEXT, Rule
from tests.extraction.pages import (
    DOCS,
    FIXTURE_NAMES,
    FORUM,
    NEWS,
    extract_fixture,
    fixture_bytes,
    fixture_text,
)

HELLO_GO = 'package main\n\nimport "fmt"\n\nfunc main() {\n    fmt.Println("Hello, World!")\n}'


def lines_of(text: str) -> list[str]:
    return text.split("\n")


def test_result_carries_url_title_and_encoding() -> None:
    result = extract(fixture_bytes(NEWS), url="https://www.foxbusiness.com/markets/x")
    assert result.url == "https://www.foxbusiness.com/markets/x"
    assert result.title == "Home Depot sales miss, shares plunge | Fox Business"
    assert result.encoding == "utf-8"
    assert result.reason == ""
    assert extract(fixture_text(NEWS)).encoding == "unicode"


def test_result_counts_the_bytes_its_decode_replaced() -> None:
    # A UTF-8 page with one invalid byte is read as UTF-8 (not cp1252), and the result says so.
    data = fixture_bytes(NEWS).replace(b"Home Depot reported", b"Home Depot \xff reported", 1)
    result = extract(data, encoding="utf-8")
    assert result.encoding == "utf-8"
    assert result.decode_replacements == 1
    assert "Home Depot \ufffd reported" in result.visible_text
    assert "\u201cOur third quarter results" in result.visible_text
    assert extract(fixture_bytes(NEWS)).decode_replacements == 0


def test_bytes_and_str_input_give_the_same_blocks() -> None:
    from_bytes = extract(fixture_bytes(DOCS))
    from_str = extract(fixture_text(DOCS))
    assert [(b.text, b.kind, b.label) for b in from_bytes.blocks] == [
        (b.text, b.kind, b.label) for b in from_str.blocks
    ]


def test_results_survive_pickling_and_copying() -> None:
    # Results cross process boundaries (a process pool) and get copied; compiled, the result types need
    # an `__init__` that takes no arguments for both.
    result = extract_fixture(FORUM)
    for clone in (pickle.loads(pickle.dumps(result)), copy.deepcopy(result), copy.copy(result)):
        assert clone == result
    assert pickle.loads(pickle.dumps(result)).text == result.text


def test_headings_list_items_and_code_each_on_their_own_lines() -> None:
    text = extract_fixture(DOCS).text
    lines = lines_of(text)
    for line in (
        "Prerequisites¶",
        "Write some code¶",
        "Install Go (if you haven't already).",
        "Call functions of an external module.",
        "Open a command prompt and cd to your home directory.",
        "On Linux or Mac:",
        "cd %HOMEPATH%",
        "$ go help",
    ):
        assert line in lines, line
    # A heading is followed by the first item of its list, not run into it.
    first_item = "Some programming experience. The code here is pretty simple, but it helps to know something"
    assert lines[lines.index("Prerequisites¶") + 1].startswith(first_item)


def test_code_keeps_its_layout_in_the_text() -> None:
    text = extract_fixture(DOCS).text
    assert "\n" + HELLO_GO + "\n" in text
    assert "\nmkdir hello\ncd hello\n" in text
    assert "\n$ go run .\nHello, World!\n" in text


def test_lists_and_code_inside_the_article_are_not_dropped() -> None:
    result = extract_fixture(DOCS)
    items = [block for block in result.content_blocks if block.kind is BlockKind.LIST_ITEM]
    code = [block for block in result.content_blocks if block.kind is BlockKind.CODE]
    # 5 + 3 bulleted items, 3 nested ones, and the 2 numbered steps with text of their own (the other two
    # steps hold only <p> and <pre> blocks).
    assert len(items) == 13
    assert len(code) == 6
    in_lists = [block for block in result.blocks if "/article.Doc.Article/ol/" in block.path + "/"]
    in_lists += [block for block in result.blocks if "/article.Doc.Article/ul/" in block.path + "/"]
    assert len(in_lists) == 26  # 8 bulleted items + 18 blocks of the four numbered steps
    assert all(block.is_content for block in in_lists), [b.text for b in in_lists if not b.is_content]


def test_table_rows_stay_rows_in_the_text() -> None:
    lines = lines_of(extract_fixture(NEWS).text)
    header = lines.index("Ticker | Security | Last | Change | Change %")
    assert lines[header + 1 : header + 3] == [
        "HD | THE HOME DEPOT INC. | 225.86 | -12.99 | -5.44%",
        "LOW | LOWE'S COMPANIES INC. | 113.40 | -1.62 | -1.41%",
    ]
    # The table sits between the paragraphs it sits between on the page.
    assert lines[header - 1].startswith("Dow component Home Depot reported")
    assert lines[header + 3].startswith("The home-improvement retailer earned $2.8 billion, or")


def test_post_line_breaks_survive_into_the_text() -> None:
    text = extract_fixture(FORUM).text
    assert "Hi to all,\nI have tested a Power Color Radeon RX7800XT" in text
    assert "Hi,\nDoes disabling hardware decoding or acceleration do anything?" in text


def test_text_leaves_out_navigation_and_footers() -> None:
    news = extract_fixture(NEWS).text
    for noise in (
        "Personal Finance",
        "New Terms of Use",
        "Quotes delayed",
        "Continue Reading Below",
        "Advertisement",
    ):
        assert noise not in news
    docs = extract_fixture(DOCS).text
    for noise in ("Skip to Main Content", "Stack Overflow", "Report an Issue", "uses cookies"):
        assert noise not in docs


def test_visible_text_has_every_block() -> None:
    result = extract_fixture(NEWS)
    assert result.visible_text == "\n".join(block.text for block in result.blocks)
    assert "Personal Finance" in result.visible_text
    assert len(result.visible_text) > len(result.text) > 0


def test_document_over_the_size_limit_is_refused() -> None:
    data = fixture_bytes(NEWS)
    with pytest.raises(DocumentTooLargeError, match="limit"):
        extract(data, config=ExtractionConfig(max_document_bytes=len(data) - 1))
    assert extract(data, config=ExtractionConfig(max_document_bytes=len(data))).content_blocks


def test_truncated_page_says_so() -> None:
    result = extract_fixture(DOCS, ExtractionConfig(max_blocks=30))
    assert len(result.blocks) == 30
    assert result.reason == "only the first 30 blocks were read"


def test_empty_result_says_why_when_the_content_area_kept_nothing() -> None:
    title = "A long headline that is more than forty characters"
    result = extract(f"<html><head><title>{title}</title></head><body><h1>{title}</h1></body></html>")
    assert result.blocks and not result.content_blocks
    assert result.reason == "no block of the content area was kept"


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_every_block_names_the_rule_that_decided_it(name: str) -> None:
    result = extract_fixture(name)
    assert all(block.rule is not Rule.UNJUDGED for block in result.blocks)
    for block in result.blocks:
        implied = RULE_LABELS[block.rule]
        assert implied is None or implied is block.label, (block.rule, block.label, block.reason)


def test_every_rule_has_its_label_and_its_sentence() -> None:
    assert set(RULE_LABELS) == set(RULE_TEXT) == set(Rule)
    assert len({rule.value for rule in Rule}) == len(Rule) and max(rule.value for rule in Rule) < 64
