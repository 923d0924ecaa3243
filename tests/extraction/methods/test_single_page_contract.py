"""The input contract of seeds 000, 001, 002 and 004's methods: a clear `ExtractionError`, or a result whose
blocks all have text and a reason, and that says why when it keeps nothing; never a crash or a hang."""

from __future__ import annotations

import pytest

from extraction import ExtractionConfig
from extraction.methods.base import Method
from extraction.methods.keypattern import KeyPattern, KeyPatternParams
from tests.extraction.methods.contract import (
    PROSE,
    SEGMENT_METHODS,
    check_bad_documents_are_refused,
    result_of,
    result_without_text,
)
from tests.extraction.pages import FIXTURE_NAMES, fixture_bytes

# Below the default 64 MB, so that a document past it is cheap to build; above the 11 MB text node page.
MAX_DOCUMENT_BYTES = 12_000_000


@pytest.fixture(params=SEGMENT_METHODS, ids=lambda cls: cls.name)
def method(request: pytest.FixtureRequest) -> Method:
    return request.param(ExtractionConfig(max_document_bytes=MAX_DOCUMENT_BYTES))


def test_empty_and_binary_input_are_refused(method: Method) -> None:
    check_bad_documents_are_refused(method, MAX_DOCUMENT_BYTES)


def test_a_page_without_text_says_so(method: Method) -> None:
    result = result_without_text(method)
    assert (result.blocks, result.reason) == ([], "the page has no visible text")


def test_five_thousand_nested_divs(method: Method) -> None:
    html = f"<html><body><p>{PROSE}</p>" + "<div>" * 5000 + PROSE + "</div>" * 5000 + "</body></html>"
    result = result_of(method, html)
    assert "nest deeper than the parser's limit" in result.reason
    assert PROSE.strip() in " ".join(result.visible_text.split())


def test_a_text_node_over_ten_megabytes(method: Method) -> None:
    result = result_of(method, "<html><body><p>" + "word " * 2_200_000 + f"</p><p>{PROSE}</p></body></html>")
    assert result.blocks[0].text.startswith("word word")


def test_a_list_of_ten_thousand_items(method: Method) -> None:
    items = "".join(f"<li>Item {n}</li>" for n in range(10_000))
    result = result_of(method, f"<html><body><p>{PROSE}</p><ul>{items}</ul></body></html>")
    assert "Item 9999" in result.visible_text


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_pages_keep_some_text(method: Method, name: str) -> None:
    result = result_of(method, fixture_bytes(name))
    assert result.blocks and result.hrefs


def test_blocks_past_the_limit_are_not_read(method: Method) -> None:
    # Patterns of one element find no repetition: each paragraph is its own key-pattern block.
    params = KeyPatternParams(max_pattern_length=1) if isinstance(method, KeyPattern) else None
    limited = type(method)(ExtractionConfig(max_blocks=50), params)
    paragraphs = "\n".join(f"<p>Paragraph {n} of a long page, with a comma.</p><br>" for n in range(200))
    result = result_of(limited, f"<html><body><div>{paragraphs}</div></body></html>")
    assert len(result.blocks) <= 50
    assert "only the first 50" in result.reason
