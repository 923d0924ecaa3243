"""Lin & Ho's term entropy over a site's pages, with the page being labelled counted in.

`site_models.entropy.TermEntropy` keeps a cluster's statistics; the methods of seed 004 (InfoDiscoverer,
k-MIB) measure a page against the cluster it belongs to, so a page that was not among the learned pages
is added to the statistics for its own labelling, without changing them. `SiteTermsMethod` is what those
methods share: the statistics, and `learn` counting each page's blocks in them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from extraction.methods.base import Method, ParamsT, SitePage
from extraction.methods.sitepages import LearnedPage, learned_pages
from extraction.result import Block
from extraction.segment import segment
from extraction.site_models.entropy import TermEntropy, terms

EntropyOf = Callable[[str], float]


@dataclass(slots=True)
class ClusterTerms:
    """Term statistics of the learned pages, each counted once (by its `page_key`)."""

    stats: TermEntropy = field(default_factory=TermEntropy)
    keys: set[str] = field(default_factory=set)

    def observe(self, key: str, blocks: Iterable[Block]) -> None:
        """Count one learned page (a page seen twice counts once)."""
        if key not in self.keys:
            self.keys.add(key)
            self.stats.observe(blocks)

    def other_pages(self, key: str) -> int:
        """How many learned pages are not the page `key`."""
        return self.stats.pages - (key in self.keys)

    def entropy_of(self, key: str, blocks: Iterable[Block]) -> EntropyOf:
        """Term entropy over the learned pages and this page (once): normalised by log N, in [0, 1]."""
        if key in self.keys:
            return self.stats.term_entropy
        stats = self.stats
        counts = Counter(term for block in blocks for term in terms(block.text))
        log_pages = math.log(stats.pages + 1) if stats.pages else 0.0

        def entropy(term: str) -> float:
            # H = log T - (1/T) sum tf log tf, as in TermEntropy, with this page's frequency added.
            count = counts[term]
            total = stats.totals[term] + count
            if total == 0 or log_pages == 0.0:
                return 0.0
            tf_log_tf = stats.tf_log_tf.get(term, 0.0) + (count * math.log(count) if count else 0.0)
            return min(max((math.log(total) - tf_log_tf / total) / log_pages, 0.0), 1.0)

        return entropy


class SiteTermsMethod(Method[ParamsT]):
    """A site-level method that measures a page against the terms of the site's learned pages: `learn`
    segments each page and counts its blocks' terms in `terms` (the feature-document matrix, kept as
    per-term sums)."""

    site_level = True

    def setup(self) -> None:
        """Empty term sums: the terms of the pages learned."""
        self.terms = ClusterTerms()

    def learn(self, pages: Sequence[SitePage]) -> None:
        """Count the terms of each page, then keep what else the method keeps of it (`learned`)."""
        for page in learned_pages(pages, self.config):
            blocks = segment(page.body, self.config).blocks
            self.terms.observe(page.key, blocks)
            self.learned(page, blocks)

    def learned(self, page: LearnedPage, blocks: list[Block]) -> None:
        """What the method keeps of a learned page besides its terms (its blocks are `segment`'s): nothing
        here."""
