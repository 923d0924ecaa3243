"""EVBE and EIFCE (seed 003, Win & Thwin): visual blocks from CSS, then the one informative block.

EVBE walks the DOM from the body, each node joining the visual block of its parent unless a rule or its
visual distance starts a new one:
- nodes: invalid (not rendered: display none, visibility hidden; scripts and styles are already gone),
  partially valid (inline nodes and FORM, TABLE, DD, DT, ...: visible only with content), inline and
  line-break nodes (by the CSS display, floats being blocks), text nodes and virtual text nodes (inline
  nodes holding only text and virtual text nodes);
- rule 1: invalid nodes and partially valid nodes without any child are dropped;
- rules 2 to 4: a node holding only text and virtual text nodes is not divided (it is one unit of its
  block); a node with a single line-break child passes the rules on to it;
- rule 5: an HR, or a valid node without any child, separates the nodes before it from those after it,
  each side a new block;
- rule 6: a table whose columns differ in background colour becomes one block per column;
- rule 7: a node whose first or last child is an empty DIV with a height and a non-white background is a
  block, and so is its previous sibling;
- rule 8: two adjacent children floating (left, then left or right without clear) whose widths add up to
  less than their parent's become a block each, the children without float one more;
- rule 9: a child with a top or bottom border splits its siblings into the block before it and the block
  after it (a top border opens the second block, a bottom border closes the first, both make it a block
  of its own);
- rule 10: a node with a top or bottom border and both side borders is a block;
- otherwise a line-break child whose presentation (background seen through it, float, clear, font size,
  weight and colour, width, height) differs from its parent's in more than `EvbeParams.max_visual_distance`
  properties starts a block.
The styles come from `methods.css` (inline styles and the page's own sheets, before cleaning).

EIFCE: each visual block's general parameters are the summed features of the blocks of text it holds
itself (nested blocks are blocks of their own: the leaves and the parents' remainders partition the
page); a candidate has at least `min_candidate_chars` of text and a link density of at most
`max_candidate_link_density`; the informative block is the candidate of greatest importance value f,
the ratio of the possibilities of informative and non-informative content. The paper takes f from its
reference [1] without giving it: here f = (the block's share of the page's text outside anchors) divided
by (the mean of its shares of the page's anchor text, links, images and form controls, plus
`importance_smoothing`), so that a block holding most of the prose and few of the links wins.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from lxml import etree

from extraction.config import ExtractionConfig
from extraction.methods.base import Method, Params, SitePage
from extraction.methods.common import page_hrefs
from extraction.methods.css import Style, compile_sheets, computed_styles, page_stylesheets
from extraction.methods.marks import block_marks, mark
from extraction.methods.sitepages import finish, label
from extraction.prepare import PreparedPage
from extraction.result import Block, ExtractionResult
from extraction.segment import Page, segment

# Not rendered: renamed to this, then stripped (keeping the text that follows them).
_INVISIBLE = "cleancrawl-invisible"
_PARTIALLY_VALID = frozenset({"form", "table", "tbody", "thead", "tfoot", "tr", "dd", "dt", "head"})
_REPLACED = frozenset({"img", "input", "select", "textarea", "button", "video", "audio", "canvas", "iframe"})
_SECTIONS = frozenset({"thead", "tbody", "tfoot"})
_CELLS = frozenset({"td", "th"})
# General parameters: text outside anchors, then the non-informative features.
_INFORMATIVE = 0
_NOISY = slice(1, 5)
_DEFAULT_STYLE = Style()


@dataclass(frozen=True, slots=True)
class EvbeParams(Params):
    """EVBE's and EIFCE's parameters (settings ``EXTRACTION_EVBE_*``).

    CSS comes from inline styles and the page's own <style> sheets, within bounds (sheet size, rules kept,
    elements styled, depth down to which sheet selectors are matched); widths resolve against the viewport.
    """

    prefix = "evbe"
    max_stylesheet_chars: int = 256 * 1024
    max_css_rules: int = 5_000
    max_elements: int = 20_000
    max_match_depth: int = 256
    viewport_width: float = 1024.0
    # A node whose presentation differs from its parent's in more properties than this starts a block.
    max_visual_distance: int = 1
    # Candidate blocks need this much text and at most this link density.
    min_candidate_chars: int = 100
    max_candidate_link_density: float = 0.5
    # The importance value f smooths its denominator by this.
    importance_smoothing: float = 0.1


@dataclass(slots=True)
class VisualBlock:
    """A node of the block tree: its parent block (-1 for the page) and the rule that created it."""

    parent: int
    rule: str


@dataclass(slots=True)
class BlockTree:
    """EVBE's block tree of a page and the visual block each block-starting element opens."""

    blocks: list[VisualBlock] = field(default_factory=lambda: [VisualBlock(-1, "the page")])
    owners: dict[etree._Element, int] = field(default_factory=dict)

    def new(self, parent: int, rule: str, members: list[etree._Element]) -> int:
        """A new block under `parent` opened by `members`."""
        self.blocks.append(VisualBlock(parent, rule))
        for member in members:
            self.owners[member] = len(self.blocks) - 1
        return len(self.blocks) - 1


class VisualBlockExtractor:
    """One page's EVBE segmentation (kept in an object so that each rule stays a short method)."""

    def __init__(self, styles: dict[etree._Element, Style], max_visual_distance: int) -> None:
        self.styles = styles
        self.max_visual_distance = max_visual_distance
        self.tree = BlockTree()
        self.virtual: set[etree._Element] = set()

    def run(self, body: etree._Element) -> BlockTree:
        """Build the block tree of the body, top-down with an explicit stack (pages nest deep)."""
        self._find_virtual_text(body)
        self.tree.owners[body] = 0
        stack = [(body, 0)]
        while stack:
            node, block = stack.pop()
            stack.extend(reversed(self._divide(node, block)))
        return self.tree

    def style(self, element: etree._Element) -> Style:
        """The element's computed style (the initial one past the styling bound)."""
        return self.styles.get(element, _DEFAULT_STYLE)

    def _find_virtual_text(self, body: etree._Element) -> None:
        # Reverse document order visits children before their parents.
        for element in reversed(list(body.iter())):
            if not isinstance(element.tag, str) or not self.style(element).is_inline:
                continue
            if all(child in self.virtual for child in element if isinstance(child.tag, str)):
                self.virtual.add(element)

    def _children(self, node: etree._Element) -> list[etree._Element]:
        """Rule 1: the node's children, without partially valid ones that have no child."""
        kept = []
        for child in node:
            if not isinstance(child.tag, str):
                continue
            inline = self.style(child).is_inline and child.tag not in _REPLACED
            if (inline or child.tag in _PARTIALLY_VALID) and _empty(child):
                continue
            kept.append(child)
        return kept

    def _divide(self, node: etree._Element, block: int) -> list[tuple[etree._Element, int]]:
        """The node's line-break children, each with the block it belongs to (rules 2 to 10)."""
        children = self._children(node)
        lines = [child for child in children if child not in self.virtual]
        if not lines:
            return []
        if len(children) == 1:
            return [(lines[0], block)]
        if node.tag == "table":
            columns = self._columns(node, block)
            if columns:
                return columns
        groups = self._split(lines)
        divided: list[tuple[etree._Element, int]] = []
        for members, rule in groups:
            target = block if len(groups) == 1 else self.tree.new(block, rule, members)
            divided.extend(self._assign(node, members, target))
        return divided

    def _split(self, lines: list[etree._Element]) -> list[tuple[list[etree._Element], str]]:
        """Rules 5 and 9: groups of siblings between separators and top or bottom borders."""
        groups: list[tuple[list[etree._Element], str]] = []
        current: list[etree._Element] = []
        rule = ""

        def close(next_rule: str) -> None:
            nonlocal current, rule
            if current:
                groups.append((current, rule))
            current, rule = [], next_rule

        for child in lines:
            top, right, bottom, left = self.style(child).borders
            boxed = (top or bottom) and left and right
            if child.tag == "hr" or (_empty(child) and child.tag not in _REPLACED):
                close("rule 5: after a separator")
            elif top and bottom and not boxed:
                close("rule 9: between borders")
                current.append(child)
                close("rule 9: after a bordered node")
            elif top and not boxed:
                close("rule 9: under a top border")
                current.append(child)
            elif bottom and not boxed:
                current.append(child)
                close("rule 9: after a bottom border")
            else:
                current.append(child)
        close("")
        return [(members, rule or "rule 5 or 9: before a separator") for members, rule in groups]

    def _assign(
        self, node: etree._Element, members: list[etree._Element], target: int
    ) -> list[tuple[etree._Element, int]]:
        """Rules 7, 8 and 10 and the visual distance: the block of each member of a group."""
        floats = self._float_pairs(node, members)
        rest: int | None = None
        if floats:
            still = [member for member in members if self.style(member).floating == "none"]
            rest = self.tree.new(target, "rule 8: the children without float", still) if still else None
        barred = {i for i, member in enumerate(members) if self._has_bar(member)}
        barred |= {i - 1 for i in barred if i > 0}
        assigned = []
        for index, member in enumerate(members):
            rule = self._own_block_rule(node, member, index in barred, member in floats)
            if rule:
                assigned.append((member, self.tree.new(target, rule, [member])))
            elif rest is not None and self.style(member).floating == "none":
                assigned.append((member, rest))
            else:
                assigned.append((member, target))
        return assigned

    def _own_block_rule(
        self, node: etree._Element, member: etree._Element, barred: bool, floating: bool
    ) -> str:
        """Why the member opens a block of its own ("" when it joins its parent's)."""
        if floating:
            return "rule 8: a float beside a float"
        top, right, bottom, left = self.style(member).borders
        if (top or bottom) and left and right:
            return "rule 10: a bordered box"
        if barred:
            return "rule 7: beside a coloured bar"
        distance = self._distance(member, node)
        if distance > self.max_visual_distance:
            return f"visual distance {distance} from its parent"
        return ""

    def _distance(self, child: etree._Element, parent: etree._Element) -> int:
        """How many presentation properties of the child differ from its parent's."""
        a, b = self.style(child), self.style(parent)
        widths_differ = a.width is not None and b.width is not None and abs(a.width - b.width) > 1.0
        return sum(
            (
                a.painted != b.painted,
                # Float and clear are not inherited: a child that neither floats nor clears looks like
                # its parent.
                a.floating not in ("none", b.floating),
                a.clear not in ("none", b.clear),
                abs(a.font_size - b.font_size) > 0.5,
                a.font_weight != b.font_weight,
                a.color != b.color,
                widths_differ,
                a.height is not None and a.height != b.height,
            )
        )

    def _float_pairs(self, node: etree._Element, members: list[etree._Element]) -> set[etree._Element]:
        """Rule 8: members of adjacent float pairs (left, then left or right without clear) that fit."""
        room = self.style(node).width
        found: set[etree._Element] = set()
        for first, second in itertools.pairwise(members):
            a, b = self.style(first), self.style(second)
            if a.floating != "left" or b.floating not in ("left", "right") or b.clear != "none":
                continue
            if room is not None and a.width is not None and b.width is not None and a.width + b.width < room:
                found.update((first, second))
        return found

    def _has_bar(self, element: etree._Element) -> bool:
        """Rule 7: the first or last child is an empty DIV with a height and a non-white background."""
        children = [child for child in element if isinstance(child.tag, str)]
        ends = {children[0], children[-1]} if children else set()
        return any(
            end.tag == "div" and _empty(end) and bool(self.style(end).height) and self.style(end).coloured
            for end in ends
        )

    def _columns(self, table: etree._Element, block: int) -> list[tuple[etree._Element, int]]:
        """Rule 6: one block per column when the table's columns differ in background colour."""
        rows = _rows(table)
        cells = [[cell for cell in row if cell.tag in _CELLS] for row in rows]
        count = max((len(line) for line in cells), default=0)
        colours = {
            frozenset(
                self._cell_colour(row, line[j])
                for row, line in zip(rows, cells, strict=True)
                if j < len(line)
            )
            for j in range(count)
        }
        if count < 2 or len(colours) < 2:
            return []
        columns = [self.tree.new(block, f"rule 6: table column {j + 1}", []) for j in range(count)]
        assigned = []
        for line in cells:
            for j, cell in enumerate(line):
                self.tree.owners[cell] = columns[j]
                # A box of its own: the segmenter would join a row's cells into one block of text.
                cell.tag = "div"
                assigned.append((cell, columns[j]))
        return assigned

    def _cell_colour(self, row: etree._Element, cell: etree._Element) -> str | None:
        return self.style(cell).background or self.style(row).background


def _rows(table: etree._Element) -> list[etree._Element]:
    """The table's own rows (directly or in its head, body and foot sections; not nested tables')."""
    rows = []
    for child in table:
        if child.tag == "tr":
            rows.append(child)
        elif child.tag in _SECTIONS:
            rows.extend(row for row in child if row.tag == "tr")
    return rows


def _empty(element: etree._Element) -> bool:
    """No child node at all: no element and no text."""
    return len(element) == 0 and not (element.text or "").strip()


def general_parameters(page: Page, owners: list[int], tree: BlockTree) -> npt.NDArray[np.float64]:
    """Per visual block (its own content, not its nested blocks'): text outside anchors, anchor text, links,
    images, form controls."""
    sums = np.zeros((len(tree.blocks), 5))
    for block, owner in zip(page.blocks, owners, strict=True):
        sums[owner] += _parameters(block)
    return sums


def _parameters(block: Block) -> list[float]:
    features = block.features
    anchor = min(features.link_text_length, features.text_length)
    return [
        features.text_length - anchor,
        anchor,
        features.link_count,
        features.image_count,
        features.interaction_count,
    ]


def importance(sums: npt.NDArray[np.float64], smoothing: float) -> npt.NDArray[np.float64]:
    """EIFCE's f per block: the share of the page's own text over the mean share of its noisy features."""
    page = sums.sum(axis=0)
    informative = sums[:, _INFORMATIVE] / page[_INFORMATIVE] if page[_INFORMATIVE] else np.zeros(len(sums))
    present = page[_NOISY] > 0
    shares = sums[:, _NOISY][:, present] / page[_NOISY][present]
    noisy = shares.mean(axis=1) if present.any() else np.zeros(len(sums))
    return informative / (noisy + smoothing)


@dataclass(slots=True)
class VisualPage:
    """A page segmented by EVBE: its blocks of text, the visual block of each, and the block tree."""

    page: Page
    owners: list[int]
    tree: BlockTree


def visual_blocks(
    html: str | bytes,
    encoding: str | None,
    body: etree._Element,
    config: ExtractionConfig,
    params: EvbeParams,
) -> VisualPage:
    """EVBE on a prepared page: style the body (modified in place), build the block tree, segment."""
    sheets = compile_sheets(page_stylesheets(html, encoding, params), body, params)
    styles = computed_styles(body, sheets, params)
    _drop_invisible(body, styles)
    tree = VisualBlockExtractor(styles, params.max_visual_distance).run(body)
    for element, number in tree.owners.items():
        mark(element, number)
    page = segment(body, config)
    # Text outside every marked element is the page block's.
    owners = [max(owner, 0) for owner in block_marks(page)]
    return VisualPage(page, owners, tree)


class Evbe(Method[EvbeParams], name="evbe"):
    """EVBE and EIFCE (Win & Thwin): CSS-driven visual blocks, the one of highest importance value kept."""

    paper = "seed 003, Win & Thwin: EVBE visual blocks (rules 1-10) and EIFCE's informative block"

    def label_page(self, source: SitePage, prepared: PreparedPage, body: etree._Element) -> ExtractionResult:
        """Segment the page into visual blocks and keep the informative one."""
        # Rule 1 drops what the style sheets hide (a drop-down menu): its links are still the page's links.
        hrefs = page_hrefs(body)
        visual = visual_blocks(source.html, source.encoding, body, self.config, self.params)
        if visual.page.blocks:
            self._label(visual)
        result = finish(prepared, visual.page)
        result.hrefs = hrefs
        return result

    def _label(self, visual: VisualPage) -> None:
        params = self.params
        page, owners, tree = visual.page, visual.owners, visual.tree
        sums = general_parameters(page, owners, tree)
        scores = importance(sums, params.importance_smoothing)
        text = sums[:, 0] + sums[:, 1]
        density = np.divide(sums[:, 1], text, out=np.ones(len(text)), where=text > 0)
        candidates = (text >= params.min_candidate_chars) & (density <= params.max_candidate_link_density)
        pool = candidates if candidates.any() else text > 0
        chosen = int(np.argmax(np.where(pool, scores, -np.inf)))
        for block, number in zip(page.blocks, owners, strict=True):
            where = "the informative visual block" if number == chosen else f"visual block {number}"
            reason = f"in {where} ({tree.blocks[number].rule}; f {scores[number]:.2f})"
            label(block, number == chosen, float(scores[number]), reason)


def _drop_invisible(body: etree._Element, styles: dict[etree._Element, Style]) -> None:
    """Rule 1: remove what the style sheets hide (inline hiding is already gone), keeping following text."""
    hidden = [element for element, style in styles.items() if style.hidden and element is not body]
    for element in hidden:
        element.tag = _INVISIBLE
    if hidden:
        etree.strip_elements(body, _INVISIBLE, with_tail=False)
