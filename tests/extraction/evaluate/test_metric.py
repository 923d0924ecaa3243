"""The benchmark metric on hand-made texts whose shingle counts are worked out by hand in each test."""

from __future__ import annotations

import pytest

from extraction.evaluate.metric import (
    PageScore,
    score_page,
    score_snippets,
    shingles,
    summarize,
    tokenize,
)


def test_tokens_are_word_character_runs() -> None:
    assert tokenize("Don't  stop—now, 2024!") == ["Don", "t", "stop", "now", "2024"]


def test_shingles_are_overlapping_4grams() -> None:
    assert shingles("a b c d e") == {("a", "b", "c", "d"): 1, ("b", "c", "d", "e"): 1}


def test_identical_texts_score_one() -> None:
    score = score_page("one two three four five", "one two three four five")
    assert score == PageScore(tp=2, fp=0, fn=0)
    assert (score.precision, score.recall) == (1.0, 1.0)
    assert summarize([score]).f1 == 1.0


def test_disjoint_texts_score_zero() -> None:
    score = score_page("a b c d", "w x y z")
    assert score == PageScore(tp=0, fp=1, fn=1)
    assert (score.precision, score.recall) == (0.0, 0.0)
    assert summarize([score]).f1 == 0.0


def test_partial_overlap() -> None:
    # truth shingles: [the cat sat on] [cat sat on the] [sat on the mat] [on the mat today]
    # pred shingles:  the first three, plus [on the mat yesterday] [the mat yesterday and]
    score = score_page("the cat sat on the mat today", "the cat sat on the mat yesterday and")
    assert score == PageScore(tp=3, fp=2, fn=1)
    assert score.normalized == pytest.approx((3 / 6, 2 / 6, 1 / 6))
    assert score.precision == pytest.approx(3 / 5)
    assert score.recall == pytest.approx(3 / 4)
    expected_f1 = 2 * (3 / 5) * (3 / 4) / (3 / 5 + 3 / 4)
    assert summarize([score]).f1 == pytest.approx(expected_f1)


def test_shingles_count_as_multisets() -> None:
    # truth: [a b c d] x2, [b c d a], [c d a b], [d a b c]; pred: [a b c d] once
    score = score_page("a b c d a b c d", "a b c d")
    assert score == PageScore(tp=1, fp=0, fn=4)
    assert score.precision == 1.0
    assert score.recall == pytest.approx(1 / 5)


def test_text_under_four_tokens_is_one_shorter_shingle() -> None:
    assert shingles("Hello, world!") == {("Hello", "world"): 1}
    assert score_page("Hello, world!", "hello world") == PageScore(tp=0, fp=1, fn=1)  # case matters
    assert score_page("Hello, world!", "Hello world") == PageScore(tp=1, fp=0, fn=0)
    # three tokens make one 3-token shingle, which no 2-token shingle matches
    assert score_page("Hello world", "Hello world again") == PageScore(tp=0, fp=1, fn=1)


def test_empty_prediction() -> None:
    score = score_page("a b c d", "")
    assert score == PageScore(tp=0, fp=0, fn=1)
    assert (score.precision, score.recall) == (0.0, 0.0)
    summary = summarize([score])
    assert (summary.precision, summary.recall, summary.f1) == (0.0, 0.0, 0.0)  # no page counts for precision


def test_empty_truth() -> None:
    score = score_page("", "a b c d")
    assert score == PageScore(tp=0, fp=1, fn=0)
    assert (score.precision, score.recall) == (0.0, 0.0)


def test_both_empty_is_perfect_but_counts_nowhere() -> None:
    score = score_page("", "...")
    assert score == PageScore(tp=0, fp=0, fn=0)
    assert (score.precision, score.recall) == (1.0, 1.0)
    assert summarize([score]).pages == 1
    assert summarize([score]).f1 == 0.0


def test_averaging_rule_over_pages() -> None:
    pages = [
        score_page("one two three four five", "one two three four five"),  # P 1, R 1
        score_page("the cat sat on the mat today", "the cat sat on the mat yesterday and"),  # P 3/5, R 3/4
        score_page("a b c d", ""),  # tp+fp = 0: out of the precision mean; R 0
        score_page("", "a b c d"),  # tp+fn = 0: out of the recall mean; P 0
        score_page("", ""),  # out of both
    ]
    summary = summarize(pages)
    precision = (1 + 3 / 5 + 0) / 3
    recall = (1 + 3 / 4 + 0) / 3
    assert summary.pages == 5
    assert summary.precision == pytest.approx(precision)
    assert summary.recall == pytest.approx(recall)
    assert summary.f1 == pytest.approx(2 * precision * recall / (precision + recall))


def test_no_pages() -> None:
    summary = summarize([])
    assert (summary.pages, summary.precision, summary.recall, summary.f1) == (0, 0.0, 0.0, 0.0)


def test_snippets_fold_whitespace_and_keep_case() -> None:
    text = "Breaking news:\n  the   river\trose.\nHome | Login"
    score = score_snippets(text, ["the river rose.", "The river rose."], ["Login", "Order Now"])
    assert (score.found.hits, score.found.total) == (1, 2)
    assert (score.absent.hits, score.absent.total) == (1, 2)
    assert (score.found.share, score.absent.share) == (0.5, 0.5)
    pooled = score + score_snippets("nothing", ["x"], [])
    assert (pooled.found.hits, pooled.found.total, pooled.absent.total) == (1, 3, 2)
    assert score_snippets("text", [], []).found.share is None
