"""Seed 000's block-level precision, recall and F, with true labels derived from the ground-truth text."""

from __future__ import annotations

import pytest

from extraction.evaluate.metric import PageScore, TruthGrams, score_blocks, summarize_blocks

TRUTH = "The council met on Tuesday evening. After a long debate it approved the budget."


def test_a_block_is_truly_content_when_most_of_its_4grams_are_in_the_truth() -> None:
    grams = TruthGrams(TRUTH)
    assert grams.holds("After a long debate it approved the budget.") is True
    # 7 of its 9 four-grams come from the truth: most.
    assert grams.holds("The council met on Tuesday evening. After a long debate. Share now") is True
    # 2 of 7 ("The council met on", "council met on Tuesday"): not most.
    assert grams.holds("The council met on Tuesday. Share this story on Facebook") is False
    # 3 of 6: half is not most.
    assert grams.holds("The council met on Tuesday evening. Share this now") is False
    assert grams.holds("Subscribe to our newsletter today") is False


def test_a_short_block_must_occur_as_a_contiguous_run() -> None:
    grams = TruthGrams(TRUTH)
    assert grams.holds("the budget") is True
    assert grams.holds("budget the") is False
    assert grams.holds("Home") is False
    assert grams.holds(" | — ") is None  # no token: not counted


def test_block_counts_of_one_page() -> None:
    blocks = [
        ("The council met on Tuesday evening.", True),  # tp
        ("After a long debate it approved the budget.", False),  # fn
        ("Subscribe to our newsletter today", True),  # fp
        ("Home", False),  # tn
        ("|", True),  # no token
    ]
    assert score_blocks(TRUTH, blocks) == PageScore(tp=1, fp=1, fn=1)


def test_pages_are_averaged_as_in_seed_000s_table() -> None:
    perfect = PageScore(tp=3, fp=0, fn=0)
    half = PageScore(tp=1, fp=1, fn=1)  # P 1/2, R 1/2, F 1/2
    nothing_kept = PageScore(tp=0, fp=0, fn=2)  # P 0, R 0, F 0
    summary = summarize_blocks([perfect, half, nothing_kept])
    assert summary.pages == 3
    assert summary.precision == pytest.approx((1 + 0.5 + 0) / 3)
    assert summary.recall == pytest.approx((1 + 0.5 + 0) / 3)
    assert summary.f == pytest.approx((1 + 0.5 + 0) / 3)
    lopsided = summarize_blocks([PageScore(tp=1, fp=0, fn=3)])  # P 1, R 1/4: F is per page, 0.4
    assert lopsided.f == pytest.approx(0.4)
