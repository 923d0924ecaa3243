"""Compact sets and page counts of 64-bit keys: the same answers as a Python set and dict, past merges."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from extraction import compact
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
    assert [key in found for key in keys[3990:4010]] == [key in reference for key in keys[3990:4010]]


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


def test_add_all_is_add_in_turn() -> None:
    keys = _keys(2000, 6)
    one_by_one, batched = KeySet(), KeySet()
    batch = keys[:1500] + keys[:10] + keys[1200:2000]  # repeats within the batch and of earlier keys
    one_by_one_new = [one_by_one.add(key) for key in keys[:1200]]
    assert batched.add_all(keys[:1200]) == one_by_one_new
    assert batched.add_all(batch) == [one_by_one.add(key) for key in batch]
    assert len(batched) == len(one_by_one) == 2000


def test_counts_over_many_runs_match_a_counter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compact, "_RUN_KEYS", 1500)  # runs this small: a few thousand keys span several
    draw = random.Random(7)
    pool = _keys(9000, 8)
    counts, reference = PageCounts(), Counter[int]()
    for _ in range(600):
        page = [draw.choice(pool) for _ in range(40)]
        assert counts.add_page(page) == [reference[key] for key in dict.fromkeys(page)]
        reference.update(set(page))
    assert counts.counts(pool) == [reference[key] for key in pool]
    assert [counts.count(key) for key in pool[:200]] == [reference[key] for key in pool[:200]]
    assert len(counts) == len(reference)


def test_the_keys_held_as_python_objects_stay_bounded() -> None:
    counts = PageCounts()
    keys = _keys(60_000, 9)
    for start in range(0, len(keys), 50):
        counts.add_page(keys[start : start + 50])
        assert len(counts) - sum(len(run) for run in counts._runs.keys) <= compact._MAX_RECENT
    assert all(len(run) <= compact._RUN_KEYS for run in counts._runs.keys)
    assert counts.counts(keys[::997]) == [1] * len(keys[::997])
