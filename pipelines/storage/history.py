"""The versions of pages whose informative content changed (`page_history`, the views `page_versions` and
`page_changes`).

A page changes when its clean text's hash changes: a new sidebar, a rotating ad or a date in the footer
changes its noise blocks, not its clean text, and is no change. At a page's first change its old version
is written (its content blocks' hashes and texts), then the new one; each later change writes one
version. A version holds its content blocks' hashes in order and the texts of the blocks the version
before did not have: a version costs its new blocks, and any version's text can be put back together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from extraction import text_hash
from pipelines.storage.codec import (
    CONTENT,
    CONTENT_BIT,
    Element,
    element_block,
    element_code,
    hash_to_int,
    inline_text,
    int_to_hash,
)
from pipelines.storage.content import CHUNK
from pipelines.storage.models import Block, PageHistory
from records import PageRecord


@dataclass(frozen=True, slots=True)
class StoredVersion:
    """A page as stored before a fetch changed it: its id, elements, clean text hash and fetch time."""

    page_id: int
    elements: list[Element]
    content_hash: int
    fetched_at: datetime


def record_versions(
    session: Session,
    changes: Sequence[tuple[StoredVersion, PageRecord]],
    stored_blocks: Sequence[list[tuple[str, str]]],
) -> int:
    """Write the versions of the pages whose clean text changed (old stored version, new fetch; the old
    version's `content_blocks`, read before the batch wrote); how many pages changed."""
    if not changes:
        return 0
    latest = _latest_versions(session, [old.page_id for old, _ in changes])
    rows = []
    for (old, _), blocks in zip(changes, stored_blocks, strict=True):
        if old.page_id not in latest:  # its first change: the stored version is written first
            rows.append(_old_row(old, blocks))
            latest[old.page_id] = [digest for digest, _ in blocks]
    rows += [_new_row(old.page_id, new, latest[old.page_id]) for old, new in changes]
    session.execute(insert(PageHistory), rows)
    return len(changes)


def _latest_versions(session: Session, page_ids: Sequence[int]) -> dict[int, list[str]]:
    """The content block hashes of each page's latest written version (pages with a history)."""
    latest: dict[int, list[str]] = {}
    for start in range(0, len(page_ids), CHUNK):
        chunk = page_ids[start : start + CHUNK]
        last = (
            select(func.max(PageHistory.id))
            .where(PageHistory.page_id.in_(chunk))
            .group_by(PageHistory.page_id)
        )
        rows = session.execute(
            select(PageHistory.page_id, PageHistory.blocks).where(PageHistory.id.in_(last))
        )
        latest.update((page_id, list(blocks)) for page_id, blocks in rows)
    return latest


def content_blocks(session: Session, versions: Sequence[StoredVersion]) -> list[list[tuple[str, str]]]:
    """The (hash, text) of each stored version's content blocks, in order."""
    refs = {
        block_id
        for version in versions
        for value in version.elements
        if element_code(value) & CONTENT_BIT
        for block_id in [element_block(value)]
        if block_id is not None
    }
    dictionary: dict[int, tuple[str, str]] = {}
    ordered = sorted(refs)
    for start in range(0, len(ordered), CHUNK):
        query = select(Block.id, Block.hash, Block.text).where(Block.id.in_(ordered[start : start + CHUNK]))
        dictionary.update(
            (block_id, (int_to_hash(value), text or "")) for block_id, value, text in session.execute(query)
        )
    return [
        [_content(value, dictionary) for value in version.elements if element_code(value) & CONTENT_BIT]
        for version in versions
    ]


def _content(value: Element, dictionary: Mapping[int, tuple[str, str]]) -> tuple[str, str]:
    block_id = element_block(value)
    if block_id is None:
        text = inline_text(str(value)) or ""
        return text_hash(text), text
    return dictionary[block_id]


def _old_row(old: StoredVersion, blocks: list[tuple[str, str]]) -> dict[str, object]:
    return {
        "page_id": old.page_id,
        "fetched_at": old.fetched_at,
        "content_hash": old.content_hash,
        "blocks": [digest for digest, _ in blocks],
        "added": dict(blocks),
    }


def _new_row(page_id: int, page: PageRecord, previous: list[str]) -> dict[str, object]:
    before = set(previous)
    content = [(block.hash, block.text) for block in page.blocks if block.label == CONTENT]
    return {
        "page_id": page_id,
        "fetched_at": page.fetched_at,
        "content_hash": hash_to_int(page.content_hash or text_hash(page.content_text)),
        "blocks": [digest for digest, _ in content],
        "added": {digest: text for digest, text in content if digest not in before},
    }
