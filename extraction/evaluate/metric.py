"""The article-extraction-benchmark metric: 4-gram shingle precision/recall, plus snippet and block checks.

Defined in /work/shared/datasets/README.md (scrapinghub/article-extraction-benchmark): tokens are
`re.findall(r'\\w+', text)`, shingles are token 4-grams counted as multisets, and the dataset score is
the F1 of the mean per-page precision and the mean per-page recall.

Block level (seed 000, section 3.8): P = correctly labelled content blocks / blocks labelled content,
R = correctly labelled content blocks / blocks truly content, F = 2PR / (P + R), per page, then each
averaged over the pages (as seed 000's Table 1). The data sets have no block labels, so a block's true
label comes from the ground-truth text: a block is truly content when more than half of its token
4-grams occur in the ground truth (a block of fewer than four tokens: when its tokens occur there as one
contiguous run). Blocks without a token (a lone "|") are not counted.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SHINGLE_SIZE = 4
_TOKEN_RE = re.compile(r"\w+")

Shingle = tuple[str, ...]


@dataclass(slots=True, frozen=True)
class PageScore:
    """Shingle counts of one page (raw multiset counts) and the precision/recall they give."""

    tp: int
    fp: int
    fn: int

    @property
    def normalized(self) -> tuple[float, float, float]:
        """tp, fp, fn divided by their sum, as the benchmark states (ratios, so P/R are unchanged)."""
        total = self.tp + self.fp + self.fn
        if total == 0:
            return (0.0, 0.0, 0.0)
        return (self.tp / total, self.fp / total, self.fn / total)

    @property
    def precision(self) -> float:
        """tp/(tp+fp); 1 when fp = fn = 0, 0 when tp = fp = 0."""
        return self._share_right(self.fp)

    @property
    def recall(self) -> float:
        """tp/(tp+fn); 1 when fp = fn = 0, 0 when tp = fn = 0."""
        return self._share_right(self.fn)

    def _share_right(self, wrong: int) -> float:
        # Nothing to find and nothing found is a perfect score; nothing right at all scores 0.
        if self.fp == 0 and self.fn == 0:
            return 1.0
        if self.tp == 0 and wrong == 0:
            return 0.0
        return self.tp / (self.tp + wrong)


@dataclass(slots=True, frozen=True)
class Summary:
    """Scores over a set of pages: mean precision, mean recall and the F1 of those two means."""

    pages: int
    precision: float
    recall: float
    f1: float


@dataclass(slots=True, frozen=True)
class Tally:
    """How many snippets of one kind came out as wanted (found, or absent), of how many."""

    hits: int = 0
    total: int = 0

    @property
    def share(self) -> float | None:
        """The share of hits, or None when there was no snippet to count."""
        return self.hits / self.total if self.total else None

    def __add__(self, other: Tally) -> Tally:
        """Pool two tallies."""
        return Tally(self.hits + other.hits, self.total + other.total)


@dataclass(slots=True, frozen=True)
class SnippetScore:
    """How many `with` snippets a text contains (`found`) and how many `without` snippets it avoids
    (`absent`)."""

    found: Tally = Tally()
    absent: Tally = Tally()

    def __add__(self, other: SnippetScore) -> SnippetScore:
        """Pool the counts of two scores (micro-average over all snippets)."""
        return SnippetScore(self.found + other.found, self.absent + other.absent)


def tokenize(text: str) -> list[str]:
    """The benchmark's tokens: every run of word characters."""
    return _TOKEN_RE.findall(text)


def shingles(text: str, size: int = SHINGLE_SIZE) -> Counter[Shingle]:
    """The multiset of token n-grams of `text`; a text shorter than `size` tokens is one shorter shingle."""
    tokens = tokenize(text)
    if not tokens:
        return Counter()
    count = max(1, len(tokens) - size + 1)
    return Counter(tuple(tokens[i : i + size]) for i in range(count))


def score_page(truth: str, prediction: str) -> PageScore:
    """Compare one page's predicted text with its ground truth."""
    true_counts = shingles(truth)
    pred_counts = shingles(prediction)
    tp = fp = fn = 0
    for key in true_counts.keys() | pred_counts.keys():
        true_n, pred_n = true_counts[key], pred_counts[key]
        tp += min(true_n, pred_n)
        fp += max(0, pred_n - true_n)
        fn += max(0, true_n - pred_n)
    return PageScore(tp, fp, fn)


def summarize(scores: Sequence[PageScore]) -> Summary:
    """Mean precision over pages with tp+fp > 0, mean recall over pages with tp+fn > 0, F1 of the means."""
    precision = _mean(s.precision for s in scores if s.tp + s.fp > 0)
    recall = _mean(s.recall for s in scores if s.tp + s.fn > 0)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return Summary(len(scores), precision, recall, f1)


def fold_whitespace(text: str) -> str:
    """Collapse every whitespace run to one space, so line breaks never decide a snippet match."""
    return " ".join(text.split())


def score_snippets(text: str, with_: Iterable[str], without: Iterable[str]) -> SnippetScore:
    """Check snippets as case-sensitive substrings of `text`, both sides whitespace-folded."""
    folded = fold_whitespace(text)
    wanted = [fold_whitespace(s) for s in with_]
    unwanted = [fold_whitespace(s) for s in without]
    return SnippetScore(
        found=Tally(sum(1 for s in wanted if s in folded), len(wanted)),
        absent=Tally(sum(1 for s in unwanted if s not in folded), len(unwanted)),
    )


@dataclass(slots=True, frozen=True)
class BlockSummary:
    """Seed 000's block-level precision, recall and F, each the mean over pages."""

    pages: int
    precision: float
    recall: float
    f: float


class TruthGrams:
    """The token n-grams of a ground truth, to tell whether a block's text is part of it."""

    __slots__ = ("_grams", "_tokens")

    def __init__(self, truth: str) -> None:
        self._tokens = tokenize(truth)
        self._grams: dict[int, set[Shingle]] = {}

    def holds(self, text: str) -> bool | None:
        """Whether a block with this text is truly content (None when it has no token)."""
        tokens = tokenize(text)
        if not tokens:
            return None
        size = min(len(tokens), SHINGLE_SIZE)
        grams = [tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1)]
        known = self._of_size(size)
        return 2 * sum(gram in known for gram in grams) > len(grams)

    def _of_size(self, size: int) -> set[Shingle]:
        if size not in self._grams:
            tokens = self._tokens
            self._grams[size] = {tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1)}
        return self._grams[size]


def score_blocks(truth: str, blocks: Iterable[tuple[str, bool]]) -> PageScore:
    """Count one page's blocks: tp (labelled and truly content), fp (labelled only), fn (truly only)."""
    grams = TruthGrams(truth)
    tp = fp = fn = 0
    for text, labelled in blocks:
        truly = grams.holds(text)
        if truly is None:
            continue
        tp += labelled and truly
        fp += labelled and not truly
        fn += truly and not labelled
    return PageScore(tp, fp, fn)


def summarize_blocks(scores: Sequence[PageScore]) -> BlockSummary:
    """Mean precision, recall and F over all pages (a page's F is 0 when its P + R is 0)."""
    f_scores = [
        2 * s.precision * s.recall / (s.precision + s.recall) if s.precision + s.recall else 0.0
        for s in scores
    ]
    return BlockSummary(
        len(scores), _mean(s.precision for s in scores), _mean(s.recall for s in scores), _mean(f_scores)
    )


def _mean(values: Iterable[float]) -> float:
    """Arithmetic mean, 0.0 for no values (no page qualified)."""
    items = list(values)
    return sum(items) / len(items) if items else 0.0
