"""Sets and counters of 64-bit keys in about 8 bytes a key, for state that grows with every page crawled.

A Python set or dict of hash strings costs over 100 bytes an entry (the string, its hash slot, the count),
and a crawl meets millions of distinct blocks and URLs, nearly all of them once: an article's paragraphs,
the links to its comments. `KeySet` keeps its keys in a sorted numpy array, with the keys added since the
last merge in a small Python set; `PageCounts` keeps a key met on one page only in a `KeySet` and moves
it to a dict once a second page holds it, so only the few keys that recur pay for a count.

Merging waits until the recent keys are an eighth of the array: a key costs a logarithmic number of
copies in all, and a lookup at most a set probe and a binary search. Keys are unsigned (0 to 2**64 - 1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

# Keys kept apart before any merge: a small set is cheaper than numpy calls.
_MIN_RECENT = 1024
_Keys = npt.NDArray[np.uint64]


class KeySet:
    """A set of 64-bit keys that only grows: `add` and `in`."""

    __slots__ = ("_merged", "_recent")

    def __init__(self) -> None:
        self._merged: _Keys = np.empty(0, dtype=np.uint64)
        self._recent: set[int] = set()

    def __len__(self) -> int:
        return len(self._merged) + len(self._recent)

    def __contains__(self, key: int) -> bool:
        if key in self._recent:
            return True
        merged = self._merged
        if not len(merged):
            return False  # a small set (a young cluster's, most trap-guard paths) never pays a numpy call
        index = int(merged.searchsorted(np.uint64(key)))
        return index < len(merged) and int(merged[index]) == key

    def add(self, key: int) -> bool:
        """Add the key; True when it was not there."""
        if key in self:
            return False
        self.insert_new(key)
        return True

    def holds(self, keys: Sequence[int]) -> list[bool]:
        """`key in self` for each key, the array searched once for all of them."""
        found = [key in self._recent for key in keys]
        merged = self._merged
        if len(merged):
            wanted = np.array(keys, dtype=np.uint64)
            index = merged.searchsorted(wanted)
            index[index == len(merged)] = 0
            in_merged: list[bool] = (merged[index] == wanted).tolist()
            found = [a or b for a, b in zip(found, in_merged, strict=True)]
        return found

    def insert_new(self, key: int) -> None:
        """Add a key known to be absent (a caller that has just looked it up)."""
        recent = self._recent
        recent.add(key)
        if len(recent) > max(_MIN_RECENT, len(self._merged) >> 3):
            added = np.fromiter(recent, dtype=np.uint64, count=len(recent))
            # Two sorted runs: the stable sort (timsort) merges them in linear time.
            self._merged = np.sort(np.concatenate((self._merged, np.sort(added))), kind="stable")
            recent.clear()


class PageCounts:
    """On how many pages each 64-bit key appears, a page counting each of its keys once."""

    __slots__ = ("_more", "_once")

    def __init__(self) -> None:
        self._once = KeySet()
        # Keys on two pages or more. A key moved here stays in `_once`, where it is never read again.
        self._more: dict[int, int] = {}

    def __len__(self) -> int:
        """How many distinct keys were counted."""
        return len(self._once)

    def count(self, key: int) -> int:
        """On how many pages the key appears (0: none)."""
        pages = self._more.get(key)
        if pages is not None:
            return pages
        return 1 if key in self._once else 0

    def add(self, key: int) -> int:
        """Count one more page holding the key; on how many it appeared before."""
        pages = self._more.get(key)
        if pages is not None:
            self._more[key] = pages + 1
            return pages
        if self._once.add(key):
            return 0
        self._more[key] = 2
        return 1

    def add_page(self, keys: Iterable[int]) -> list[int]:
        """Count one page holding `keys` (each once, however often given); for each distinct key, in the
        order first given, on how many pages it appeared before."""
        distinct = list(dict.fromkeys(keys))
        more = self._more
        before = [more.get(key, 0) for key in distinct]
        fresh = [key for key, pages in zip(distinct, before, strict=True) if not pages]
        seen = dict(zip(fresh, self._once.holds(fresh), strict=True))
        for index, key in enumerate(distinct):
            pages = before[index]
            if pages:
                more[key] = pages + 1
            elif seen[key]:
                before[index] = 1
                more[key] = 2
            else:
                self._once.insert_new(key)
        return before
