"""Seed 001's content extraction, as the paper states it: locate the content node top-down, then add siblings.

Steps: (1) clean the page (`extraction.prepare`); (2) remove the tags unrelated to the content
(`DomLocateParams.unrelated_tags`, the paper's <form> and <marquee>; scripts, styles and metas are gone
already) and the nodes without text; (3) judge the location of the content: the node qualifies when its
anchor text is at most `max_link_density` of its text, it has at least `min_punctuation_density`
punctuation marks per character of non-anchor text, and at least `min_text_chars` of text (the paper names
these three quantities, not their values); (4) when the node does not qualify, go to the next
level: its child with the most non-anchor text; (5) add the qualified nodes on the same level (siblings).

Nodes are the block-level elements of `extraction.segment`. cleancrawl's default elaborates these same
steps (votes of the blocks, name hints, widening); this is the plain procedure, for comparison.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from extraction.methods.base import Method, Params, SitePage
from extraction.methods.common import Subtrees, label_segmented
from extraction.prepare import PreparedPage
from extraction.result import ExtractionResult, Label
from extraction.segment import Page


@dataclass(frozen=True, slots=True)
class DomLocateParams(Params):
    """Seed 001's parameters (settings ``EXTRACTION_DOMLOCATE_*``); the paper names the three quantities
    of step 3 but not their values: these scored best on wcxb-dev."""

    prefix = "domlocate"
    # Tags unrelated to the content (space-separated), removed with their text (the paper: <form>,
    # <marquee>, beside the scripts, styles and metas every method drops).
    unrelated_tags: str = "form marquee"
    max_link_density: float = 0.2
    """A node whose anchor text is over this share of its text is not content."""
    min_punctuation_density: float = 0.01
    min_text_chars: int = 250
    """A node with less text than this is too small to hold the content."""


class DomLocate(Method[DomLocateParams], name="domlocate"):
    """Seed 001: the optimal content node found top-down, widened by its qualified siblings."""

    paper = "seed 001: clean, drop text-less and unrelated nodes, locate the content node, add siblings"

    def label_page(self, source: SitePage, prepared: PreparedPage, body: etree._Element) -> ExtractionResult:
        """Segment the page and keep the blocks of the content node and of its qualified siblings."""
        unrelated = self.params.unrelated_tags.split()
        return label_segmented(prepared, body, self.config, self._label, unrelated)

    def _label(self, page: Page) -> str:
        subtrees = Subtrees.of(page)
        content = self._locate(subtrees)
        if content is None:
            for block in page.blocks:
                block.reason = "no node qualifies as the content node"
            return "no node qualifies as the content node"
        parent = page.nodes[content].parent
        same_level = subtrees.children[parent] if parent >= 0 else []
        siblings = [node for node in same_level if node != content and self._qualifies(subtrees, node)]
        for block in page.blocks:
            block.reason = "outside the content node and its qualified siblings"
        for node in siblings:
            _keep(subtrees, node, "in a qualified sibling of the content node")
        _keep(subtrees, content, "in the content node")
        return ""

    def _locate(self, subtrees: Subtrees) -> int | None:
        """Steps 3 and 4: from the root, go down to the child with the most non-anchor text until one
        qualifies; None when a node without children is reached first."""
        nodes = subtrees.page.nodes
        current = 0
        while not self._qualifies(subtrees, current):
            children = [child for child in subtrees.children[current] if nodes[child].text_chars]
            if not children:
                return None
            current = max(children, key=lambda child: nodes[child].text_chars - nodes[child].link_chars)
        return current

    def _qualifies(self, subtrees: Subtrees, node_id: int) -> bool:
        """Seed 001's conditions on anchor text, punctuation and text length."""
        params = self.params
        node = subtrees.page.nodes[node_id]
        text, links = node.text_chars, min(node.link_chars, node.text_chars)
        if text < params.min_text_chars or links > params.max_link_density * text:
            return False
        punctuation = float(subtrees.features(node_id).punctuation_count)
        return punctuation >= params.min_punctuation_density * (text - links)


def _keep(subtrees: Subtrees, node_id: int, reason: str) -> None:
    for block in subtrees.blocks(node_id):
        block.label = Label.CONTENT
        block.reason = reason
