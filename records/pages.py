"""The record of a crawled page and of each of its blocks: the item the spider yields and the store keeps.

The spider fills in what the response and the crawl's extraction method give; `pipelines.cluster` sets
`cluster`; `pipelines.method` labels the page again once a site-level method has learned its cluster;
`pipelines.noise` revises labels and sets `content_hash`; `pipelines.store` persists the record. Scrapy
takes a dataclass as an item as it is (itemadapter), so the record is the item: there is no second type.

Some fields travel only part of the way and are cleared before storage: `html`, with a site-level method,
up to `MethodPipeline`; `extracted` and `keys`, the extraction's own blocks, up to `NoisePipeline`, whose
site model reads them.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from extraction import Block, ExtractionResult, Label
from extraction.site_models import BlockKey, block_key, stored_block

# Label values read once: an Enum's `.value` is a property call, and this runs for every block crawled.
_CONTENT, _NOISE = Label.CONTENT.value, Label.NOISE.value


@dataclass(slots=True)
class BlockRecord:
    """One block of a page as it is stored: its hash always, its text only when it is content."""

    position: int
    hash: str
    label: str
    rule: int
    """`label` and `rule` (an `extraction.Rule` value) are the block's decision."""
    path: str
    kind: str
    text: str
    tag: str = ""
    slot: str = ""
    shape: str | None = None
    """`slot` and `shape` are the site model's keys (`extraction.site_models.BlockKey`)."""
    page_label: str = ""
    page_rule: int = 0
    """The single-page decision, which a site model revises into `label` and `rule`."""

    @classmethod
    def of(cls, block: Block, key: BlockKey) -> BlockRecord:
        """The record of an extracted block and its site-model keys."""
        label, rule = _CONTENT if block.is_content else _NOISE, int(block.rule)
        return cls(
            block.position, key.text, label, rule, block.path, block.kind.value, block.text,
            block.tag, key.slot, key.shape, label, rule,
        )  # fmt: skip

    @property
    def is_content(self) -> bool:
        """Whether the block is content (by its current decision)."""
        return self.label == _CONTENT

    @property
    def key(self) -> BlockKey:
        """The block's site-model keys."""
        return BlockKey(self.hash, self.slot, self.shape)

    def single_page_block(self) -> Block:
        """The block as single-page extraction labelled it, for a site model to observe and revise."""
        label = self.page_label or self.label
        return stored_block(self.position, self.slot, self.tag, self.kind, self.text, label, self.page_rule)


@dataclass(slots=True, repr=False)
class PageRecord:
    """One crawled HTML page after extraction, identified by its final URL."""

    url: str
    site: str
    status: int
    fetched_at: datetime
    title: str
    encoding: str
    raw_html_bytes: int
    visible_text_bytes: int
    blocks: list[BlockRecord] = field(default_factory=list)
    cluster: str = ""
    # The layout signature the page was clustered by: the store keeps it to settle the clusters at close.
    signature: frozenset[int] = frozenset()
    content_hash: str = ""
    # How many pages the cluster's model had seen with this one (0: no site model observed it).
    model_pages: int = 0
    # The response body, only when the crawl's method is site-level: `MethodPipeline` learns from it and
    # extracts it again, then clears it (`encoding` is the charset it was decoded with).
    html: bytes = b""
    # The extraction's own blocks (single-page labels) and their site-model keys, while the record is
    # young: a site model observes them without rebuilding one block per record (`model_input`).
    extracted: list[Block] = field(default_factory=list)
    keys: list[BlockKey] = field(default_factory=list)
    # What the crawl state records of the fetch (`pipelines.storage.crawl_state`): how the page was found
    # (its depth and referring URL, the URLs that redirected to it), its new in-scope links, the response's
    # validators for a conditional GET, and the hash of its body.
    depth: int = 0
    referrer: str = ""
    redirects: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    etag: str = ""
    last_modified: str = ""
    html_hash: str = ""
    # Why the extraction kept little or nothing (`ExtractionResult.reason`), for the log of a dropped page.
    reason: str = ""
    # The URL the page names as canonical (`<link rel="canonical">`), when it is another one.
    canonical: str = ""
    # A focused crawl's relevance of the page's clean text to its topic (`extraction.topic`).
    relevance: float | None = None
    # A fleet's lease on the request that fetched the page (`crawler.fleet`), ended when the page is written;
    # empty in one process.
    lease: str = ""

    @classmethod
    def of(
        cls,
        result: ExtractionResult,
        url: str,
        site: str,
        status: int,
        raw_html_bytes: int,
        fetched_at: datetime,
        keys: list[BlockKey],
    ) -> PageRecord:
        """The record of one extracted page, identified by `url` (its final URL in a crawl), with the
        site-model keys of its blocks (`block_keys`)."""
        return cls(
            url=url,
            site=site,
            status=status,
            fetched_at=fetched_at,
            title=result.title,
            encoding=result.encoding,
            raw_html_bytes=raw_html_bytes,
            visible_text_bytes=len(result.visible_text.encode("utf-8")),
            blocks=_records(result, keys),
            extracted=result.blocks,
            keys=keys,
            reason=result.reason,
            canonical=result.canonical_url if result.canonical_url not in (None, url) else "",
        )

    def relabel(self, result: ExtractionResult, shape_max_chars: int) -> None:
        """Take the blocks of another extraction of this page (a site-level method's, once it learned)."""
        self.keys = block_keys(result, shape_max_chars)
        self.blocks, self.extracted = _records(result, self.keys), result.blocks
        self.visible_text_bytes = len(result.visible_text.encode("utf-8"))

    def model_input(self) -> tuple[list[Block], list[BlockKey]]:
        """The blocks as single-page extraction labelled them, and their keys, for a site model."""
        if len(self.extracted) == len(self.blocks):
            return self.extracted, self.keys
        # A record not made by `of`, or whose extraction was forgotten: rebuilt from its block records.
        return [record.single_page_block() for record in self.blocks], [record.key for record in self.blocks]

    def forget_extraction(self) -> None:
        """Drop the extraction's blocks: only the block records travel on to storage."""
        self.extracted, self.keys = [], []

    def __repr__(self) -> str:
        # Scrapy logs an item whose pipeline failed: its URL and size, not every block's text.
        return f"PageRecord(url={self.url!r}, cluster={self.cluster!r}, {len(self.blocks)} blocks)"

    @property
    def content_text(self) -> str:
        """The informative text of the page, blocks in page order, one per line."""
        return "\n".join(block.text for block in self.blocks if block.label == "content")

    @property
    def single_page_text(self) -> str:
        """The informative text as single-page extraction labelled it, before a site model revised it."""
        return "\n".join(
            block.text for block in self.blocks if (block.page_label or block.label) == "content"
        )


def block_keys(result: ExtractionResult, shape_max_chars: int) -> list[BlockKey]:
    """The site-model keys of an extraction's blocks, with the `shape_max_chars` of its site's config."""
    return [block_key(block, shape_max_chars) for block in result.blocks]


def _records(result: ExtractionResult, keys: list[BlockKey]) -> list[BlockRecord]:
    """The stored form of every block of an extraction result, with its site-model keys."""
    return [BlockRecord.of(block, key) for block, key in zip(result.blocks, keys, strict=True)]


def html_hash(body: bytes) -> str:
    """The hash of a response body (what a revisit policy that watches the raw page compares)."""
    return hashlib.blake2b(body, digest_size=8).hexdigest()


_Pipeline = TypeVar("_Pipeline")


def pages_only(
    process_page: Callable[[_Pipeline, PageRecord], PageRecord],
) -> Callable[[_Pipeline, Any], Any]:
    """A pipeline's ``process_item`` that sees pages only: another item (a request's outcome for the crawl
    state, `records.urls.UrlRecord`) passes through untouched."""

    @functools.wraps(process_page)
    def process_item(pipeline: _Pipeline, item: Any) -> Any:
        return process_page(pipeline, item) if isinstance(item, PageRecord) else item

    return process_item
