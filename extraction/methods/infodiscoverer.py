"""InfoDiscoverer (seed 004 section 2.1, Lin & Ho 2002): informative blocks hold the terms other pages lack.

A page is cut into content blocks at `<TABLE>` (`infodiscoverer_tags`); the entropy of a term is that of
its frequency distribution over the pages of the cluster (normalised by log N: 1 for a term spread evenly
over every page, 0 for a term of one page) and a block's entropy is the mean entropy of its terms. Blocks
at or under the entropy threshold are informative, the others redundant; the threshold is chosen greedily,
raised step by step until the informative blocks stop bringing new terms. Blocks "close to 1" (at least
`infodiscoverer_redundant_entropy`) are redundant whatever the threshold. Where the classification is
ambiguous (a content block mixing parts redundant beyond doubt with parts that are not: a layout without
tables is one block) the block is refined into its GetBlocks blocks, and the threshold is chosen over the
refined partition.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml import etree

from extraction.methods.base import Params, SitePage
from extraction.methods.cluster_terms import EntropyOf, SiteTermsMethod
from extraction.methods.getblocks import GetBlocksParams, getblocks, nearest_nodes, runs, tag_set
from extraction.methods.sitepages import finish, label, page_key
from extraction.prepare import PreparedPage
from extraction.result import Block, ExtractionResult
from extraction.segment import Page
from extraction.site_models.entropy import terms


@dataclass(slots=True)
class ContentBlock:
    """Blocks of the page taken as one content block, its distinct terms and its entropy (None: no term)."""

    blocks: list[Block]
    terms: frozenset[str]
    entropy: float | None
    refined: bool = False

    @classmethod
    def of(cls, blocks: list[Block], entropy_of: EntropyOf, refined: bool = False) -> ContentBlock:
        """Measure the blocks' terms."""
        features = frozenset(term for block in blocks for term in terms(block.text))
        entropy = sum(map(entropy_of, features)) / len(features) if features else None
        return cls(blocks, features, entropy, refined)


def coarse_blocks(page: Page, tags: frozenset[str]) -> list[list[Block]]:
    """The page's blocks grouped into content blocks: consecutive blocks under the same nearest `tags`
    element (the text between two TABLE boundaries)."""
    nearest = nearest_nodes(page, tags)
    groups = runs([nearest[node] for node in page.block_nodes])
    grouped: list[list[Block]] = []
    for block, group in zip(page.blocks, groups, strict=True):
        if group == len(grouped):
            grouped.append([])
        grouped[group].append(block)
    return grouped


@dataclass(frozen=True, slots=True)
class InfoDiscovererParams(Params):
    """InfoDiscoverer's parameters (settings ``EXTRACTION_INFODISCOVERER_*``) and its refinement's GetBlocks
    tag set.

    Content blocks are cut at `tags` (the paper's TABLE), then, where a block is ambiguous (it mixes parts
    "close to 1", at least the redundant bound, with parts under it), at the GetBlocks tags; the entropy
    threshold rises in `entropy_step`s until the informative terms stop growing (a step adds under
    `flat_share` of the terms covered so far), never to `redundant_entropy`.
    """

    prefix = "infodiscoverer"
    tags: str = "table"
    entropy_step: float = 0.1
    flat_share: float = 0.02
    redundant_entropy: float = 0.9
    getblocks: GetBlocksParams = field(default_factory=GetBlocksParams)


def threshold(blocks: Sequence[ContentBlock], params: InfoDiscovererParams) -> float:
    """Lin & Ho's greedy entropy threshold: raised step by step while the informative blocks bring new terms.

    It stops at the first step whose blocks add under `flat_share` of the terms covered so
    far: past it only redundant blocks, whose words the informative ones already hold, would join. Steps no
    block falls in are skipped (they are no evidence either way). `site_models.entropy.greedy_threshold`
    measures the growth against all of the page's terms instead, so on a long article the few
    low-entropy blocks of the first steps (commenters' names, a code line) always look flat and the search
    stopped at 0.1. Blocks "close to 1" (`redundant_entropy`) are redundant whatever the
    growth: a short page keeps growing step after step up to its template.
    """
    measured = [(block.entropy, block.terms) for block in blocks if block.entropy is not None]
    step, bound = params.entropy_step, params.redundant_entropy
    covered: set[str] = set()
    chosen = 0.0
    for index in sorted({max(1, math.ceil(entropy / step - 1e-9)) for entropy, _ in measured}):
        cut = index * step
        added = {term for entropy, terms in measured if entropy <= cut + 1e-9 for term in terms} - covered
        if cut >= bound or (covered and len(added) < params.flat_share * len(covered)):
            break
        covered |= added
        chosen = cut
    return chosen


def refine(blocks: list[ContentBlock], bound: float, entropy_of: EntropyOf) -> None:
    """Replace each ambiguous content block by its GetBlocks blocks: a block is ambiguous when some of its
    parts are redundant beyond doubt (entropy at least the redundant `bound`) and others are not."""
    refined: list[ContentBlock] = []
    for block in blocks:
        parts = [ContentBlock.of([part], entropy_of, refined=True) for part in block.blocks]
        entropies = [part.entropy for part in parts if part.entropy is not None]
        if len(parts) > 1 and entropies and min(entropies) < bound <= max(entropies):
            refined.extend(parts)
        else:
            refined.append(block)
    blocks[:] = refined


def label_blocks(blocks: Sequence[ContentBlock], cut: float) -> None:
    """Label each page block by its content block: informative at or under the threshold."""
    for block in blocks:
        where = "refined block" if block.refined else "content block"
        if block.entropy is None:
            reason, informative = f"{where} without terms: no entropy to measure", False
        else:
            informative = block.entropy <= cut + 1e-9
            side = "within" if informative else "over"
            reason = f"{where} entropy {block.entropy:.2f}, {side} the threshold {cut:.2f}"
        for part in block.blocks:
            label(part, informative, 1.0 - (block.entropy if block.entropy is not None else 1.0), reason)


class InfoDiscoverer(SiteTermsMethod[InfoDiscovererParams], name="infodiscoverer"):
    """InfoDiscoverer (Lin & Ho): block entropy over the site's term distribution, greedy threshold.

    Without other pages every term has entropy 0 and the whole page is informative (the reason says so).
    """

    paper = "seed 004 section 2.1, Lin & Ho 2002: InfoDiscoverer, block entropy and greedy threshold"

    def label_page(self, source: SitePage, prepared: PreparedPage, body: etree._Element) -> ExtractionResult:
        """Label content blocks informative or redundant by their entropy."""
        params = self.params
        page = getblocks(body, tag_set(params.getblocks.tags), self.config)
        key = page_key(source.html)
        entropy_of = self.terms.entropy_of(key, page.blocks)
        tags = tag_set(params.tags)
        blocks = [ContentBlock.of(group, entropy_of) for group in coarse_blocks(page, tags)]
        refine(blocks, params.redundant_entropy, entropy_of)
        label_blocks(blocks, threshold(blocks, params))
        others = self.terms.other_pages(key)
        why = "" if others else "no other page of the site was learned: every term has entropy 0"
        return finish(prepared, page, why)
