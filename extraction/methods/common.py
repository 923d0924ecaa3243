"""What the seed papers' methods share beyond `extraction.prepare`: the page's links, segmentation, subtrees.

Seed 001's content node and seed 002's tag windows are elements whose text, anchor text and punctuation
are those of every block below them. `extraction.segment` records the block-level elements as a node tree
and the blocks in document order, so the blocks of a subtree are one contiguous span.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from lxml import etree

from extraction.config import ExtractionConfig
from extraction.prepare import PreparedPage, result_reason, truncated
from extraction.result import Block, BlockFeatures, ExtractionResult
from extraction.segment import Page, segment

# Raw counts of seed 002, then the two page shares (NATD, PMD) that add up over blocks.
_SUMMED = (
    "text_length",
    "word_count",
    "link_count",
    "link_text_length",
    "image_count",
    "image_size",
    "interaction_count",
    "interaction_size",
    "form_count",
    "form_size",
    "email_count",
    "punctuation_count",
    "natd",
    "pmd",
)
_COUNTS = _SUMMED[:-2]
_HREFS = etree.XPath(".//a/@href", smart_strings=False)

# Labels the blocks of a segmented page in place; returns what to say if no block is content.
Labeller = Callable[[Page], str]


def label_segmented(
    prepared: PreparedPage,
    body: etree._Element,
    config: ExtractionConfig,
    label: Labeller,
    removed_tags: Sequence[str] = (),
) -> ExtractionResult:
    """Segment a prepared page as `extraction.extract` does (`removed_tags` dropped first), then label."""
    result = prepared.result
    # The links of removed elements (a <form> may wrap the whole page) are still the page's links to crawl.
    hrefs = page_hrefs(body) if removed_tags else None
    if removed_tags:
        etree.strip_elements(body, *removed_tags, with_tail=False)
    page = segment(body, config)
    result.blocks, result.hrefs = page.blocks, page.hrefs if hrefs is None else hrefs
    nothing_kept = label(page) if page.blocks else ""
    cut_short = truncated(page.truncated, config.max_blocks)
    result.reason = result_reason(page.blocks, nothing_kept, cut_short, result.reason)
    return result


def page_hrefs(body: etree._Element) -> list[str]:
    """The href of every link of the body, in page order (what a crawl follows)."""
    hrefs = _HREFS(body)
    return [str(href) for href in hrefs if href] if isinstance(hrefs, list) else []


@dataclass(frozen=True, slots=True)
class Subtrees:
    """Per node of a segmented page: its children, summed features and the span of its subtree's blocks."""

    page: Page
    children: list[list[int]]
    sums: npt.NDArray[np.float64]
    first: npt.NDArray[np.int64]
    last: npt.NDArray[np.int64]

    @classmethod
    def of(cls, page: Page) -> Subtrees:
        """Add every block's features into its node, then each node into its parent, deepest level first."""
        count = len(page.nodes)
        parents = np.fromiter((node.parent for node in page.nodes), dtype=np.int64, count=count)
        depths = np.fromiter((node.depth for node in page.nodes), dtype=np.int64, count=count)
        owners = np.asarray(page.block_nodes, dtype=np.int64)
        values = np.array([[getattr(b.features, name) for name in _SUMMED] for b in page.blocks], dtype=float)
        sums = np.zeros((count, len(_SUMMED)))
        np.add.at(sums, owners, values.reshape(len(owners), len(_SUMMED)))
        positions = np.arange(len(owners), dtype=np.int64)
        first = np.full(count, len(owners), dtype=np.int64)
        last = np.full(count, -1, dtype=np.int64)
        np.minimum.at(first, owners, positions)
        np.maximum.at(last, owners, positions)
        # One vectorised step per depth level rather than a Python step per node: pages nest 2,000 deep.
        for depth in range(int(depths.max(initial=0)), 1, -1):
            level = np.flatnonzero(depths == depth)
            np.add.at(sums, parents[level], sums[level])
            np.minimum.at(first, parents[level], first[level])
            np.maximum.at(last, parents[level], last[level])
        children: list[list[int]] = [[] for _ in range(count)]
        for node_id, parent in enumerate(parents.tolist()):
            if parent >= 0:
                children[parent].append(node_id)
        return cls(page, children, sums, first, last)

    def features(self, node_id: int) -> BlockFeatures:
        """The node's features as one block of seed 002: summed counts and shares, NLTD of the sums."""
        *counts, natd, pmd = self.sums[node_id].tolist()
        features = BlockFeatures(**dict(zip(_COUNTS, map(round, counts), strict=True)))
        text, links = features.text_length, features.link_text_length
        features.nltd, features.natd, features.pmd = min(links / text, 1.0) if text else 1.0, natd, pmd
        return features

    def blocks(self, node_id: int) -> list[Block]:
        """The blocks of the node's subtree, in page order."""
        return self.page.blocks[int(self.first[node_id]) : int(self.last[node_id]) + 1]

    def text(self, node_id: int) -> str:
        """The text of the node's subtree, one line per block."""
        return "\n".join(block.text for block in self.blocks(node_id))
