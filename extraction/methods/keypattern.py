"""Seed 000's method (after Kang et al.'s REPS): blocks from key patterns and virtual nodes, by importance.

Steps: (1) preprocessing: the less meaningful tags (`KeyPatternParams.less_meaningful_tags`: <a>, <b>, <span>,
...) are unwrapped, their text kept; scripts and comments are gone already (`extraction.prepare`);
(2) the DOM tree; (3) the sequence of an element's one-depth child nodes that hold text (their tags; a
run of text is "#text"); (4) repetitions: subsequences of length 1 < m <= n/2 occurring twice or more,
counted without overlap when all their elements are equal; key patterns: the longest and most frequent,
dropping those properly contained in another; (5) blocks: the matches of a key pattern split the
sequence, each part from one match to the next becoming a virtual node, while the matches of a pattern
of equal elements are grouped into one virtual node (a run of five <li> matched by [li, li] is one node:
where the run is odd the matches overlap, but together they cover it); later key patterns apply inside
the virtual nodes made so far; (6) importance: the number of important tags (all tags left) in a block;
(7) blocks below `KeyPatternParams.threshold` are noise.

Blocks are the virtual nodes and the children outside them. A child that holds block-level elements is
not a block but an inner level: its own child sequence is segmented the same way (REPS segments nested
blocks top-down; the paper's example is one level), so a page wrapped in a single <div> still divides.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from lxml import etree

from extraction.methods.base import Method, Params, SitePage
from extraction.methods.common import page_hrefs
from extraction.prepare import PreparedPage, result_reason, truncated
from extraction.result import Block, BlockKind, ExtractionResult, Label
from extraction.segment import BLOCK_TAGS

TEXT = "#text"
_TAG_COUNT = etree.XPath("count(descendant-or-self::*)")

Pattern = tuple[str, ...]


@dataclass(slots=True)
class VirtualNode:
    """A node put over consecutive siblings: its children are sibling positions or nested virtual nodes."""

    children: list[int | VirtualNode]


def repetitions(sequence: Sequence[str], max_length: int) -> dict[Pattern, tuple[int, int]]:
    """Every subsequence of length 1 < m <= n/2 (and <= `max_length`) that occurs twice or more.

    Maps each to (occurrences, first position). A repetition's prefix is a repetition too, so only the
    starts of repeated m-grams are extended to m + 1, and the search stops at the first length with none.
    """
    size = len(sequence)
    codes: dict[str, int] = {}
    tags = [codes.setdefault(tag, len(codes)) for tag in sequence]
    # The id of the (m-1)-gram starting at each position still being extended.
    ids = dict(enumerate(tags))
    starts = list(range(size))
    found: dict[Pattern, tuple[int, int]] = {}
    length = 1
    while starts and length < min(size // 2, max_length):
        length += 1
        grams: dict[tuple[int, int], list[int]] = {}
        for start in starts:
            if start + length <= size:
                grams.setdefault((ids[start], tags[start + length - 1]), []).append(start)
        ids, starts = {}, []
        for gram_id, where in enumerate(grams.values()):
            pattern = tuple(sequence[where[0] : where[0] + length])
            occurrences = _non_overlapping(where, length) if len(set(pattern)) == 1 else len(where)
            if occurrences >= 2:
                found[pattern] = (occurrences, where[0])
                ids.update(dict.fromkeys(where, gram_id))
                starts.extend(where)
        starts.sort()
    return found


def _non_overlapping(starts: list[int], length: int) -> int:
    count, free_from = 0, 0
    for start in starts:
        if start >= free_from:
            count, free_from = count + 1, start + length
    return count


def key_patterns(sequence: Sequence[str], max_length: int) -> list[Pattern]:
    """The repetitions not properly contained in another, longest first, then most frequent, then first.

    A repetition inside a longer one is inside one a single element longer (its window there occurs
    wherever the longer one does), so checking the prefix and suffix of each repetition suffices.
    """
    found = repetitions(sequence, max_length)
    contained = {part for pattern in found for part in (pattern[:-1], pattern[1:])}
    keys = [pattern for pattern in found if pattern not in contained]
    return sorted(keys, key=lambda pattern: (-len(pattern), -found[pattern][0], found[pattern][1]))


def virtual_nodes(sequence: Sequence[str], patterns: Sequence[Pattern]) -> list[int | VirtualNode]:
    """The positions of `sequence` regrouped under virtual nodes by each key pattern in turn (seed 000's
    Fig. 4: a pattern applies to the top sequence and inside every virtual node made before it)."""
    root = VirtualNode(list(range(len(sequence))))
    for pattern in patterns:
        for node in _virtual_nodes_under(root):
            node.children = _grouped(node.children, pattern, sequence)
    return root.children


def _virtual_nodes_under(root: VirtualNode) -> list[VirtualNode]:
    nodes, pending = [], [root]
    while pending:
        node = pending.pop()
        nodes.append(node)
        pending.extend(child for child in node.children if isinstance(child, VirtualNode))
    return nodes


def _grouped(
    items: list[int | VirtualNode], pattern: Pattern, sequence: Sequence[str]
) -> list[int | VirtualNode]:
    """Split `items` at each match of `pattern`, each part running to the next match (the first part
    keeping what precedes the first match); a pattern of equal elements groups what its matches cover."""
    if len(set(pattern)) == 1:
        return _grouped_runs(items, pattern[0], len(pattern), sequence)
    starts = _match_starts(items, pattern, sequence)
    if len(starts) < 2:
        return items
    bounds = [*starts, len(items)]
    parts = (VirtualNode(items[start:end]) for start, end in itertools.pairwise(bounds))
    return [*items[: starts[0]], *parts]


def _grouped_runs(
    items: list[int | VirtualNode], tag: str, length: int, sequence: Sequence[str]
) -> list[int | VirtualNode]:
    """Each run of `tag` at least `length` long (the positions the pattern's matches cover) as one node."""
    grouped: list[int | VirtualNode] = []
    position = 0
    while position < len(items):
        end = position
        while end < len(items) and _is_plain(items[end], tag, sequence):
            end += 1
        if end - position >= length:
            grouped.append(VirtualNode(items[position:end]))
        else:
            grouped.extend(items[position : max(end, position + 1)])
        position = max(end, position + 1)
    return grouped


def _match_starts(items: list[int | VirtualNode], pattern: Pattern, sequence: Sequence[str]) -> list[int]:
    """Where `pattern` matches consecutive plain positions of `items`, left to right without overlap."""
    starts: list[int] = []
    length = len(pattern)
    position = 0
    while position + length <= len(items):
        window = items[position : position + length]
        if all(_is_plain(item, tag, sequence) for item, tag in zip(window, pattern, strict=True)):
            starts.append(position)
            position += length
        else:
            position += 1
    return starts


def _is_plain(item: int | VirtualNode, tag: str, sequence: Sequence[str]) -> bool:
    """Whether the item is a sibling (not a virtual node) with this tag."""
    return isinstance(item, int) and sequence[item] == tag


# One child node of an element: its tag (or "#text") and the element (or the text).
_Child = tuple[str, "etree._Element | str"]


@dataclass(frozen=True, slots=True)
class _Segment:
    """A block in the making: consecutive children of `parent`, one child or a virtual node's."""

    parent: etree._Element
    members: list[_Child]
    virtual: bool


@dataclass(frozen=True, slots=True)
class KeyPatternParams(Params):
    """Seed 000's parameters (settings ``EXTRACTION_KEYPATTERN_*``)."""

    prefix = "keypattern"
    # The less meaningful tags (space-separated) unwrapped before the child sequences are read (the paper
    # names <a>, <b>, <span>; scripts and comments are gone already).
    less_meaningful_tags: str = (
        "a b i u s em strong span font small big abbr cite code mark sub sup time nobr wbr"
    )
    # Repetitions no longer than this (the paper bounds them by half the sequence only: this keeps a list
    # of thousands of items linear).
    max_pattern_length: int = 32
    # A block with fewer important tags is noise (the paper gives no value; 1 scored best on wcxb-dev, as
    # most paragraphs outside a repeated run are one <p>).
    threshold: int = 1


class KeyPattern(Method[KeyPatternParams], name="keypattern"):
    """Seed 000: blocks by key patterns and virtual nodes; a block with few important tags is noise."""

    paper = "seed 000: key patterns of child tag sequences, virtual nodes, importance = important tags"

    def label_page(self, source: SitePage, prepared: PreparedPage, body: etree._Element) -> ExtractionResult:
        """Segment the page into key-pattern blocks and keep those with enough important tags."""
        config, result = self.config, prepared.result
        result.hrefs = page_hrefs(body)
        etree.strip_tags(body, *self.params.less_meaningful_tags.split())
        blocks, cut_short = self._blocks(body)
        result.blocks = blocks
        cut = truncated(cut_short, config.max_blocks)
        result.reason = result_reason(blocks, "no block has enough important tags", cut, result.reason)
        return result

    def _blocks(self, body: etree._Element) -> tuple[list[Block], bool]:
        """The labelled blocks in page order, and whether `max_blocks` cut them short."""
        config = self.config
        tree = body.getroottree()
        blocks: list[Block] = []
        for segment in _segments(body, self.params.max_pattern_length):
            text = "\n".join(filter(None, (_text(node) for _, node in segment.members)))
            if not text:
                continue
            if len(blocks) == config.max_blocks:
                return blocks, True
            importance = sum(_tag_count(node) for _, node in segment.members if not isinstance(node, str))
            blocks.append(_block(len(blocks), segment, tree, text[: config.max_block_chars], importance))
            self._label(blocks[-1], importance)
        return blocks, False

    def _label(self, block: Block, importance: int) -> None:
        threshold = self.params.threshold
        if importance >= threshold:
            block.label = Label.CONTENT
            block.reason = f"{importance} important tags, at least the threshold {threshold}"
        else:
            block.reason = f"{importance} important tags, under the threshold {threshold}"


def _segments(body: etree._Element, max_length: int) -> Iterator[_Segment]:
    """The blocks of the body in page order; an element holding block-level children is segmented in turn."""
    pending: list[_Segment | etree._Element] = [body]
    while pending:
        work = pending.pop()
        if isinstance(work, _Segment):
            yield work
            continue
        children = _children(work)
        tags = [tag for tag, _ in children]
        tree = virtual_nodes(tags, key_patterns(tags, max_length))
        pending.extend(reversed(list(_parts(work, tree, children))))


def _children(element: etree._Element) -> list[_Child]:
    """The one-depth child nodes that hold text: elements, and the runs of text between them.

    Elements without text (empty ad slots, spacers) are left out: there is nothing in them to keep or
    drop, and in the sequence they would pass for repetitions of the boxes around them.
    """
    children: list[_Child] = []
    if element.text and not element.text.isspace():
        children.append((TEXT, element.text))
    for child in element:
        if isinstance(child.tag, str) and any(not text.isspace() for text in child.itertext()):
            children.append((child.tag, child))
        if child.tail and not child.tail.isspace():
            children.append((TEXT, child.tail))
    return children


def _parts(
    parent: etree._Element, tree: list[int | VirtualNode], children: list[_Child]
) -> Iterator[_Segment | etree._Element]:
    """The blocks of one level: innermost virtual nodes, plain children, and inner levels to segment.

    A virtual node whose members all hold block-level elements groups layout boxes (a body of <div>s),
    not one block: like a wrapper element, its members are segmented in turn.
    """
    pending = list(reversed(tree))
    while pending:
        item = pending.pop()
        if isinstance(item, int):
            node = children[item][1]
            if not isinstance(node, str) and _is_level(node):
                yield node
            else:
                yield _Segment(parent, [children[item]], False)
        elif any(isinstance(child, VirtualNode) for child in item.children):
            pending.extend(reversed(item.children))
        else:
            members = [children[child] for child in item.children if isinstance(child, int)]
            if all(_is_level(node) for _, node in members):
                pending.extend(reversed(item.children))
            else:
                yield _Segment(parent, members, True)


def _is_level(node: etree._Element | str) -> bool:
    """Whether a child holds block-level elements, so that its own children are segmented in its place."""
    return not isinstance(node, str) and any(child.tag in BLOCK_TAGS for child in node)


def _text(node: etree._Element | str) -> str:
    # A tree parsed from text yields only str; the stubs allow bytes.
    pieces = (
        [node] if isinstance(node, str) else [piece for piece in node.itertext() if isinstance(piece, str)]
    )
    return " ".join(" ".join(pieces).split())


def _tag_count(element: etree._Element) -> int:
    """The important tags of an element's subtree: all of them, the less meaningful ones being gone."""
    count = _TAG_COUNT(element)
    return int(count) if isinstance(count, float) else 0


def _block(position: int, segment: _Segment, tree: etree._ElementTree, text: str, importance: int) -> Block:
    tag, node = segment.members[0]
    if segment.virtual or isinstance(node, str):
        path = f"{tree.getpath(segment.parent)}/{'virtual' if segment.virtual else 'text()'}"
        tag = "virtual" if segment.virtual else tag
    else:
        path = tree.getpath(node)
    return Block(position, path, tag, BlockKind.TEXT, text, score=float(importance))
