"""Lin & Ho's InfoDiscoverer (seed 004): term entropy across a cluster's pages, block entropy, threshold.

A term's entropy is that of its frequency distribution over the cluster's pages, normalised to [0, 1]
by log N: a term spread evenly over every page (a menu word) scores 1, a term of one page 0. A block's
entropy is the mean entropy of its terms; blocks above the threshold are redundant.

Only two numbers per term are kept, its total frequency T and the sum of tf*log(tf) over pages, since
H = log T - (1/T) * sum tf*log(tf): memory grows with the vocabulary, not the pages.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from extraction.result import Block

_TERM = re.compile(r"[^\W\d_]{2,}")
# Lin & Ho drop stop words: they are on every page, so they would lift every block's entropy alike.
_STOP_LIST = """a about above after again all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers him his how if in into is it its itself just me more most my no nor not now
    of off on once only or other our ours out over own same she should so some such than that the their
    theirs them then there these they this those through to too under until up very was we were what
    when where which while who whom why will with would you your yours"""
_STOP_WORDS = frozenset(_STOP_LIST.split())


def terms(text: str) -> list[str]:
    """The block's features: lower-cased words of two or more letters, stop words removed."""
    return [term for term in _TERM.findall(text.lower()) if term not in _STOP_WORDS]


@dataclass(slots=True)
class TermEntropy:
    """Per-term frequency statistics of a cluster's pages."""

    pages: int = 0
    totals: Counter[str] = field(default_factory=Counter)
    tf_log_tf: dict[str, float] = field(default_factory=dict)

    def observe(self, blocks: Iterable[Block]) -> None:
        """Add one page's term frequencies (a column of the feature-document matrix)."""
        self.pages += 1
        # One pass over the page's text: term counts do not depend on block boundaries.
        counts = Counter(terms("\n".join(block.text for block in blocks)))
        self.totals.update(counts)
        for term, count in counts.items():
            self.tf_log_tf[term] = self.tf_log_tf.get(term, 0.0) + count * math.log(count)

    def term_entropy(self, term: str) -> float:
        """The term's entropy over the pages, normalised by log N (0 for an unseen term or one page)."""
        total = self.totals[term]
        if total == 0 or self.pages < 2:
            return 0.0
        entropy = math.log(total) - self.tf_log_tf[term] / total
        return min(max(entropy / math.log(self.pages), 0.0), 1.0)

    def block_entropy(self, text: str) -> float | None:
        """The mean entropy of the block's distinct terms; None for a block without terms."""
        features = set(terms(text))
        return self.mean_entropy(features) if features else None

    def mean_entropy(self, features: Collection[str]) -> float:
        """The mean entropy of distinct terms (at least one)."""
        return sum(self.term_entropy(term) for term in features) / len(features)


def greedy_threshold(
    blocks: Sequence[tuple[float, Sequence[str]]], step: float, flat_share: float, floor: float
) -> float:
    """Lin & Ho's greedy entropy threshold over (block entropy, block terms) pairs.

    The threshold rises in `step`s; at each the informative blocks are those at or under it. It stops
    where one more step adds under `flat_share` of the terms: past that point only redundant blocks,
    whose words the informative ones already hold, would join. Computed on the page being revised (the
    model keeps counters, not pages); pages of one template share their template, so the cut falls in
    the same place. Never below `floor`.
    """
    everything = {term for _, block_terms in blocks for term in block_terms}
    if not everything:
        return 1.0
    steps = max(1, round(1.0 / step))
    previous = _covered(blocks, step)
    for index in range(2, steps + 1):
        current = _covered(blocks, index * step)
        if len(current - previous) < flat_share * len(everything):
            return max((index - 1) * step, floor)
        previous = current
    return 1.0


def _covered(blocks: Sequence[tuple[float, Sequence[str]]], threshold: float) -> set[str]:
    return {term for entropy, block_terms in blocks if entropy <= threshold for term in block_terms}
