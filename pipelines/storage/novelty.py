"""Which changes of a page's clean text bring the store something new: the revisit signal
(`pipelines.revisit`, through `BatchSummary.revised`).

A page's clean text changes when content blocks come or go. When every block that came is content of
another stored page, and every block that went still is, the change only moved known content between
pages: a listing whose excerpts each shift down one place when a new post arrives on its first page, a
digest that shows other posts' summaries. The store holds the same information as before, and visiting
the page sooner would find nothing new; the listing's first page, which shows the new post's excerpt, does
change. Such a change is still a new version of the page (`pipelines.storage.history`): the store keeps
what the page shows. It only does not count as the page's informative change for its revisits.

"Content of another page" is what the block dictionary counts (`blocks.content_pages`): a block held inline
by one other page is not known by its hash, and counts as new, which at worst brings a revisit sooner.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from pipelines.storage.codec import CONTENT, hash_to_int
from pipelines.storage.content import CHUNK
from pipelines.storage.history import StoredVersion
from pipelines.storage.models import Block
from records import PageRecord


def moved_only(
    session: Session,
    revisions: Sequence[tuple[StoredVersion, PageRecord]],
    stored_blocks: Sequence[list[tuple[str, str]]],
) -> set[int]:
    """The pages (ids) of `revisions` (stored version, fetch; the stored version's `content_blocks`) whose
    content blocks that came or went are all content of another stored page: blocks of the dictionary that
    other pages refer to as content. Call it before the batch writes: what the batch adds is not "before"."""
    if not revisions:
        return set()
    came: dict[int, set[int]] = {}
    went: dict[int, set[int]] = {}
    for (old, new), blocks in zip(revisions, stored_blocks, strict=True):
        before = {hash_to_int(digest) for digest, _ in blocks}
        after = {hash_to_int(block.hash) for block in new.blocks if block.label == CONTENT}
        came[old.page_id], went[old.page_id] = after - before, before - after
    pages = _content_pages(session, set().union(*came.values(), *went.values()))
    # A block that went was this page's content too: another page holds it when two did.
    return {
        page_id
        for page_id in came
        if (came[page_id] or went[page_id])
        and all(pages.get(value, 0) >= 1 for value in came[page_id])
        and all(pages.get(value, 0) >= 2 for value in went[page_id])
    }


def _content_pages(session: Session, values: set[int]) -> dict[int, int]:
    """The stored pages that refer to each of the hashes `values` as content, for those in the dictionary."""
    ordered = sorted(values)
    pages: dict[int, int] = {}
    for start in range(0, len(ordered), CHUNK):
        query = select(Block.hash, Block.content_pages).where(Block.hash.in_(ordered[start : start + CHUNK]))
        pages.update((value, count) for value, count in session.execute(query))
    return pages
