"""Sets and counters of 64-bit keys in about 12 bytes a key, for state that grows with every page crawled.

A Python set or dict of hash strings costs over 100 bytes an entry (the string, its hash slot, the count),
and a crawl meets millions of distinct blocks and URLs, nearly all of them once: an article's paragraphs,
the links to its comments. `PageCounts` keeps each key and its count in sorted numpy runs (a uint64 and
a uint32), with the keys added since the last merge in a small Python dict; `KeySet` is the same with
the count unused.

Memory stays flat and has no spikes:
- the recent keys are at most `_MAX_RECENT` Python objects, however large the counter grows;
- a run holds at most `_RUN_KEYS` keys, and a merge copies only the last run, so it never needs a second
  copy of everything (a 2 million key counter in one array would need 50 MB more for a moment).
A lookup costs a dict probe and a binary search per run (a handful for millions of keys); the page-wide
calls (`add_page`, `counts`, `add_all`) search each run once for all of a page's keys. Keys are unsigned (0 to
2**64 - 1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

# Keys kept as Python objects before a merge: at least `_MIN_RECENT` (a small counter, a young cluster's,
# never pays a numpy call), an eighth of the merged keys (a key is copied a few times in all), at most
# `_MAX_RECENT` (their memory is bounded: some 100 bytes each).
_MIN_RECENT = 1024
_MAX_RECENT = 8192
# Keys in one run, at most: 6 MB, what a merge copies.
_RUN_KEYS = 1 << 19
_Keys = npt.NDArray[np.uint64]
_Counts = npt.NDArray[np.uint32]


class _Runs:
    """Sorted runs of distinct keys, each key with a count; no key in two runs."""

    __slots__ = ("counts", "keys", "size")

    def __init__(self) -> None:
        self.keys: list[_Keys] = []
        self.counts: list[_Counts] = []
        self.size = 0

    def count(self, key: int) -> int:
        """The key's count (0: absent), with one binary search per run."""
        for keys, counts in zip(self.keys, self.counts, strict=True):
            index = int(keys.searchsorted(np.uint64(key)))
            if index < len(keys) and int(keys[index]) == key:
                return int(counts[index])
        return 0

    def look_up(self, keys: Sequence[int], bump: bool) -> list[int]:
        """Each key's count (0: absent); with `bump`, the counts of the keys found go up by one (the keys
        must then be distinct)."""
        found = np.zeros(len(keys), dtype=np.uint32)
        if not self.size or not keys:
            return found.tolist()
        wanted = np.array(keys, dtype=np.uint64)
        for run_keys, run_counts in zip(self.keys, self.counts, strict=True):
            index = run_keys.searchsorted(wanted)
            index[index == len(run_keys)] = 0
            hit = run_keys[index] == wanted
            where = index[hit]
            found[hit] = run_counts[where]
            if bump:
                run_counts[where] += 1
        return found.tolist()

    def absorb(self, recent: dict[int, int]) -> None:
        """Merge keys absent from every run, with their counts, into the last run (a new one when full)."""
        keys = np.fromiter(recent.keys(), dtype=np.uint64, count=len(recent))
        counts = np.fromiter(recent.values(), dtype=np.uint32, count=len(recent))
        order = keys.argsort()
        keys, counts = keys[order], counts[order]
        if self.keys and len(self.keys[-1]) + len(keys) <= _RUN_KEYS:
            last_keys, last_counts = self.keys.pop(), self.counts.pop()
            # Both sorted: one linear insert, no sort of the whole run.
            at = last_keys.searchsorted(keys)
            keys, counts = np.insert(last_keys, at, keys), np.insert(last_counts, at, counts)
        self.keys.append(keys)
        self.counts.append(counts)
        self.size += len(recent)


class PageCounts:
    """On how many pages each 64-bit key appears, a page counting each of its keys once."""

    __slots__ = ("_recent", "_runs")

    def __init__(self) -> None:
        self._runs = _Runs()
        self._recent: dict[int, int] = {}

    def __len__(self) -> int:
        """How many distinct keys were counted."""
        return self._runs.size + len(self._recent)

    def count(self, key: int) -> int:
        """On how many pages the key appears (0: none)."""
        pages = self._recent.get(key)
        return pages if pages is not None else self._runs.count(key)

    def counts(self, keys: Sequence[int]) -> list[int]:
        """`count` of each key, every run searched once for all of them."""
        recent = self._recent
        older = [key for key in keys if key not in recent]
        in_runs = dict(zip(older, self._runs.look_up(older, bump=False), strict=True))
        return [recent[key] if key in recent else in_runs[key] for key in keys]

    def add(self, key: int) -> int:
        """Count one more page holding the key; on how many it appeared before."""
        return self.add_page((key,))[0]

    def add_page(self, keys: Iterable[int]) -> list[int]:
        """Count one page holding `keys` (each once, however often given); for each distinct key, in the
        order first given, on how many pages it appeared before."""
        distinct = list(dict.fromkeys(keys))
        recent = self._recent
        older = [key for key in distinct if key not in recent]
        in_runs = dict(zip(older, self._runs.look_up(older, bump=True), strict=True))
        before: list[int] = []
        for key in distinct:
            pages = in_runs.get(key)
            if pages is None:
                pages = recent[key]
                recent[key] = pages + 1
            elif not pages:
                recent[key] = 1
            before.append(pages)
        if len(recent) > min(_MAX_RECENT, max(_MIN_RECENT, self._runs.size >> 3)):
            self._runs.absorb(recent)
            recent.clear()
        return before


class KeySet:
    """A set of 64-bit keys that only grows: `add` and `in`."""

    __slots__ = ("_counts",)

    def __init__(self) -> None:
        self._counts = PageCounts()

    def __len__(self) -> int:
        return len(self._counts)

    def __contains__(self, key: int) -> bool:
        return self._counts.count(key) > 0

    def add(self, key: int) -> bool:
        """Add the key; True when it was not there."""
        return self._counts.add(key) == 0

    def add_all(self, keys: Sequence[int]) -> list[bool]:
        """Add each key in turn; for each, True when it was not there (a key given twice is new once)."""
        # `add_page` answers once per distinct key, in the order first given; a repeat finds it there.
        before = dict(zip(dict.fromkeys(keys), self._counts.add_page(keys), strict=True))
        return [before.pop(key, 1) == 0 for key in keys]
