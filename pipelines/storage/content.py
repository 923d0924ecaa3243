"""Which dictionary blocks are content somewhere: `blocks.content_pages` counts the stored pages that refer
to a block as content. A block keeps its text while that count is not 0; a block that turns content
without a text takes it from the batch, or from `pending_texts` (noise texts kept by hash while a crawl
runs, for a re-clean to restore).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import cast

from sqlalchemy import Table, bindparam, func, select, update
from sqlalchemy.orm import Session

from pipelines.storage.dialect import insert_for
from pipelines.storage.models import Block, PendingText

# Rows per statement that names block ids (far under any engine's limit on bound parameters).
CHUNK = 500


def content_deltas(before: Iterable[int], after: Iterable[int]) -> Counter[int]:
    """How one page changes the content count of each block: it held the ids `before`, holds `after`."""
    deltas: Counter[int] = Counter()
    old, new = set(before), set(after)
    for block_id in new - old:
        deltas[block_id] += 1
    for block_id in old - new:
        deltas[block_id] -= 1
    return deltas


def apply_content_deltas(
    session: Session, deltas: Mapping[int, int], texts: Mapping[int, str] | None = None
) -> None:
    """Move the content counts by `deltas`. A block that turns content without a stored text takes it
    from `texts` (by block id) or else from `pending_texts`."""
    entering = _move_counts(session, {block: delta for block, delta in deltas.items() if delta})
    if entering:
        _fill_texts(session, entering, texts or {})


def _move_counts(session: Session, moved: Mapping[int, int]) -> list[int]:
    """Add each delta to its block's count, a statement per delta and chunk of ids (nearly every delta is
    1 or -1); the blocks that turned content without a text."""
    by_delta: dict[int, list[int]] = defaultdict(list)
    for block_id, delta in moved.items():
        by_delta[delta].append(block_id)
    blocks = cast(Table, Block.__table__)
    entering: list[int] = []
    for delta, ids in sorted(by_delta.items()):
        ids.sort()  # rows locked in one order in every process
        for start in range(0, len(ids), CHUNK):
            statement = (
                update(blocks)
                .where(blocks.c.id.in_(ids[start : start + CHUNK]))
                .values(content_pages=blocks.c.content_pages + delta)
                # length(), not IS NULL: SQLite 3.40 gives `text IS NULL` as 0 in RETURNING for a NULL text.
                .returning(blocks.c.id, blocks.c.content_pages, func.length(blocks.c.text))
            )
            for block_id, count, length in session.execute(statement):
                if delta > 0 and count == delta and length is None:
                    entering.append(block_id)
    return entering


def _fill_texts(session: Session, ids: list[int], texts: Mapping[int, str]) -> None:
    """Store the text of blocks turning content that have none: the batch's, else the one kept apart."""
    given = [{"block_id": block_id, "text": texts[block_id]} for block_id in ids if block_id in texts]
    if given:
        blocks = cast(Table, Block.__table__)
        session.execute(update(blocks).where(blocks.c.id == bindparam("block_id")), given)
    pending = sorted(block_id for block_id in ids if block_id not in texts)
    restored = select(PendingText.text).where(PendingText.hash == Block.hash).scalar_subquery()
    for start in range(0, len(pending), CHUNK):
        statement = update(Block).where(Block.id.in_(pending[start : start + CHUNK])).values(text=restored)
        session.execute(statement, execution_options={"synchronize_session": False})


def keep_pending_texts(session: Session, texts: Mapping[int, str]) -> None:
    """Keep noise texts apart by hash (a hash kept already keeps its text)."""
    if texts:
        rows = [{"hash": value, "text": text} for value, text in sorted(texts.items())]
        stmt = insert_for(session, PendingText).on_conflict_do_nothing(index_elements=["hash"])
        session.connection().execute(stmt, rows)
