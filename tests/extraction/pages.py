"""Typed helpers shared by the extraction tests: the fixture pages, the pipeline steps, the input contract."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lxml import etree

from extraction import ExtractionConfig, ExtractionError, ExtractionResult, extract
from extraction.dom import clean_tree, parse_html
from extraction.result import Block
from extraction.segment import Page, segment

FIXTURES_DIR = Path(__file__).resolve().parent.parent / "fixtures"

NEWS = "news_foxbusiness"
DOCS = "docs_go_tutorial"
FORUM = "forum_doom9"
FORUM_ARCH = "forum_archlinux"
# A page of a thin template (the Apache httpd manual): its article sits right under its container.
APACHE = "docs_apache_mod_asis"
# An article after a menu button whose inner <div>s are never closed (libxml2 then keeps the button open).
ARTICLE_BUTTON = "article_southernliving_button"
# A job board: an intro line above a list of job cards made of short blocks and links.
LISTING = "listing_weworkremotely"
# A developer guide whose steps come in one tab per programming language, all but the chosen one hidden.
TABS = "docs_twilio_tabs"
FIXTURE_NAMES = (NEWS, DOCS, FORUM, FORUM_ARCH)


def fixture_bytes(name: str) -> bytes:
    """The raw bytes of `tests/fixtures/NAME.html` (UTF-8, as the sites served them)."""
    return (FIXTURES_DIR / f"{name}.html").read_bytes()


def fixture_text(name: str) -> str:
    """The fixture decoded as UTF-8."""
    return fixture_bytes(name).decode("utf-8")


def extract_fixture(name: str, config: ExtractionConfig | None = None) -> ExtractionResult:
    """`extract` on a fixture's bytes, as a crawler would call it."""
    return extract(fixture_bytes(name), url=f"https://fixture.test/{name}", config=config)


def find_block(blocks: list[Block], snippet: str, exact: bool = False) -> Block:
    """The first block whose text contains `snippet` (is `snippet`, when `exact`); fails the test, listing
    the block texts, when none does."""
    for block in blocks:
        if (block.text == snippet) if exact else (snippet in block.text):
            return block
    texts = "\n".join(f"  {block.position}: {block.text[:70]!r}" for block in blocks)
    raise AssertionError(f"no block contains {snippet!r}; blocks:\n{texts}")


def cleaned_body(html: str) -> etree._Element:
    """Parse and clean `html`: the page's body, which the test page must have."""
    root = parse_html(html).root
    assert root is not None, "the test page did not parse"
    body = clean_tree(root)
    assert body is not None, "the test page has no body left once cleaned"
    return body


def segment_html(html: str, config: ExtractionConfig | None = None) -> Page:
    """Parse, clean and segment `html` (the steps before feature computation and scoring)."""
    return segment(cleaned_body(html), config or ExtractionConfig())


def check_contract(html: str | bytes, **kwargs: Any) -> ExtractionResult | ExtractionError:
    """Call `extract` and check the input contract: a clear `ExtractionError`, or a result that says why it is
    empty. Any other exception propagates and fails the test."""
    try:
        result = extract(html, **kwargs)
    except ExtractionError as error:
        assert str(error), f"{type(error).__name__} without a message"
        return error
    assert isinstance(result, ExtractionResult)
    if not result.content_blocks:
        assert result.reason, "an empty result must say why it is empty"
    for position, block in enumerate(result.blocks):
        assert block.position == position
        assert block.text.strip(), f"block {position} has no text"
        assert block.reason, f"block {position} has no reason"
    assert result.text == "\n".join(block.text for block in result.blocks if block.is_content)
    return result
