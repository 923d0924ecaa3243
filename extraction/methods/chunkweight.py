"""Seed 002's method: raw chunks, their noise score F, and the tag window of greatest content weight.

Steps: (1) clean the page (`extraction.prepare`); (2) raw chunks: the elements of
`ChunkWeightParams.chunk_tags` (the paper's <table>, <div>, <ul>, <tr>, <p>; the page's root is the
outermost window), each with {ImgNum, ImgSize, LinkNum, LinkTextLen, InteractionNum, InteractionSize,
FormNum, FormSize, EmailNum} of its subtree, normalised by the page's (equation 1); (3) the noise score F =
sum of alpha_i f_i (`noise_alpha` 0.2 each, equation 2): a chunk with F over `noise_threshold` (0.5) is
ruled out; (4) among the windows meeting the content node judgment parameters (NLTD at most 0.4, NATD at
least 0.5, PMD at least 0.7), the one of greatest weight NLTD + NATD + beta * PMD (`content_beta` 0.7,
equation 3), less `noise_word_penalty` (0.6) when `noise_word_count` (5) or more noise words appear in it,
is the content, less the ruled-out chunks inside it (each removed with all it holds).

The features, F and the weight are `extraction.features`' own, which counts NLTD in the weight as
1 - NLTD (the paper writes + NLTD while saying smaller values mean content).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from lxml import etree

from extraction.features import compute_features, content_weight, noise_score
from extraction.methods.base import Method, Params, SitePage
from extraction.methods.common import Subtrees, label_segmented
from extraction.prepare import PreparedPage
from extraction.result import BlockFeatures, ExtractionResult, Label
from extraction.segment import Page


@dataclass(frozen=True, slots=True)
class ChunkWeightParams(Params):
    """Seed 002's method parameters (settings ``EXTRACTION_CHUNKWEIGHT_*``); the noise score and the
    content weight themselves are `ExtractionConfig`'s (`noise_alpha`, `noise_threshold`, `content_beta`,
    `noise_word_count`, `noise_word_penalty`), shared with the default extractor."""

    prefix = "chunkweight"
    # The tags that form raw chunks (tag windows, space-separated).
    chunk_tags: str = "table div ul tr p"
    # The paper's "content node judgment parameters" NLTD 0.4, NATD 0.5, PMD 0.7, read as the bounds a
    # window must meet to be the content node (NLTD at most, NATD and PMD at least).
    max_nltd: float = 0.4
    min_natd: float = 0.5
    min_pmd: float = 0.7
    # The longest window scanned for noise words (seed 002 scans every window; cleancrawl's own blocks
    # stop at `ExtractionConfig.noise_word_max_chars`).
    noise_word_max_chars: int = 64 * 1024 * 1024


class ChunkWeight(Method[ChunkWeightParams], name="chunkweight"):
    """Seed 002: rule out noisy raw chunks (F > 0.5), keep the tag window of greatest content weight."""

    paper = "seed 002: raw chunks, noise score F, content weight NLTD + NATD + beta * PMD"

    def setup(self) -> None:
        """The config whose noise-word window is this method's, and the tags that make a chunk."""
        self._window_config = replace(self.config, noise_word_max_chars=self.params.noise_word_max_chars)
        self._chunk_tags = frozenset(self.params.chunk_tags.split())

    def label_page(self, source: SitePage, prepared: PreparedPage, body: etree._Element) -> ExtractionResult:
        """Segment the page and keep the heaviest window that is not noise."""
        return label_segmented(prepared, body, self.config, self._label)

    def _label(self, page: Page) -> str:
        totals = compute_features(page.blocks, self.config)
        subtrees = Subtrees.of(page)
        chunks = [i for i, node in enumerate(page.nodes) if i == 0 or node.tag in self._chunk_tags]
        noisy: set[int] = set()
        weights: dict[int, float] = {}
        for chunk in chunks:
            features = subtrees.features(chunk)
            if noise_score(features, totals, self.config) > self.config.noise_threshold:
                noisy.add(chunk)
            elif self._judged_content(features):
                weights[chunk] = content_weight(features, subtrees.text(chunk), self._window_config)
        for block in page.blocks:
            block.reason = "outside the tag window of greatest weight"
        if not weights:
            return "no tag window meets the content node judgment parameters"
        best = max(weights, key=weights.__getitem__)
        _label_window(subtrees, best, weights[best], noisy)
        return ""

    def _judged_content(self, features: BlockFeatures) -> bool:
        params = self.params
        return (
            features.text_length > 0
            and features.nltd <= params.max_nltd
            and features.natd >= params.min_natd
            and features.pmd >= params.min_pmd
        )


def _label_window(subtrees: Subtrees, window: int, weight: float, noisy: set[int]) -> None:
    """Content: the window's blocks, but for those of the raw chunks inside it ruled out as noise."""
    page = subtrees.page
    removed = {window: False}
    # Nodes are numbered in page order, so the window's subtree is the run of nodes that follows it.
    for node_id in range(window + 1, len(page.nodes)):
        parent = page.nodes[node_id].parent
        if parent not in removed:
            break
        removed[node_id] = removed[parent] or node_id in noisy
    for block in subtrees.blocks(window):
        block.score = weight
        if removed[page.block_nodes[block.position]]:
            block.reason = "in a raw chunk whose noise score is over the threshold"
        else:
            block.label = Label.CONTENT
            block.reason = f"in the tag window of greatest content weight ({weight:.2f})"
