"""Carry decisions made on DOM elements over to the segmenter's blocks.

Methods that work on the DOM (a style tree's noisy nodes, EVBE's visual blocks, WISDOM's anchors) mark
elements with a numbered class before `extraction.segment` runs; the segmenter records every block-level
element's classes, so each block finds the mark of its nearest marked ancestor. Marked inline elements
become block-level, so that their text forms blocks of its own.
"""

from __future__ import annotations

import re

from lxml import etree

from extraction.result import Block
from extraction.segment import BLOCK_TAGS, Page

_PREFIX = "cleancrawl-mark-"
_MARK = re.compile(rf"\b{_PREFIX}(\d+)\b")
# The mark as it appears in a block path, where the segmenter folds digits to 0.
_PATH_MARK = re.compile(rf"\.{_PREFIX}0+")
# What a marked inline element becomes.
_BOX = "div"


def mark(element: etree._Element, number: int) -> None:
    """Mark an element with `number` (>= 0)."""
    classes = element.get("class")
    element.set("class", f"{classes} {_PREFIX}{number}" if classes else f"{_PREFIX}{number}")
    if element.tag not in BLOCK_TAGS:
        element.tag = _BOX


def node_marks(page: Page) -> list[int]:
    """For each node, the mark of its nearest marked ancestor-or-self (-1: none)."""
    marks: list[int] = []
    for node in page.nodes:
        # Parents precede their children in the node table: one forward pass, no recursion.
        found = _MARK.search(node.names) if _PREFIX in node.names else None
        inherited = marks[node.parent] if node.parent >= 0 else -1
        marks.append(int(found.group(1)) if found else inherited)
    return marks


def block_marks(page: Page) -> list[int]:
    """For each block, the mark of its nearest marked ancestor-or-self (-1: none); the marks are then
    removed from the block paths."""
    marks = node_marks(page)
    result = [marks[node] for node in page.block_nodes]
    unmark_paths(page.blocks)
    return result


def unmark_paths(blocks: list[Block]) -> None:
    """Drop the marks from the block paths: they are this run's bookkeeping, not the page's structure."""
    for block in blocks:
        if _PREFIX in block.path:
            block.path = _PATH_MARK.sub("", block.path)
