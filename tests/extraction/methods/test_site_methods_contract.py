"""The input contract of the visual and site-level methods (seeds 001, 003, 004): a clear `ExtractionError`,
or a result whose blocks all have text and a reason and that says why it keeps nothing; never a crash or a
hang, with or without pages learned; and a run over every aeb page."""

from __future__ import annotations

from pathlib import Path

import pytest

from extraction import ExtractionConfig
from extraction.methods.base import Method, SitePage
from extraction.methods.registry import METHODS as REGISTERED
from tests.extraction.methods.contract import (
    OTHER_METHODS,
    PROSE,
    check_bad_documents_are_refused,
    outcome,
    result_of,
    result_without_text,
)
from tests.extraction.methods.sites import aeb_by_host
from tests.extraction.pages import FIXTURE_NAMES, fixture_bytes

# Below the default 64 MB, so that a document past it is cheap to build.
MAX_DOCUMENT_BYTES = 10_000_000

# Pages of a made-up site for `learn`: a shared menu and footer around a different article each.
SITE = [
    SitePage(
        f"<html><body><ul><li><a href='/'>Home</a></li><li><a href='/a'>About</a></li></ul>"
        f"<div><h1>Story {n}</h1><p>{PROSE.replace('paragraph', f'paragraph {n} item{n}')}</p></div>"
        f"<p>Copyright the site, all rights reserved.</p></body></html>",
        f"https://example.test/{n}",
    )
    for n in range(3)
]


@pytest.fixture(params=[(cls, learned) for cls in OTHER_METHODS for learned in (False, True)], ids=str)
def method(request: pytest.FixtureRequest) -> Method:
    cls, learned = request.param
    created: Method = cls(ExtractionConfig(max_document_bytes=MAX_DOCUMENT_BYTES))
    if learned:
        created.learn(SITE)
    return created


def test_empty_and_binary_input_are_refused(method: Method) -> None:
    check_bad_documents_are_refused(method, MAX_DOCUMENT_BYTES)


def test_a_page_without_text_says_so(method: Method) -> None:
    result = result_without_text(method)
    assert result.blocks == [] and "the page has no visible text" in result.reason


def test_bad_pages_to_learn_from_are_skipped() -> None:
    for cls in OTHER_METHODS:
        created = cls()
        created.learn([SitePage(b""), SitePage(b"\x89PNG\r\n"), SitePage("<p>x</p>"), *SITE])
        assert result_of(created, SITE[0].html).blocks


def test_five_thousand_nested_divs(method: Method) -> None:
    html = f"<html><body><p>{PROSE}</p>" + "<div>" * 5000 + PROSE + "</div>" * 5000 + "</body></html>"
    result = result_of(method, html)
    assert "nest deeper than the parser's limit" in result.reason
    assert PROSE.strip() in result.visible_text


def test_nesting_just_under_the_parser_limit(method: Method) -> None:
    html = (
        f"<html><body><p>{PROSE}</p>" + "<div class='x'>" * 2000 + PROSE + "</div>" * 2000 + "</body></html>"
    )
    assert result_of(method, html).visible_text.count(PROSE.strip()) == 2


def test_ten_thousand_list_items(method: Method) -> None:
    # In paragraphs: GetBlocks keeps a list whole, and one block is cut at `max_block_chars`.
    items = "".join(f"<li><p>Item {n}, with a few words.</p></li>" for n in range(10_000))
    result = result_of(method, f"<html><body><p>{PROSE}</p><ul>{items}</ul></body></html>")
    assert "Item 9999, with a few words." in result.visible_text


def test_a_huge_style_sheet_is_read_within_bounds(method: Method) -> None:
    rules = "".join(
        f".c{n} div > p:not(.x) {{ width: {n}px; border: 1px solid #{n % 999:03d} }}\n" for n in range(30_000)
    )
    html = (
        f"<html><head><style>{rules}</style></head><body class='c7'><div><p>{PROSE}</p></div></body></html>"
    )
    assert PROSE.strip() in result_of(method, html).visible_text


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_pages_keep_some_text(method: Method, name: str) -> None:
    result = result_of(method, fixture_bytes(name))
    assert result.blocks and result.hrefs and result.content_blocks


@pytest.mark.slow
@pytest.mark.parametrize("cls", list(REGISTERED.values()), ids=lambda cls: cls.name)
def test_every_aeb_page(cls: type[Method], aeb_dir: Path) -> None:
    """Every method, single-page or site-level, runs on every aeb page; site-level methods learn from the
    other aeb pages of the same host (most hosts have one page)."""
    for pages in aeb_by_host(aeb_dir).values():
        for page_id, page in pages:
            created = cls()
            if cls.site_level:
                created.learn([other for other_id, other in pages if other_id != page_id])
            outcome(created, page.html)
