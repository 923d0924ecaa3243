"""k-MIB (seed 004 section 2.2, WISDOM by Kao, Ho & Chen 2005): the k subtrees richest in information.

Phase 1, node information: each block's CLEN (text outside anchors) and ALEN (anchor text) with two
extended features, the content information index CII (the information of the block's own terms: each
term counts 1 - its entropy over the site's pages, so a term on every page counts nothing; scaled by the
block's share of text outside anchors) and the anchor precision index API (the share of an anchor's terms
that the linked page of the site holds: high for a link to an article, low for "Home").

Phase 2, the information coverage tree: features are aggregated bottom-up over the tree of block-level
elements, and the structure information index SII of a node is the entropy of how its aggregated value
divides among its children (normalised by log m, m children): near 1 when the children share it evenly
(the paragraphs of an article, the entries of a table of contents), near 0 when one child holds it all.
MIB(k, fA, ST) is greedy and top-down: from the root, the candidate of highest aggregated value is taken
as an informative block when its SII reaches the threshold ST (or it cannot be split), and replaced by its
children otherwise, until k blocks are found.

Article blocks are mined with fA = aggregated CII; with `kmib_toc_blocks`, TOC blocks are mined too with
fA = aggregated ALEN weighted by API, and both form the page's informative structure.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from lxml import etree

from extraction.links import normalise_url
from extraction.methods.base import Params, SitePage
from extraction.methods.cluster_terms import EntropyOf, SiteTermsMethod
from extraction.methods.common import Subtrees
from extraction.methods.marks import mark, node_marks, unmark_paths
from extraction.methods.sitepages import LearnedPage, finish, label, own_text_share, page_key
from extraction.prepare import PreparedPage
from extraction.result import Block, ExtractionResult
from extraction.segment import BLOCK_TAGS, Page, segment
from extraction.site_models.entropy import terms

# A candidate of MIB: (negated aggregated value, is a block, node or block index); a heap pops the largest.
Candidate = tuple[float, bool, int]


def content_information(block: Block, entropy_of: EntropyOf) -> float:
    """CII: sum of (1 - entropy) over the block's terms, scaled by its share of text outside anchors."""
    return own_text_share(block) * sum(1.0 - entropy_of(term) for term in terms(block.text))


def structure_information(values: Sequence[float]) -> float:
    """SII: the entropy of the shares of the positive values, normalised by log m (0 for m < 2)."""
    positive = [value for value in values if value > 0]
    if len(positive) < 2:
        return 0.0
    total = sum(positive)
    entropy = -sum(value / total * math.log(value / total) for value in positive)
    return entropy / math.log(len(positive))


class CoverageTree:
    """The information coverage tree of a segmented page for one feature: aggregated values per node."""

    def __init__(self, subtrees: Subtrees, values: Sequence[float]) -> None:
        self.subtrees = subtrees
        self.values = list(values)
        self.prefix = np.concatenate(([0.0], np.cumsum(values)))
        self.direct: list[list[int]] = [[] for _ in subtrees.page.nodes]
        for index, node in enumerate(subtrees.page.block_nodes):
            self.direct[node].append(index)

    def aggregated(self, node: int) -> float:
        """The feature summed over the node's subtree (its blocks are one contiguous span)."""
        first, last = int(self.subtrees.first[node]), int(self.subtrees.last[node])
        return float(self.prefix[last + 1] - self.prefix[first]) if last >= first else 0.0

    def parts(self, node: int) -> list[Candidate]:
        """The node's children and its own blocks, as candidates with a positive value."""
        children = [(-self.aggregated(child), False, child) for child in self.subtrees.children[node]]
        own = [(-self.values[index], True, index) for index in self.direct[node]]
        return [part for part in children + own if part[0] < 0]

    def mine(self, k: int, threshold: float) -> list[tuple[Candidate, float]]:
        """MIB(k, fA, ST): up to k informative blocks, each with its SII, largest value first."""
        roots = [node for node, info in enumerate(self.subtrees.page.nodes) if info.parent < 0]
        heap: list[Candidate] = [(-self.aggregated(node), False, node) for node in roots]
        heapq.heapify(heap)
        found: list[tuple[Candidate, float]] = []
        while heap and len(found) < k:
            candidate = heapq.heappop(heap)
            value, is_block, index = candidate
            if value >= 0:
                break
            parts = [] if is_block else self.parts(index)
            sii = structure_information([-part[0] for part in parts])
            if sii >= threshold or not any(not part[1] for part in parts):
                found.append((candidate, sii))
            else:
                for part in parts:
                    heapq.heappush(heap, part)
        return found

    def span(self, candidate: Candidate) -> range:
        """The block positions an informative block covers."""
        _, is_block, index = candidate
        if is_block:
            return range(index, index + 1)
        return range(int(self.subtrees.first[index]), int(self.subtrees.last[index]) + 1)


def anchor_precision(body: etree._Element, base: str | None, documents: dict[str, frozenset[str]]) -> None:
    """Mark each block-level element holding anchors to learned pages with its mean API (per mille)."""
    precisions: dict[etree._Element, list[float]] = {}
    for anchor in body.iter("a"):
        target = normalise_url(anchor.get("href", ""), base)
        document = documents.get(target) if target else None
        anchor_terms = set(terms(" ".join(str(text) for text in anchor.itertext())))
        if document is None or not anchor_terms:
            continue
        box = next((up for up in anchor.iterancestors() if up.tag in BLOCK_TAGS), None)
        if box is not None:
            precisions.setdefault(box, []).append(len(anchor_terms & document) / len(anchor_terms))
    for box, values in precisions.items():
        mark(box, round(1000 * sum(values) / len(values)))


@dataclass(frozen=True, slots=True)
class KMibParams(Params):
    """k-MIB's parameters (settings ``EXTRACTION_KMIB_*``).

    At most `k` informative blocks, each a node of the information coverage tree whose children share its
    aggregated information evenly (SII at least `sii_threshold`). The seed gives neither value: k = 1 and
    ST = 0.7 scored best on aeb and whizzy (k = 3: 0.04 lower). TOC blocks (anchors whose text the linked
    page of the site contains, API) join when `toc_blocks` is on.
    """

    prefix = "kmib"
    k: int = 1
    sii_threshold: float = 0.7
    toc_blocks: bool = False


class KMib(SiteTermsMethod[KMibParams], name="kmib"):
    """k-MIB (WISDOM): informative blocks mined top-down from the information coverage tree, site-level.

    CII uses the term entropy over the learned pages; without them every term counts 1 (CII becomes the
    number of terms outside anchors) and no anchor has an API.
    """

    paper = "seed 004 section 2.2, Kao, Ho & Chen 2005 (WISDOM): k-maximum informative block mining"

    def setup(self) -> None:
        """Empty term sums (for CII) and documents: the pages learned."""
        super().setup()
        self.documents: dict[str, frozenset[str]] = {}

    def learned(self, page: LearnedPage, blocks: list[Block]) -> None:
        """Keep the page's terms by URL (for API), when TOC blocks are mined."""
        url = normalise_url(page.url) if page.url else None
        if url and self.params.toc_blocks:
            text = " ".join([page.title, *(block.text for block in blocks)])
            self.documents[url] = frozenset(terms(text))

    def label_page(self, source: SitePage, prepared: PreparedPage, body: etree._Element) -> ExtractionResult:
        """Label the blocks of the k most informative subtrees content."""
        toc = self.params.toc_blocks
        if toc:
            anchor_precision(body, prepared.result.base_url, self.documents)
        page = segment(body, self.config)
        if not page.blocks:
            return finish(prepared, page)
        key = page_key(source.html)
        entropy_of = self.terms.entropy_of(key, page.blocks)
        subtrees = Subtrees.of(page)
        chosen = self._mine(subtrees, [content_information(b, entropy_of) for b in page.blocks], "article")
        if toc:
            chosen.update(self._mine(subtrees, _toc_values(page), "TOC"))
        for position, block in enumerate(page.blocks):
            label(block, position in chosen, *chosen.get(position, (0.0, "outside the informative blocks")))
        others = self.terms.other_pages(key)
        return finish(
            prepared, page, "" if others else "no other page of the site was learned: CII counts terms"
        )

    def _mine(self, subtrees: Subtrees, values: list[float], kind: str) -> dict[int, tuple[float, str]]:
        tree = CoverageTree(subtrees, values)
        chosen: dict[int, tuple[float, str]] = {}
        mined = tree.mine(self.params.k, self.params.sii_threshold)
        for rank, (candidate, sii) in enumerate(mined, start=1):
            reason = f"{kind} block {rank} of {len(mined)} (aggregated {-candidate[0]:.1f}, SII {sii:.2f})"
            for position in tree.span(candidate):
                chosen.setdefault(position, (-candidate[0], reason))
        return chosen


def _toc_values(page: Page) -> list[float]:
    """Each block's anchor text length weighted by the API its element was marked with."""
    marks = node_marks(page)
    unmark_paths(page.blocks)
    return [
        block.features.link_text_length * max(marks[node], 0) / 1000
        for block, node in zip(page.blocks, page.block_nodes, strict=True)
    ]
