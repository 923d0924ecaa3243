"""The site style tree (seed 004 section 2.3; Yi, Liu & Li 2003): the presentation styles of a site's pages.

The presentation style of a tag node is the sequence of its child tag nodes, each a (tag, display
attributes) pair. The DOM trees of several pages are merged top-down into one tree of element nodes
(tag, attributes, the number of pages holding them) and style nodes (a presentation style and the number
of pages using it under its element node): the roots merge, then the children of the merged tag nodes that
share a presentation style merge position by position, and so on. Template parts, laid out alike on every
page, collapse into single paths; the main content, whose layout changes from page to page, branches into
many style nodes.

Importance (entropy based): an element node's own importance is the entropy of its style distribution,
-sum p_i log_m p_i over its style nodes (m: the pages holding the node; 1 when m = 1); for a leaf, whose
instances hold text rather than tags, it is 1 - the mean entropy of its words over the pages (a word on
every page's instance counts 1). The composite importance weighs a node's own importance against that of
its descendants, attenuated by level l: (1 - gamma^l) NodeImp(E) + gamma^l sum_i p_i CompImp(S_i), a style
node scoring the mean of its element nodes. An element node is noise when it and every descendant score
under the threshold; a page's noise is its tag nodes that map onto such nodes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

from extraction.result import Block, BlockKind
from extraction.site_models.entropy import TermEntropy

_DIGITS = re.compile(r"\d+")
# Attributes whose values name things (per-page ids in them are not a presentation).
_NAMES = frozenset({"class", "id"})
# Separators of a style key: between child tag nodes, and between a tag and its attributes.
_CHILD, _FIELD = "\x1e", "\x1f"


@dataclass(slots=True)
class ElementNode:
    """Merged tag nodes: tag, display attributes, level (root 1), pages holding it, styles, leaf words."""

    tag: str
    attributes: str
    level: int
    pages: int = 0
    styles: dict[str, int] = field(default_factory=dict)
    words: TermEntropy | None = None

    @property
    def is_leaf(self) -> bool:
        """True when no instance has child tag nodes (its only style is the empty one)."""
        return not any(self.styles.keys() - {""})


@dataclass(slots=True)
class StyleNode:
    """One presentation style under an element node: the pages using it and its child element nodes."""

    pages: int = 0
    children: list[int] = field(default_factory=list)


@dataclass(slots=True)
class StyleTree:
    """The site style tree of the pages added so far; element node 0 is the merged root."""

    attributes: tuple[str, ...] = ()
    elements: list[ElementNode] = field(default_factory=list)
    styles: list[StyleNode] = field(default_factory=list)
    # Composite importance by attenuation and noise by (attenuation, threshold), computed once per state
    # of the tree (`add` clears them).
    _scores: dict[float, list[float]] = field(default_factory=dict, repr=False, compare=False)
    _noisy: dict[tuple[float, float], list[bool]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def pages(self) -> int:
        """How many pages were merged."""
        return self.elements[0].pages if self.elements else 0

    def add(self, root: etree._Element) -> None:
        """Merge one page's DOM tree (iteratively: pages nest thousands of levels deep)."""
        self._scores.clear()
        self._noisy.clear()
        if not self.elements:
            self.elements.append(ElementNode(str(root.tag), "", 1))
        stack = [(root, 0)]
        while stack:
            element, node_id = stack.pop()
            children = _child_tags(element)
            style = self._style_of(node_id, children)
            self._visit(self.elements[node_id], element, style)
            stack.extend(zip(children, self.styles[style].children, strict=True))

    def importance(self, attenuation: float) -> list[float]:
        """The composite importance of every element node."""
        if attenuation not in self._scores:
            self._scores[attenuation] = self._importance(attenuation)
        return self._scores[attenuation]

    def _importance(self, attenuation: float) -> list[float]:
        scores = [0.0] * len(self.elements)
        # Child element nodes are created after their parent: reverse order is bottom-up.
        for node_id in range(len(self.elements) - 1, -1, -1):
            node = self.elements[node_id]
            own = self.node_importance(node)
            if node.is_leaf:
                scores[node_id] = own
                continue
            below = sum(self._style_importance(style, scores) * style.pages for style in self._styles(node))
            weight = attenuation**node.level
            scores[node_id] = (1 - weight) * own + weight * below / node.pages
        return scores

    def node_importance(self, node: ElementNode) -> float:
        """NodeImp: the entropy of the node's styles, or for a leaf 1 - the mean entropy of its words."""
        if node.pages <= 1:
            return 1.0
        if node.is_leaf:
            if node.words is None or not node.words.totals:
                return 0.0
            vocabulary = node.words.totals
            return 1.0 - sum(map(node.words.term_entropy, vocabulary)) / len(vocabulary)
        shares = [style.pages / node.pages for style in self._styles(node)]
        return -sum(share * math.log(share) for share in shares if share) / math.log(node.pages)

    def noisy(self, attenuation: float, threshold: float) -> list[bool]:
        """Per element node: it and all its descendants score under the threshold."""
        key = (attenuation, threshold)
        if key not in self._noisy:
            self._noisy[key] = self._find_noisy(attenuation, threshold)
        return self._noisy[key]

    def _find_noisy(self, attenuation: float, threshold: float) -> list[bool]:
        highest = self.importance(attenuation)[:]
        for node_id in range(len(self.elements) - 1, -1, -1):
            for style in self._styles(self.elements[node_id]):
                for child in style.children:
                    highest[node_id] = max(highest[node_id], highest[child])
        return [score < threshold for score in highest]

    def match(self, root: etree._Element) -> Iterator[tuple[etree._Element, int]]:
        """A page's tag nodes with the element node each maps onto, parents first; the subtree under a
        presentation style the tree has not seen maps onto nothing."""
        if not self.elements:
            return
        stack = [(root, 0)]
        while stack:
            element, node_id = stack.pop()
            yield element, node_id
            children = _child_tags(element)
            style = self.elements[node_id].styles.get(self._style_key(children))
            if style is not None:
                stack.extend(zip(children, self.styles[style].children, strict=True))

    def noise_elements(
        self, root: etree._Element, attenuation: float, threshold: float
    ) -> list[tuple[etree._Element, float]]:
        """The page's largest noisy tag nodes, each with the composite importance of its element node.

        A tag node is noise when its element node is noisy and its whole subtree maps onto the tree: a
        descendant under a presentation style the tree has not seen is content new to the site, which no
        element node's importance speaks for.
        """
        noisy = self.noisy(attenuation, threshold)
        scores = self.importance(attenuation)
        mapped = list(self.match(root))
        covered: set[etree._Element] = set()
        # Reverse pre-order visits children before their parents.
        for element, node in reversed(mapped):
            children = _child_tags(element)
            known = self._style_key(children) in self.elements[node].styles
            if known and all(child in covered for child in children):
                covered.add(element)
        found: list[tuple[etree._Element, float]] = []
        taken: set[etree._Element] = set()
        for element, node in mapped:
            parent = element.getparent()
            if parent is not None and parent in taken:
                taken.add(element)
            elif noisy[node] and element in covered:
                taken.add(element)
                found.append((element, scores[node]))
        return found

    def presentation_style(self, element: etree._Element) -> tuple[tuple[str, str], ...]:
        """The element's presentation style: (tag, display attributes) of each child tag node, in order."""
        return tuple((str(child.tag), self._attributes(child)) for child in _child_tags(element))

    def _style_key(self, children: list[etree._Element]) -> str:
        return _CHILD.join(f"{child.tag}{_FIELD}{self._attributes(child)}" for child in children)

    def _attributes(self, element: etree._Element) -> str:
        """The display attributes that are set, lower-cased; digit runs in names (class, id) fold to 0."""
        values = ((name, element.get(name)) for name in self.attributes)
        return ";".join(f"{name}={_value(name, value)}" for name, value in values if value)

    def _style_of(self, node_id: int, children: list[etree._Element]) -> int:
        """The style node of these children under the element node, created with its element nodes if new."""
        key = self._style_key(children)
        node = self.elements[node_id]
        style = node.styles.get(key)
        if style is None:
            style = node.styles[key] = len(self.styles)
            created = StyleNode()
            for child in children:
                created.children.append(len(self.elements))
                self.elements.append(ElementNode(str(child.tag), self._attributes(child), node.level + 1))
            self.styles.append(created)
        self.styles[style].pages += 1
        return style

    def _visit(self, node: ElementNode, element: etree._Element, style: int) -> None:
        node.pages += 1
        if self.styles[style].children:
            return
        text = element.text or ""
        if node.words is None and text.strip():
            # The earlier instances held no words: they still count as pages of the distribution.
            node.words = TermEntropy(pages=node.pages - 1)
        if node.words is not None:
            node.words.observe([Block(0, "", node.tag, BlockKind.TEXT, text)])

    def _styles(self, node: ElementNode) -> Iterator[StyleNode]:
        return (self.styles[style] for style in node.styles.values())

    def _style_importance(self, style: StyleNode, scores: list[float]) -> float:
        """CompImp of a style node: the mean of its element nodes' (0 for the empty style)."""
        return sum(scores[child] for child in style.children) / len(style.children) if style.children else 0.0


def _value(name: str, value: str) -> str:
    folded = " ".join(value.lower().split())
    # post-12 and post-345 name one component; a width of 200 is not one of 800.
    return _DIGITS.sub("0", folded) if name in _NAMES else folded


def _child_tags(element: etree._Element) -> list[etree._Element]:
    return [child for child in element if isinstance(child.tag, str)]
