"""ContentExtractor (seed 004 section 2.5, after Debnath et al.): blocks that repeat across a site are noise.

Every page of the site is partitioned with GetBlocks. A block's features are its terms and the kinds of
non-text element it holds (images, links, form controls); its feature vector is binary, and two blocks are
similar when the cosine of their vectors reaches `contentextractor_similarity`. The inverse block document
frequency of a block is 1/n, n being the number of pages of the site (this one included) holding a similar
block: a block on this page only has IBDF 1 and is content, a block on many pages is redundant.

Similar blocks are found with an inverted index over the rarest features of each block (prefix filtering:
two sets with cosine t share one of the first |A| - ceil(t^2 |A|) + 1 features of each in a common order),
so a page is compared with the blocks that may match it, not with every block of the site.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml import etree

from extraction.methods.base import Method, Params, SitePage
from extraction.methods.getblocks import getblocks, tag_set
from extraction.methods.kfe import KfeParams, label_by_kfe
from extraction.methods.sitepages import finish, label, learned_pages, page_key
from extraction.prepare import PreparedPage
from extraction.result import Block, ExtractionResult
from extraction.site_models.entropy import terms

Features = frozenset[str]


def block_features(block: Block) -> Features:
    """The block's binary features: its terms and the kinds of non-text element it holds.

    A block without any (a row of numbers) is identified by its text instead, so that it still matches
    itself on another page.
    """
    features = block.features
    kinds = (
        ("<img>", features.image_count),
        ("<a>", features.link_count),
        ("<input>", features.interaction_count),
    )
    found = set(terms(block.text)) | {kind for kind, count in kinds if count}
    return frozenset(found) if found else frozenset({" ".join(block.text.split())})


@dataclass(slots=True)
class BlockStore:
    """The distinct blocks of the learned pages, the pages each is on, and the prefix index."""

    similarity: float
    pages: dict[Features, set[int]] = field(default_factory=lambda: defaultdict(set))
    frequency: Counter[str] = field(default_factory=Counter)
    index: dict[str, list[Features]] = field(default_factory=lambda: defaultdict(list))

    def add(self, page: int, blocks: Sequence[Block]) -> None:
        """Store one page's blocks (before `build_index`)."""
        for block in blocks:
            features = block_features(block)
            if features not in self.pages:
                self.frequency.update(features)
            self.pages[features].add(page)

    def build_index(self) -> None:
        """Index each distinct block under the features of its prefix."""
        self.index.clear()
        for features in self.pages:
            for feature in self._prefix(features):
                self.index[feature].append(features)

    def similar_pages(self, features: Features) -> set[int]:
        """The learned pages holding a block similar to one with these features."""
        found: set[int] = set()
        size, t = len(features), self.similarity
        checked: set[Features] = set()
        for feature in self._prefix(features):
            for candidate in self.index.get(feature, ()):
                if candidate in checked:
                    continue
                checked.add(candidate)
                overlap = len(features & candidate)
                if overlap >= t * math.sqrt(size * len(candidate)) - 1e-9:
                    found |= self.pages[candidate]
        return found

    def _prefix(self, features: Features) -> list[str]:
        # Rarest first; features never seen on a learned page are rarest of all.
        ordered = sorted(features, key=lambda feature: (self.frequency[feature], feature))
        needed = math.ceil(self.similarity**2 * len(ordered) - 1e-9)
        return ordered[: max(1, len(ordered) - needed + 1)]


@dataclass(frozen=True, slots=True)
class ContentExtractorParams(Params):
    """ContentExtractor's parameters (settings ``EXTRACTION_CONTENTEXTRACTOR_*``), and K-FE's, which it
    falls back to (with the GetBlocks tag set both partition with)."""

    prefix = "contentextractor"
    # Two blocks are similar when the cosine of their binary feature vectors reaches this.
    similarity: float = 0.9
    # A block is content when its inverse block document frequency 1/n (n: pages of the site holding a
    # similar block, this one included) reaches this: 1.0 = on this page only.
    ibdf_threshold: float = 1.0
    kfe: KfeParams = field(default_factory=KfeParams)


class ContentExtractor(Method[ContentExtractorParams], name="contentextractor"):
    """ContentExtractor (Debnath et al.): content blocks are those on this page only (IBDF), site-level.

    Without other pages of the site it falls back to K-FE, the same paper's single-page method.
    """

    paper = "seed 004 section 2.5, Debnath et al. 2005: ContentExtractor, inverse block document frequency"
    site_level = True

    def setup(self) -> None:
        """An empty block store: the blocks of the pages learned, by similarity."""
        self.store = BlockStore(self.params.similarity)
        self.keys: dict[str, int] = {}

    def learn(self, pages: Sequence[SitePage]) -> None:
        """Partition each page with GetBlocks and store its blocks."""
        tags = tag_set(self.params.kfe.getblocks.tags)
        for page in learned_pages(pages, self.config):
            if page.key in self.keys:
                continue
            self.keys[page.key] = len(self.keys)
            self.store.add(self.keys[page.key], getblocks(page.body, tags, self.config).blocks)
        self.store.build_index()

    def label_page(self, source: SitePage, prepared: PreparedPage, body: etree._Element) -> ExtractionResult:
        """Label each block by its inverse block document frequency across the learned pages."""
        page = getblocks(body, tag_set(self.params.kfe.getblocks.tags), self.config)
        key = page_key(source.html)
        others = len(self.keys) - (key in self.keys)
        if not others:
            why = "no other page of the site was learned: K-FE's choice"
            label_by_kfe(page, self.params.kfe, "K-FE: ")
            return finish(prepared, page, why)
        own = self.keys.get(key, -1)
        threshold = self.params.ibdf_threshold
        for block in page.blocks:
            elsewhere = len(self.store.similar_pages(block_features(block)) - {own})
            ibdf = 1.0 / (1 + elsewhere)
            reason = f"IBDF 1/{1 + elsewhere}: a similar block is on {elsewhere} of {others} other pages"
            label(block, ibdf >= threshold - 1e-9, ibdf, reason)
        return finish(prepared, page)
