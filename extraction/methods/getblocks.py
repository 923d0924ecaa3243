"""GetBlocks (seeds 001 and 004, Debnath et al.): partition a page by an ordered tag set, TABLE first.

The page is cut at the first tag of the set, each piece at the second, and so on until no piece holds a
tag of the set: the atomic blocks are the text between any two tags of the set, whatever their order
(the order shapes only the intermediate tree, which no method here reads). Block-level tags outside the
set therefore do not split a block: they are turned into line breaks and the shared segmenter
(`extraction.segment`, which splits at every block-level tag and counts each block's features) runs on
what is left.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from extraction.config import ExtractionConfig
from extraction.methods.base import Params
from extraction.segment import BLOCK_TAGS, Page, segment

# Kept whatever the tag set: the roots every path starts from.
_ROOTS = frozenset({"html", "body"})
# Unwrapped by the segmenter (a formatting tag), so that the element's text joins its surroundings.
_UNWRAPPED = "span"
_CELLS = ("td", "th")
# What a cell of the tag set becomes: the segmenter joins the text of a row's cells into one block, and
# GetBlocks takes each cell as a block (seed 004: "each cell is considered as a block").
_CELL_BOX = "div"


@dataclass(frozen=True, slots=True)
class GetBlocksParams(Params):
    """GetBlocks' ordered partition tag set (setting ``EXTRACTION_GETBLOCKS_TAGS``), for every method built
    on it.

    The seeds name TABLE, TR, P, HR, UL, "..." and each table cell; we add the other lists, DIV (the layout
    box that took TABLE's place), headings, PRE and BLOCKQUOTE. Block-level tags not named here do not split
    a block.
    """

    prefix = "getblocks"
    tags: str = "table tr td th p hr ul ol dl div h1 h2 h3 h4 h5 h6 pre blockquote"


def tag_set(tags: str) -> frozenset[str]:
    """The tags of a space-separated config value, lower-cased."""
    return frozenset(tags.lower().split())


def getblocks(body: etree._Element, tags: frozenset[str], config: ExtractionConfig) -> Page:
    """Segment the cleaned body (modified in place) into the atomic GetBlocks blocks of `tags`."""
    merged = sorted(BLOCK_TAGS - tags - _ROOTS)
    for element in list(body.iter(*merged)):
        if element is body:
            continue
        # Line breaks on both sides keep the words of neighbouring boxes apart without touching the text
        # (setting .text from Python fails on control characters the parser let through).
        element.addprevious(etree.Element("br"))
        element.append(etree.Element("br"))
        element.tag = _UNWRAPPED
    cells = [tag for tag in _CELLS if tag in tags]
    for cell in list(body.iter(*cells)) if cells else ():
        cell.tag = _CELL_BOX
    return segment(body, config)


def nearest_nodes(page: Page, tags: frozenset[str]) -> list[int]:
    """For each node of the page, its nearest ancestor-or-self node whose tag is in `tags` (-1: none)."""
    nearest: list[int] = []
    for node_id, node in enumerate(page.nodes):
        # Parents come before their children in the node table: one forward pass, no recursion.
        inherited = nearest[node.parent] if node.parent >= 0 else -1
        nearest.append(node_id if node.tag in tags else inherited)
    return nearest


def runs(keys: list[int]) -> list[int]:
    """Group ids for consecutive equal keys: [5, 5, 7, 5] -> [0, 0, 1, 2]."""
    groups: list[int] = []
    for index, key in enumerate(keys):
        same = index > 0 and keys[index - 1] == key
        groups.append(groups[-1] if same else (groups[-1] + 1 if groups else 0))
    return groups
