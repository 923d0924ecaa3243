"""`KnownIds`: what a transaction learned is kept only once it commits, and what is kept is bounded."""

from __future__ import annotations

from pipelines.storage.known import MAX_INLINE_PAGES, KnownBlock, KnownIds


def test_a_transaction_that_fails_leaves_nothing_known() -> None:
    known = KnownIds()
    known.learn_blocks({1: KnownBlock(10, 0)})
    known.learn_inline({2: [5]})
    known.learn_places(3, {("html/body/p", "p", "text"): 65536}, 1)
    assert known.block(1) == KnownBlock(10, 0)  # the open transaction sees what it learned
    known.rollback()
    assert (known.block(1), known.inline_pages(2), known.place_ids(3), known.last_place_row(3)) == (
        None,
        (),
        {},
        0,
    )


def test_a_commit_keeps_what_was_learned() -> None:
    known = KnownIds()
    known.learn_blocks({1: KnownBlock(10, 0)})
    known.learn_inline({2: [5, 6]})
    known.commit()
    known.learn_inline({2: [6, 7]})
    known.commit()
    assert known.block(1) == KnownBlock(10, 0)
    assert known.inline_pages(2) == (5, 6, 7)
    known.forget_inline([2])
    assert known.inline_pages(2) == ()


def test_known_blocks_and_pages_are_bounded() -> None:
    known = KnownIds(capacity=100)
    for value in range(250):
        known.learn_blocks({value: KnownBlock(value + 1, 0)})
        known.commit()
    assert len(known.blocks) <= 100
    assert known.block(249) is not None and known.block(0) is None  # the oldest went first
    known.learn_inline({1: range(3 * MAX_INLINE_PAGES)})
    assert len(known.inline_pages(1)) == MAX_INLINE_PAGES


def test_what_is_kept_packed_reads_back_the_same() -> None:
    known = KnownIds()
    blocks = {
        1: KnownBlock(7, -(2**63)),
        2: KnownBlock(2**40, 2**63 - 1),
        3: KnownBlock(1, 0),
        4: KnownBlock(9, -5),
    }
    known.learn_blocks(blocks)
    known.learn_inline({5: [0], 6: [3, 4]})
    known.commit()
    assert {value: known.block(value) for value in blocks} == blocks
    assert (known.inline_pages(5), known.inline_pages(6)) == ((0,), (3, 4))
