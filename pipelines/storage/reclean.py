"""Re-cleaning: a cluster's model revises each of its stored pages; noise text goes.

The model is the cluster's, learned by this process from exactly the pages stored, or else rebuilt from
the database: what several crawler processes stored (and earlier crawls) all counts, and the result
depends only on the stored pages, so re-cleaning again gives the same labels. Each block starts again
from its single-page decision (`page_label`), the cluster's model revises it
(`extraction.site_models.SiteModel`), and the rows whose label or rule change are updated (a reason whose
counts alone moved is left as it is), with the clean-text size and hash of the pages relabelled.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import exists, select, update
from sqlalchemy.orm import Session

from extraction import Block, ExtractionConfig, text_hash
from extraction.site_models import BlockKey, SiteModel, stored_block
from pipelines.storage.models import CONTENT, Page, PageBlock
from pipelines.storage.models import Block as BlockRow


@dataclass(slots=True)
class RecleanSummary:
    """What re-cleaning did: pages revised, pages whose clean text changed (a block relabelled), blocks
    relabelled."""

    pages: int = 0
    pages_changed: int = 0
    blocks_relabelled: int = 0

    def add(self, other: RecleanSummary) -> None:
        """Add another summary's counts to this one."""
        self.pages += other.pages
        self.pages_changed += other.pages_changed
        self.blocks_relabelled += other.blocks_relabelled


@dataclass(slots=True)
class _StoredPage:
    id: int
    title: str
    blocks: list[Block] = field(default_factory=list)
    keys: list[BlockKey] = field(default_factory=list)
    stored: list[tuple[str, str]] = field(default_factory=list)


_ROWS = (
    select(
        Page.id,
        Page.title,
        PageBlock.position,
        PageBlock.block_hash,
        PageBlock.slot,
        PageBlock.shape_hash,
        PageBlock.tag,
        PageBlock.kind,
        PageBlock.page_label,
        PageBlock.page_reason,
        PageBlock.label,
        PageBlock.reason,
        BlockRow.text,
    )
    .join(PageBlock, PageBlock.page_id == Page.id)
    .join(BlockRow, BlockRow.hash == PageBlock.block_hash)
    .order_by(Page.id, PageBlock.position)
)
_DIGITS = re.compile(r"\d+")
# Rows per fetch of the streamed pass: a few pages' blocks at a time.
_ROWS_PER_FETCH = 2000


def reclean_cluster(
    session: Session, cluster_id: int, config: ExtractionConfig, model: SiteModel | None = None
) -> RecleanSummary:
    """Revise the labels of every stored page of the cluster with its model, in place.

    `model` is the cluster's model when the caller holds one that has seen exactly the stored pages
    (`stored_urls`); otherwise it is rebuilt from them. Pages are read as a stream, one at a time, and
    the changed rows written at the end, so memory holds the model and the changes, not the pages.
    """
    if model is None:
        model = rebuilt_model(session, cluster_id, config)
    changes = _Changes()
    for page in _stored_pages(session, cluster_id):
        if model.ready:
            model.apply(page.blocks, page.title, page.keys)
        changes.add(page)
    changes.write(session)
    return changes.summary


def rebuilt_model(session: Session, cluster_id: int, config: ExtractionConfig) -> SiteModel:
    """The cluster's model learned from its stored pages, as single-page extraction labelled them."""
    model = SiteModel(config)
    for page in _stored_pages(session, cluster_id):
        model.observe(page.blocks, page.keys)
    return model


def stored_urls(session: Session, cluster_id: int) -> set[str]:
    """The URLs of the cluster's stored pages."""
    return set(session.scalars(select(Page.url).where(Page.cluster_id == cluster_id)))


def purge_noise_text(session: Session) -> int:
    """Forget the text of every block that no stored page holds as content; return how many."""
    held = exists().where(PageBlock.block_hash == BlockRow.hash, PageBlock.label == CONTENT)
    result = session.execute(
        update(BlockRow).where(BlockRow.text.is_not(None), ~held).values(text=None),
        execution_options={"synchronize_session": False},
    )
    return int(getattr(result, "rowcount", 0) or 0)


def _stored_pages(session: Session, cluster_id: int) -> Iterator[_StoredPage]:
    """The cluster's pages one at a time, each block as single-page extraction labelled it."""
    # Core rows unpacked by position, streamed (a server-side cursor on PostgreSQL): the ORM's row
    # processing doubled the cost of this pass, and holding every page of a large cluster at once
    # tripled the crawl's memory.
    query = _ROWS.where(Page.cluster_id == cluster_id).execution_options(yield_per=_ROWS_PER_FETCH)
    page: _StoredPage | None = None
    for row in session.connection().execute(query):
        (
            page_id,
            title,
            position,
            block_hash,
            slot,
            shape,
            tag,
            kind,
            page_label,
            page_reason,
            label,
            reason,
            text,
        ) = row
        if page is None or page.id != page_id:
            if page is not None:
                yield page
            page = _StoredPage(page_id, title)
        # Noise text may be gone (purged at the end of an earlier crawl): the block is then empty.
        page.blocks.append(
            stored_block(position, slot, tag, kind, text or "", page_label or label, page_reason)
        )
        page.keys.append(BlockKey(block_hash, slot, shape))
        page.stored.append((label, reason))
    if page is not None:
        yield page


@dataclass(slots=True)
class _Changes:
    """The rows re-cleaning changes, gathered page by page and written at once."""

    summary: RecleanSummary = field(default_factory=RecleanSummary)
    blocks: list[dict[str, Any]] = field(default_factory=list)
    pages: list[dict[str, Any]] = field(default_factory=list)

    def add(self, page: _StoredPage) -> None:
        """Note the page's blocks whose decision changed and, when a label did, its clean-text size and hash.

        A reason that changed only in its counts ("on 40 of 45 pages" now "on 480 of 526") is the same
        decision: it keeps the counts of the pass that made it, so re-cleaning a large cluster does not
        rewrite every template block of every page.
        """
        self.summary.pages += 1
        changed = [
            (block, stored)
            for block, stored in zip(page.blocks, page.stored, strict=True)
            if block.label.value != stored[0] or _new_rule(block.reason, stored[1])
        ]
        self.blocks.extend(
            {
                "page_id": page.id,
                "position": block.position,
                "label": block.label.value,
                "reason": block.reason,
            }
            for block, _ in changed
        )
        relabelled = sum(1 for block, stored in changed if block.label.value != stored[0])
        if not relabelled:
            return
        text = "\n".join(block.text for block in page.blocks if block.is_content)
        self.pages.append(
            {"id": page.id, "stored_bytes": len(text.encode("utf-8")), "content_hash": text_hash(text)}
        )
        self.summary.pages_changed += 1
        self.summary.blocks_relabelled += relabelled

    def write(self, session: Session) -> None:
        """Update the changed rows (bulk updates by primary key)."""
        if self.blocks:
            session.execute(update(PageBlock), self.blocks)
        if self.pages:
            session.execute(update(Page), self.pages)


def _new_rule(reason: str, stored: str) -> bool:
    """True when `reason` differs from the stored one by more than its counts."""
    # Most reasons are unchanged: compare before masking, which would cost two regex passes per block.
    return reason != stored and _DIGITS.sub("0", reason) != _DIGITS.sub("0", stored)
