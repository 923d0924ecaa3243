"""Revise the content area with its neighbours (seed 001, step 5).

The optimal node alone may hold only a part of the content when a page is decentralised: an article
split over sibling containers, posts of a thread, items of a listing. Sibling nodes on the same level
that qualify on their own join the area, and so do nodes that repeat the best node's template (seed
002's data records: adjoining, alike in structure).
"""

from __future__ import annotations

from extraction.config import ExtractionConfig
from extraction.scoring import ContentArea, link_density
from extraction.segment import Page


def join_neighbours(page: Page, area: ContentArea, config: ExtractionConfig) -> None:
    """Add qualified siblings of the area's root and records like its best node to the area."""
    area.members |= qualified_siblings(page, area, config)
    area.members |= repeated_records(page, area)


def qualified_siblings(page: Page, area: ContentArea, config: ExtractionConfig) -> set[int]:
    """Siblings of the root scoring at least `sibling_score_ratio` of the best node, with few links."""
    nodes = page.nodes
    parent = nodes[area.root].parent
    threshold = area.scores[area.best] * config.sibling_score_ratio
    return {
        node_id
        for node_id, score in area.scores.items()
        if parent >= 0
        and nodes[node_id].parent == parent
        and score >= threshold
        and link_density(nodes[node_id]) < config.max_link_density / 2
    }


def repeated_records(page: Page, area: ContentArea) -> set[int]:
    """Scored nodes on the same tag-and-class path as the best node: posts of a thread, listing items."""
    path = page.path(area.best)
    return {node_id for node_id in area.scores if page.path(node_id) == path}
