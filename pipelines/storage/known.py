"""What a store process already knows of the database, so that a batch asks it only about what is new.

- Block ids by hash: a template block recurs on every page of its site, and looking its id up again for
  each batch cost more than storing the batch's new blocks. With it, the hash of the text a dictionary
  block holds (`exact_hash`), so that a content block refers to it only when its text is the very same.
- Place ids by cluster, and the last row of `model_places` read for each.
- Blocks stored inline, by hash: the pages holding each (up to `MAX_INLINE_PAGES`). When enough pages hold
  the same block, it moves to the dictionary and they refer to it (`pipelines.storage.repository`).

Ids are learned inside a transaction and kept only once it commits (`commit`; `rollback` forgets them), so
a batch that failed leaves no id of a row that does not exist. The store never deletes a dictionary block or
a place while a crawl runs; ids stay valid for as long as the process does. Block ids and inline blocks are
bounded (`capacity`): the oldest go first (a block forgotten is only stored inline once more). A long crawl
holds `capacity` of each, so what is committed is kept packed: a block as one int (its id above its text
hash), a block inline on one page as that page's id: some 70 and 50 bytes less than the objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import islice
from typing import TypeVar

# Pages remembered per inline block: a block on more pages than this is worth a dictionary entry anyway.
MAX_INLINE_PAGES = 64
# A place of a cluster's template: layout path, tag and kind.
Place = tuple[str, str, str]
_Key = TypeVar("_Key")
_Value = TypeVar("_Value")
_HASH_BITS = 64
_HASH_MASK = (1 << _HASH_BITS) - 1


@dataclass(frozen=True, slots=True)
class KnownBlock:
    """A block of the dictionary (`blocks`)."""

    id: int
    text_hash: int
    """The exact hash of its text (0: it holds none)."""


@dataclass(slots=True)
class KnownIds:
    """Committed ids and inline blocks, with those of the open transaction apart."""

    capacity: int = 65_536
    """Block ids and inline blocks kept, each (``STORAGE_KNOWN_BLOCKS``)."""
    blocks: dict[int, int] = field(default_factory=dict)
    """Packed (`_packed`), by hash."""
    inline: dict[int, int | tuple[int, ...]] = field(default_factory=dict)
    """The pages of each, a page id alone when it is one."""
    places: dict[int, dict[Place, int]] = field(default_factory=dict)
    place_rows: dict[int, int] = field(default_factory=dict)
    _new_blocks: dict[int, KnownBlock] = field(default_factory=dict)
    _new_inline: dict[int, tuple[int, ...]] = field(default_factory=dict)
    _new_places: dict[int, dict[Place, int]] = field(default_factory=dict)
    _new_place_rows: dict[int, int] = field(default_factory=dict)

    def block(self, value: int) -> KnownBlock | None:
        """The dictionary block of a hash, when known."""
        block = self._new_blocks.get(value)
        if block is not None:
            return block
        packed = self.blocks.get(value)
        return None if packed is None else _unpacked(packed)

    def inline_pages(self, value: int) -> tuple[int, ...]:
        """The pages known to hold the block of a hash inline."""
        new = self._new_inline.get(value)
        if new is not None:
            return new
        pages = self.inline.get(value, ())
        return (pages,) if isinstance(pages, int) else pages

    def place_ids(self, cluster_id: int) -> dict[Place, int]:
        """The known places of a cluster (committed and of this transaction)."""
        return self.places.get(cluster_id, {}) | self._new_places.get(cluster_id, {})

    def last_place_row(self, cluster_id: int) -> int:
        """The last row of the cluster's places read or written (0: none)."""
        return max(self.place_rows.get(cluster_id, 0), self._new_place_rows.get(cluster_id, 0))

    def learn_blocks(self, blocks: Mapping[int, KnownBlock]) -> None:
        """Dictionary blocks read or written in the open transaction, by hash."""
        self._new_blocks.update(blocks)

    def learn_inline(self, pages: Mapping[int, Iterable[int]]) -> None:
        """Blocks stored inline in the open transaction: hash -> the pages holding it."""
        for value, page_ids in pages.items():
            known = self.inline_pages(value)
            self._new_inline[value] = (*known, *(p for p in page_ids if p not in known))[:MAX_INLINE_PAGES]

    def forget_inline(self, hashes: Iterable[int]) -> None:
        """Blocks no longer inline (moved to the dictionary)."""
        for value in hashes:
            self._new_inline.pop(value, None)
            self.inline.pop(value, None)

    def learn_places(self, cluster_id: int, ids: Mapping[Place, int], row: int) -> None:
        """Ids of a cluster's places read or written in the open transaction, up to `row`."""
        self._new_places.setdefault(cluster_id, {}).update(ids)
        self._new_place_rows[cluster_id] = max(row, self._new_place_rows.get(cluster_id, 0))

    def commit(self) -> None:
        """Keep what the transaction learned, now that its rows exist for everyone."""
        blocks = {value: _packed(block) for value, block in self._new_blocks.items()}
        _bounded_update(self.blocks, blocks, self.capacity)
        inline = {value: pages[0] if len(pages) == 1 else pages for value, pages in self._new_inline.items()}
        _bounded_update(self.inline, inline, self.capacity)
        for cluster_id, ids in self._new_places.items():
            self.places.setdefault(cluster_id, {}).update(ids)
        self.place_rows.update(self._new_place_rows)
        self.rollback()

    def rollback(self) -> None:
        """Forget what the failed transaction learned."""
        self._new_blocks.clear()
        self._new_inline.clear()
        self._new_places.clear()
        self._new_place_rows.clear()


def _packed(block: KnownBlock) -> int:
    return block.id << _HASH_BITS | (block.text_hash & _HASH_MASK)


def _unpacked(packed: int) -> KnownBlock:
    text_hash = packed & _HASH_MASK
    if text_hash >> (_HASH_BITS - 1):
        text_hash -= 1 << _HASH_BITS  # a signed 64-bit hash, as `exact_hash` gives it
    return KnownBlock(packed >> _HASH_BITS, text_hash)


def _bounded_update(known: dict[_Key, _Value], new: Mapping[_Key, _Value], capacity: int) -> None:
    known.update(new)
    excess = len(known) - capacity
    if excess > 0:
        # Drop a quarter at once rather than one per insertion: dicts keep insertion order.
        for key in list(islice(known, excess + capacity // 4)):
            del known[key]
