"""Revise the content area with its neighbours (seed 001, step 5).

The optimal node alone may hold only a part of the content when a page is decentralised: an article
split over sibling containers, posts of a thread, items of a listing. Sibling nodes on the same level
that qualify on their own join the area, and so do nodes that repeat the best node's template (seed
002's data records: adjoining, alike in structure).
"""

from __future__ import annotations

import itertools

from extraction.config import ExtractionConfig
from extraction.result import Block, Label, Rule
from extraction.scoring import ContentArea, holds, link_density
from extraction.segment import Page


def join_neighbours(page: Page, area: ContentArea, config: ExtractionConfig) -> None:
    """Add qualified siblings of the area's root and records like its best node to the area; not the node
    holding the one the page's headline turned the area away from (`ContentArea.passed_over`): a box of
    related posts beside the article, however like it."""
    joined = qualified_siblings(page, area, config) | repeated_records(page, area)
    passed_over = area.passed_over
    if passed_over >= 0:
        joined = {node_id for node_id in joined if not holds(page.nodes, node_id, passed_over)}
    area.members |= joined


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
    """Scored nodes repeating the best node's template: posts of a thread, items of a listing.

    A node repeats it when both chains from the root have the same steps (tag, id and classes) except at
    one level at most, where a record's later classes may vary (odd/even rows, a first post) but its tag
    and first class match and its name is no more template-like. Allowing more would let the columns of
    a layout grid pass for records.
    """
    best_chain = _chain(page, area.best)
    return {node_id for node_id in area.scores if _repeats(page, area, best_chain, _chain(page, node_id))}


def _chain(page: Page, node_id: int) -> list[int]:
    chain = []
    while node_id >= 0:
        chain.append(node_id)
        node_id = page.nodes[node_id].parent
    return chain


def _repeats(page: Page, area: ContentArea, chain: list[int], other: list[int]) -> bool:
    if len(chain) != len(other):
        return False
    differing = 0
    for mine, theirs in zip(chain, other, strict=True):
        a, b = page.nodes[mine], page.nodes[theirs]
        if a.step != b.step:
            differing += 1
            # A layout column named like a sidebar shares the grid's first class but not the record's role.
            if differing > 1 or a.record != b.record or area.hints.hint(theirs) < area.hints.hint(mine):
                return False
    return True


def drop_stranded_short_blocks(blocks: list[Block], config: ExtractionConfig) -> None:
    """Drop runs of short content blocks whose nearest long neighbours on both sides are noise.

    jusText's context step, on our labels: a price, an "Add to cart" or a date between two noise
    blocks reads as part of the chrome around it, while a short heading next to article text stays.
    """
    limit = config.stranded_max_chars
    short = [block.label is Label.CONTENT and block.features.text_length < limit for block in blocks]
    start = 0
    for is_short, run in itertools.groupby(short):
        end = start + len(list(run))
        if (
            is_short
            and not _content_near(blocks, start - 1, -1, limit)
            and not _content_near(blocks, end, 1, limit)
        ):
            for block in blocks[start:end]:
                block.label, block.rule = Label.NOISE, Rule.STRANDED
                block.reason = "short text between noise blocks"
        start = end


def _content_near(blocks: list[Block], start: int, step: int, limit: int) -> bool:
    # The nearest block on that side that is not short noise decides; the page's edge counts as noise.
    index = start
    while 0 <= index < len(blocks):
        block = blocks[index]
        if block.label is Label.CONTENT or block.features.text_length >= limit:
            return block.label is Label.CONTENT
        index += step
    return False
