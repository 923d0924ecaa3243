"""Property tests: whatever the input, extract() keeps its contract (see `pages.check_contract`).

Inputs are arbitrary bytes and text, markup soup, and the real fixture pages mangled by truncation, byte
flips, tag deletions and insertions drawn by hypothesis.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extraction import ExtractionResult
from tests.extraction.pages import FIXTURE_NAMES, check_contract, fixture_bytes

PROPERTY_SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

PAGES = {name: fixture_bytes(name) for name in FIXTURE_NAMES}
_TAG = re.compile(rb"<[^<>]{0,300}>")

MARKUP_TOKENS = (
    "<p>", "</p>", "<div>", "</div>", "<br>", "<pre>", "</pre>", "<table>", "<tr>", "<td>", "</td>", "<li>",
    "<ul>", "<h1>", "</h1>", "<a href='/x'>", "</a>", "<script>", "</script>", "<style>", "<!--", "-->",
    "<?xml version='1.0' encoding='utf-8'?>", "<![CDATA[", "]]>", "<frameset>", "<body>", "<html>", "<head>",
    "<title>", "<meta charset='koi8-r'>", "<span hidden>", "<div style='display:none'>", "&amp;", "&#0;",
    "&#xD800;", "\x00", "\ufeff", "\udc80", " ", "\n", "\t", "word", "Text, with punctuation. ", "<", ">",
    "/", "'", '"', "=",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Mutation:
    """One edit of a page's bytes; `where` is a fraction of the current length, `value` a drawn number."""

    kind: str
    where: float
    value: int


def apply(data: bytes, mutations: list[Mutation]) -> bytes:
    page = bytearray(data)
    for mutation in mutations:
        if not page:
            break
        at = min(int(mutation.where * len(page)), len(page) - 1)
        if mutation.kind == "truncate":
            del page[at:]
        elif mutation.kind == "flip":
            page[at] ^= 1 << (mutation.value % 8)
        elif mutation.kind == "byte":
            page[at] = mutation.value % 256
        elif mutation.kind == "insert":
            page[at:at] = bytes([mutation.value % 256]) * (1 + mutation.value % 7)
        elif mutation.kind == "delete-tag":
            tags = list(_TAG.finditer(page))
            if tags:
                tag = tags[mutation.value % len(tags)]
                del page[tag.start() : tag.end()]
        elif mutation.kind == "cut-span":
            del page[at : at + 1 + mutation.value % 2000]
    return bytes(page)


mutations = st.lists(
    st.builds(
        Mutation,
        kind=st.sampled_from(["truncate", "flip", "byte", "insert", "delete-tag", "delete-tag", "cut-span"]),
        where=st.floats(min_value=0.0, max_value=1.0),
        value=st.integers(min_value=0, max_value=2**16),
    ),
    max_size=12,
)


@PROPERTY_SETTINGS
@given(st.binary(max_size=4096))
def test_arbitrary_bytes(data: bytes) -> None:
    check_contract(data)


@PROPERTY_SETTINGS
@given(
    st.binary(max_size=2048),
    st.sampled_from([None, "utf-8", "utf-16", "utf-16-be", "koi8-r", "x-bogus", "hex"]),
)
def test_arbitrary_bytes_with_a_charset_hint(data: bytes, hint: str | None) -> None:
    check_contract(data, encoding=hint)


@PROPERTY_SETTINGS
@given(st.text(max_size=2000))
def test_arbitrary_text(text: str) -> None:
    check_contract(text)


@PROPERTY_SETTINGS
@given(st.lists(st.sampled_from(MARKUP_TOKENS), max_size=300).map("".join))
def test_markup_soup(html: str) -> None:
    check_contract(html)
    check_contract(html.encode("utf-8", errors="surrogatepass"))


@PROPERTY_SETTINGS
@given(st.sampled_from(FIXTURE_NAMES), mutations)
def test_mangled_real_pages(name: str, edits: list[Mutation]) -> None:
    data = apply(PAGES[name], edits)
    outcome = check_contract(data)
    if isinstance(outcome, ExtractionResult):
        assert all(block.text.strip() for block in outcome.blocks)
        assert outcome.text == "\n".join(block.text for block in outcome.content_blocks)
    # The same bytes as text, undecodable bytes kept as lone surrogates (surrogateescape).
    check_contract(data.decode("utf-8", errors="surrogateescape"))


def test_unmangled_pages_keep_their_content() -> None:
    # The property above must be able to tell an intact page: with no edit every fixture has content.
    for name in FIXTURE_NAMES:
        outcome = check_contract(apply(PAGES[name], []))
        assert isinstance(outcome, ExtractionResult) and outcome.content_blocks, name
