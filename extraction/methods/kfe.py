"""FeatureExtractor and K-FE (seeds 003 and 004, after Debnath et al.): the blocks most likely to hold text.

Both partition the page with GetBlocks and give each block the probability of the desired feature, text:
the share of the block's features that are words of its own (not anchor) text, the other features being
its links, images and form controls. FeatureExtractor keeps the single block with the highest probability
(the longest among equals); K-FE sorts the probabilities into k clusters with k-means and keeps every block
of the cluster with the highest centroid, so that a main content spread over several blocks is returned
whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from lxml import etree

from extraction.methods.base import Method, Params, SitePage
from extraction.methods.getblocks import GetBlocksParams, getblocks, tag_set
from extraction.methods.sitepages import finish, label, own_text_share
from extraction.prepare import PreparedPage
from extraction.result import Block, ExtractionResult
from extraction.segment import Page

_PAPER = "seeds 003 and 004, Debnath et al. 2005"


@dataclass(frozen=True, slots=True)
class KfeParams(Params):
    """K-FE's parameters (settings ``EXTRACTION_KFE_*``), and the GetBlocks tag set it partitions with."""

    prefix = "kfe"
    # k-means over the blocks' text probabilities: k clusters, iterations at most.
    clusters: int = 3
    max_iterations: int = 100
    getblocks: GetBlocksParams = field(default_factory=GetBlocksParams)


def own_words(block: Block) -> float:
    """The block's words outside anchors (its word count scaled by the share of non-anchor text)."""
    return block.features.word_count * own_text_share(block)


def text_probability(block: Block) -> float:
    """The share of the block's features that are text: own words / (own words + links, images, controls)."""
    words = own_words(block)
    features = block.features
    others = features.link_count + features.image_count + features.interaction_count
    return words / (words + others) if words + others else 0.0


def kmeans_1d(values: npt.NDArray[np.float64], k: int, iterations: int) -> npt.NDArray[np.intp]:
    """Cluster numbers with k-means (Lloyd); cluster 0 has the highest centroid, then descending.

    The centroids start at quantiles of the distinct values: deterministic, and never two equal ones.
    """
    distinct = np.unique(values)
    k = max(1, min(k, len(distinct)))
    centroids = np.quantile(distinct, (np.arange(k) + 0.5) / k)
    assignment = np.zeros(len(values), dtype=np.intp)
    for _ in range(iterations):
        assignment = np.abs(values[:, None] - centroids[None, :]).argmin(axis=1)
        updated = np.array(
            [values[assignment == j].mean() if np.any(assignment == j) else centroids[j] for j in range(k)]
        )
        if np.allclose(updated, centroids):
            break
        centroids = updated
    rank = np.empty(k, dtype=np.intp)
    rank[np.argsort(-centroids)] = np.arange(k)
    return rank[assignment]


def label_by_kfe(page: Page, params: KfeParams, why: str = "") -> None:
    """K-FE: keep the blocks of the k-means cluster of highest text probability."""
    if not page.blocks:
        return
    probabilities = np.array([text_probability(block) for block in page.blocks])
    clusters = kmeans_1d(probabilities, params.clusters, params.max_iterations)
    best = float(probabilities[clusters == 0].min())
    for block, probability, cluster in zip(page.blocks, probabilities, clusters, strict=True):
        where = "in" if cluster == 0 else "outside"
        reason = (
            f"{why}text probability {probability:.2f}, {where} the best k-means cluster (from {best:.2f})"
        )
        label(block, cluster == 0, float(probability), reason)


def label_by_fe(page: Page) -> None:
    """FeatureExtractor: keep the one block of highest text probability (the longest among equals)."""
    if not page.blocks:
        return
    winner = max(page.blocks, key=lambda block: (text_probability(block), own_words(block)))
    for block in page.blocks:
        probability = text_probability(block)
        reason = f"text probability {probability:.2f}" + (", the highest" if block is winner else "")
        label(block, block is winner, probability, reason)


class FeatureExtractor(Method[GetBlocksParams], name="featureextractor"):
    """FeatureExtractor (Debnath et al.): the GetBlocks block most likely to be text (the paper's desired
    feature is text here)."""

    paper = f"{_PAPER}: FeatureExtractor, the block of highest text probability"

    def label_page(self, source: SitePage, prepared: PreparedPage, body: etree._Element) -> ExtractionResult:
        """Label the single most text-like block content."""
        page = getblocks(body, tag_set(self.params.tags), self.config)
        label_by_fe(page)
        return finish(prepared, page)


class KFeatureExtractor(Method[KfeParams], name="kfe"):
    """K-FE (Debnath et al.): the GetBlocks blocks of the k-means cluster of highest text probability."""

    paper = f"{_PAPER}: K-FE, k-means over the blocks' text probabilities"

    def label_page(self, source: SitePage, prepared: PreparedPage, body: etree._Element) -> ExtractionResult:
        """Label the blocks of the best text-probability cluster content."""
        page = getblocks(body, tag_set(self.params.getblocks.tags), self.config)
        label_by_kfe(page, self.params)
        return finish(prepared, page)
