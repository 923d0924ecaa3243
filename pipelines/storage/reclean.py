"""Re-cleaning: a cluster's model revises each of its stored pages; noise text goes.

The model is the cluster's, learned by this process from exactly the pages stored, or else rebuilt from
the database: what several crawler processes stored (and earlier crawls) all counts, and the result
depends only on the stored pages, so re-cleaning again gives the same labels. Each block starts again
from its single-page decision (`page_label`), the cluster's model revises it
(`extraction.site_models.SiteModel`), and the rows whose label or rule change are updated (a reason whose
counts alone moved is left as it is), with the clean-text size and hash of the pages relabelled.

Revising reads only the text of the blocks a page set aside (may one be restored, is it the headline?):
the model judges a content block by its keys alone. Reading every block's text was 60% of the cost of
re-cleaning a large cluster; the clean text of the few pages whose labels change is read back instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter
from typing import Any

from sqlalchemy import Select, case, exists, func, select, update
from sqlalchemy.orm import Session

from extraction import Block, Label, text_hash
from extraction.site_models import BlockKey, SiteModel, SiteModelConfig, stored_block
from pipelines.storage.models import CONTENT, Page, PageBlock
from pipelines.storage.models import Block as BlockRow


@dataclass(slots=True)
class RecleanSummary:
    """What re-cleaning did: pages revised, pages whose clean text changed (a block relabelled), blocks
    relabelled; models rebuilt from the store, and noise texts forgotten."""

    pages: int = 0
    pages_changed: int = 0
    blocks_relabelled: int = 0
    models_rebuilt: int = 0
    purged: int = 0

    def add(self, other: RecleanSummary) -> None:
        """Add another summary's counts to this one."""
        self.pages += other.pages
        self.pages_changed += other.pages_changed
        self.blocks_relabelled += other.blocks_relabelled
        self.models_rebuilt += other.models_rebuilt
        self.purged += other.purged


@dataclass(slots=True)
class _StoredPage:
    id: int
    title: str
    blocks: list[Block] = field(default_factory=list)
    keys: list[BlockKey] = field(default_factory=list)
    stored: list[tuple[Label, str]] = field(default_factory=list)


# Every stored block in page order; the text column is added by each query below. Ordered by `pages.id`,
# not the equal `page_blocks.page_id`: SQLite then reads the rows in index order instead of sorting them.
_BLOCKS = (
    select(
        PageBlock.page_id,
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
    )
    .join(Page, Page.id == PageBlock.page_id)
    .order_by(Page.id, PageBlock.position)
)
_TEXT = select(BlockRow.text).where(BlockRow.hash == PageBlock.block_hash).scalar_subquery()
# The single-page label, or the label of a row stored before single-page labels were (empty).
_SET_ASIDE = func.coalesce(func.nullif(PageBlock.page_label, ""), PageBlock.label) != CONTENT
# Learning needs every text (the content region weighs content by its length), and so do Lin & Ho's
# redundant blocks (their terms); a correlated subquery in a CASE reads a text only when the CASE asks.
_ROWS_WITH_TEXT = _BLOCKS.add_columns(_TEXT)
_ROWS_TO_REVISE = _BLOCKS.add_columns(case((_SET_ASIDE, _TEXT)))
_CLEAN_TEXT = (
    select(PageBlock.page_id, BlockRow.text)
    .join(BlockRow, BlockRow.hash == PageBlock.block_hash)
    .where(PageBlock.label == CONTENT)
    .order_by(PageBlock.page_id, PageBlock.position)
)
_DIGITS = re.compile(r"\d+")
_LABELS = {label.value: label for label in Label}
# Rows per fetch of the streamed pass: a few pages' blocks at a time.
_ROWS_PER_FETCH = 2000
# Pages per query reading clean text back (far under any database's limit on bound parameters).
_PAGES_PER_QUERY = 500


def reclean_cluster(
    session: Session, cluster_id: int, config: SiteModelConfig, model: SiteModel | None = None
) -> RecleanSummary:
    """Revise the labels of every stored page of the cluster with its model, in place.

    `model` is the cluster's model when the caller holds one that has seen exactly the stored pages
    (`stored_urls`); otherwise it is rebuilt from them. Pages are read as a stream, one at a time, and
    the changed rows written at the end, so memory holds the model and the changes, not the pages.
    """
    if model is None:
        model = rebuilt_model(session, cluster_id, config)
    rows = _ROWS_WITH_TEXT if config.drop_redundant else _ROWS_TO_REVISE
    changes = _Changes()
    for page in _stored_pages(session, cluster_id, rows):
        if model.ready:
            model.apply(page.blocks, page.title, page.keys)
        changes.add(page)
    changes.write(session)
    return changes.summary


def rebuilt_model(session: Session, cluster_id: int, config: SiteModelConfig) -> SiteModel:
    """The cluster's model learned from its stored pages, as single-page extraction labelled them."""
    model = SiteModel(config)
    for page in _stored_pages(session, cluster_id, _ROWS_WITH_TEXT):
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


def _stored_pages(session: Session, cluster_id: int, rows: Select[Any]) -> Iterator[_StoredPage]:
    """The cluster's pages one at a time, each block as single-page extraction labelled it.

    A block whose text `rows` does not read is empty, as is one whose noise text an earlier crawl
    purged.
    """
    pages = select(Page.id, Page.title).where(Page.cluster_id == cluster_id)
    titles = dict(session.execute(pages).all())
    # Core rows by position, streamed (a server-side cursor on PostgreSQL): the ORM's row processing
    # doubled the cost of this pass, and holding every page of a large cluster at once tripled the
    # crawl's memory.
    query = rows.where(Page.cluster_id == cluster_id).execution_options(yield_per=_ROWS_PER_FETCH)
    for page_id, page_rows in groupby(session.connection().execute(query), key=itemgetter(0)):
        yield _stored_page(page_id, titles[page_id], page_rows)


def _stored_page(page_id: int, title: str, rows: Iterable[Any]) -> _StoredPage:
    page = _StoredPage(page_id, title)
    blocks, keys, stored = page.blocks, page.keys, page.stored
    for _, position, block_hash, slot, shape, tag, kind, page_label, page_reason, label, reason, text in rows:
        blocks.append(stored_block(position, slot, tag, kind, text or "", page_label or label, page_reason))
        keys.append(BlockKey(block_hash, slot, shape))
        stored.append((_LABELS[label], reason))
    return page


@dataclass(slots=True)
class _Changes:
    """The rows re-cleaning changes, gathered page by page and written at once."""

    summary: RecleanSummary = field(default_factory=RecleanSummary)
    blocks: list[dict[str, Any]] = field(default_factory=list)
    relabelled_pages: list[int] = field(default_factory=list)

    def add(self, page: _StoredPage) -> None:
        """Note the page's blocks whose decision changed, and the page when a label did.

        A reason that changed only in its counts ("on 40 of 45 pages" now "on 480 of 526") is the same
        decision: it keeps the counts of the pass that made it, so re-cleaning a large cluster does not
        rewrite every template block of every page.
        """
        self.summary.pages += 1
        changed = [
            (block, stored)
            for block, stored in zip(page.blocks, page.stored, strict=True)
            if block.label is not stored[0] or _new_rule(block.reason, stored[1])
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
        relabelled = sum(1 for block, stored in changed if block.label is not stored[0])
        if relabelled:
            self.relabelled_pages.append(page.id)
            self.summary.pages_changed += 1
            self.summary.blocks_relabelled += relabelled

    def write(self, session: Session) -> None:
        """Update the changed rows (bulk updates by primary key), then the clean-text size and hash of
        the pages relabelled, read back from the rows as now stored."""
        if self.blocks:
            session.execute(update(PageBlock), self.blocks)
        if self.relabelled_pages:
            session.execute(update(Page), _clean_text_rows(session, self.relabelled_pages))


def _clean_text_rows(session: Session, page_ids: Sequence[int]) -> list[dict[str, Any]]:
    """The stored size and hash of each page's clean text (its content blocks joined by newlines)."""
    rows: list[dict[str, Any]] = []
    for start in range(0, len(page_ids), _PAGES_PER_QUERY):
        chunk = page_ids[start : start + _PAGES_PER_QUERY]
        found = session.connection().execute(_CLEAN_TEXT.where(PageBlock.page_id.in_(chunk)))
        texts = {
            page_id: "\n".join(text or "" for _, text in blocks)
            for page_id, blocks in groupby(found, key=itemgetter(0))
        }
        # A page left with no content block (the single-page model found none) has an empty text.
        rows.extend(_size_and_hash(page_id, texts.get(page_id, "")) for page_id in chunk)
    return rows


def _size_and_hash(page_id: int, text: str) -> dict[str, Any]:
    return {"id": page_id, "stored_bytes": len(text.encode("utf-8")), "content_hash": text_hash(text)}


def _new_rule(reason: str, stored: str) -> bool:
    """True when `reason` differs from the stored one by more than its counts."""
    # Most reasons are unchanged: compare before masking, which would cost two regex passes per block.
    return reason != stored and _DIGITS.sub("0", reason) != _DIGITS.sub("0", stored)
