"""Re-cleaning: a cluster's model, rebuilt from its stored pages, revises each of them; noise text goes.

The model is rebuilt from the database, not taken from a process's memory: what several crawler
processes stored (and earlier crawls) all counts, and the result depends only on the stored pages, so
re-cleaning again gives the same labels. Each block starts again from its single-page decision
(`page_label`), the cluster's model revises it (`extraction.site_models.SiteModel`), and the rows whose
label or reason change are updated, with the page's clean-text size and hash.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from sqlalchemy import Row, exists, select, update
from sqlalchemy.orm import Session

from extraction import Block, ExtractionConfig, text_hash
from extraction.site_models import BlockKey, SiteModel, stored_block
from pipelines.storage.models import CONTENT, Page, PageBlock
from pipelines.storage.models import Block as BlockRow


@dataclass(slots=True)
class RecleanSummary:
    """What re-cleaning did: pages revised, pages whose clean text changed, blocks relabelled."""

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


def reclean_cluster(session: Session, cluster_id: int, config: ExtractionConfig) -> RecleanSummary:
    """Rebuild the cluster's model from its stored pages and revise each page's labels in place."""
    pages = list(_stored_pages(session, cluster_id))
    model = SiteModel(config)
    for page in pages:
        model.observe(page.blocks, page.keys)
    summary = RecleanSummary(pages=len(pages))
    for page in pages:
        if model.ready:
            model.apply(page.blocks, page.title, page.keys)
        _write_changes(session, page, summary)
    return summary


def purge_noise_text(session: Session) -> int:
    """Forget the text of every block that no stored page holds as content; return how many."""
    held = exists().where(PageBlock.block_hash == BlockRow.hash, PageBlock.label == CONTENT)
    result = session.execute(
        update(BlockRow).where(BlockRow.text.is_not(None), ~held).values(text=None),
        execution_options={"synchronize_session": False},
    )
    return int(getattr(result, "rowcount", 0) or 0)


def _stored_pages(session: Session, cluster_id: int) -> Iterator[_StoredPage]:
    """The cluster's pages, each block as single-page extraction labelled it."""
    # Core rows on the session's connection: the ORM's row processing doubled the cost of this pass.
    rows: Iterable[Row[Any]] = session.connection().execute(_ROWS.where(Page.cluster_id == cluster_id))
    for (page_id, title), page_rows in groupby(rows, key=_page_of):
        page = _StoredPage(page_id, title)
        for row in page_rows:
            page.blocks.append(_single_page_block(row))
            page.keys.append(BlockKey(row.block_hash, row.slot, row.shape_hash))
            page.stored.append((row.label, row.reason))
        yield page


def _page_of(row: Row[Any]) -> tuple[int, str]:
    return row.id, row.title


def _single_page_block(row: Row[Any]) -> Block:
    """The stored block as single-page extraction labelled it (noise text may be gone: empty)."""
    label = row.page_label or row.label
    return stored_block(row.position, row.slot, row.tag, row.kind, row.text or "", label, row.page_reason)


def _write_changes(session: Session, page: _StoredPage, summary: RecleanSummary) -> None:
    """Update the page's rows whose label or reason changed, and its clean-text size and hash."""
    changed = [
        {"page_id": page.id, "position": block.position, "label": block.label.value, "reason": block.reason}
        for block, stored in zip(page.blocks, page.stored, strict=True)
        if (block.label.value, block.reason) != stored
    ]
    if not changed:
        return
    session.execute(update(PageBlock), changed)
    text = _clean_text(page.blocks)
    values = {"id": page.id, "stored_bytes": len(text.encode("utf-8")), "content_hash": text_hash(text)}
    session.execute(update(Page), [values])
    summary.pages_changed += 1
    summary.blocks_relabelled += sum(
        1 for block, stored in zip(page.blocks, page.stored, strict=True) if block.label.value != stored[0]
    )


def _clean_text(blocks: Sequence[Block]) -> str:
    return "\n".join(block.text for block in blocks if block.is_content)
