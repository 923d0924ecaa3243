"""Compact sets and page counts of 64-bit keys: the same answers as a Python set and dict, past merges."""

from __future__ import annotations

import random
from collections import Counter

from extraction.compact import KeySet, PageCounts


def _keys(count: int, seed: int) -> list[int]:
    draw = random.Random(seed)
    # The top bit set on half of them: keys are unsigned 64-bit hashes.
    return [draw.getrandbits(64) for _ in range(count)]


def test_a_key_set_answers_as_a_python_set_across_merges() -> None:
    keys = _keys(5000, 1)
    found, reference = KeySet(), set()
    for key in keys[:4000]:
        assert found.add(key) == (key not in reference)
        reference.add(key)
    assert found.add(keys[0]) is False
    assert len(found) == len(reference) == 4000
    assert all(key in found for key in keys[:4000])
    assert not any(key in found for key in keys[4000:])
    assert found.holds(keys[3990:4010]) == [key in reference for key in keys[3990:4010]]


def test_the_largest_and_smallest_keys_are_kept_exactly() -> None:
    found = KeySet()
    for key in [0, 2**64 - 1, 2**63, 2**63 - 1, *_keys(3000, 2)]:
        found.add(key)
    # Compared as float64 these would be equal to their neighbours; as uint64 they are not.
    assert 2**64 - 1 in found and 2**64 - 2 not in found
    assert 2**63 in found and 2**63 + 1 not in found


def test_page_counts_count_each_key_once_per_page() -> None:
    draw = random.Random(3)
    pool = _keys(3000, 4)
    counts, reference = PageCounts(), Counter[int]()
    for _ in range(400):
        page = [draw.choice(pool) for _ in range(20)] + pool[:5]  # five keys on every page
        before = counts.add_page(page)
        distinct = list(dict.fromkeys(page))
        assert before == [reference[key] for key in distinct]
        reference.update(distinct)
    assert all(counts.count(key) == reference[key] for key in pool)
    assert counts.count(pool[0]) == 400
    assert len(counts) == len(reference)


def test_adding_one_key_at_a_time_counts_as_pages_of_one_key() -> None:
    keys = _keys(1500, 5)
    counts = PageCounts()
    assert [counts.add(key) for key in keys] == [0] * len(keys)
    assert [counts.add(key) for key in keys[:3]] == [1, 1, 1]
    assert counts.add(keys[0]) == 2
    assert (counts.count(keys[0]), counts.count(keys[1]), counts.count(keys[-1])) == (3, 2, 1)
