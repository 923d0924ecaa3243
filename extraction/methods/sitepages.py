"""What the site-level and GetBlocks methods share: pages prepared for `learn`, page identity, labels, the
finished result."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from lxml import etree

from extraction.config import ExtractionConfig
from extraction.errors import ExtractionError
from extraction.methods.base import SitePage
from extraction.prepare import PreparedPage, prepare, result_reason, truncated
from extraction.result import Block, ExtractionResult, Label
from extraction.segment import Page


@dataclass(slots=True)
class LearnedPage:
    """One page handed to `learn`, prepared: its identity, URL, title and cleaned body."""

    key: str
    url: str | None
    title: str
    body: etree._Element


def page_key(html: str | bytes) -> str:
    """The identity of a page's HTML: a site-level method leaves the page it labels out of what it learned."""
    data = html.encode("utf-8", "surrogatepass") if isinstance(html, str) else html
    return hashlib.blake2b(data, digest_size=8).hexdigest()


def learned_pages(pages: Sequence[SitePage], config: ExtractionConfig) -> Iterator[LearnedPage]:
    """Each page decoded, parsed and cleaned as `extract` would; unreadable pages and pages without a body
    are skipped (a site's 404 page or image must not stop the method learning from the rest)."""
    for page in pages:
        try:
            prepared = prepare(page.html, page.url, config, page.encoding)
        except ExtractionError:
            continue
        if prepared.body is not None:
            yield LearnedPage(page_key(page.html), page.url, prepared.result.title, prepared.body)


def own_text_share(block: Block) -> float:
    """The share of the block's text outside anchors (0 for a block without text)."""
    features = block.features
    if not features.text_length:
        return 0.0
    return 1.0 - min(features.link_text_length / features.text_length, 1.0)


def label(block: Block, content: bool, score: float, reason: str) -> None:
    """Set a block's label, score and reason."""
    block.label = Label.CONTENT if content else Label.NOISE
    block.score = score
    block.reason = reason


def finish(prepared: PreparedPage, page: Page, reason: str = "") -> ExtractionResult:
    """The prepared result filled with the labelled page; `reason` says what limited the method, if
    anything, and the result says why it is empty when it is."""
    result = prepared.result
    result.blocks, result.hrefs = page.blocks, page.hrefs
    cut_short = truncated(page.truncated, len(page.blocks))
    # `prepare` left the parser's own note (nesting past its depth limit) in the reason.
    nothing_kept = "no block was labelled content"
    result.reason = result_reason(page.blocks, nothing_kept, reason, cut_short, result.reason)
    return result
