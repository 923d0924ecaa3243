"""Template slots: what each place of a cluster's template holds from page to page (seed 004's style tree).

A slot is a block's layout path (tag and first class per step, digits folded): the same place of the
template on every page. The site style tree of Yi, Liu & Li tells presentation noise from content by
how much a node's content varies across the pages that share it; reduced to slots, a slot's
*importance* is the share of the texts it holds (up to digits and dates) that are found on a single
page. A headline or an article paragraph slot scores near 1 (a new text on every page); a byline, a
category line or a menu near 0 (the same few texts again and again).

The *content region* is where the cluster's pages keep their content: the deepest layout path under
which the share `site_region_share` of the single-page model's content text lies, over all pages
observed; or, where each page keeps its content in an element of its own told apart by its id alone (a
Sphinx page's `section#intro`), the group of those elements. Every counter is keyed by a slot, a shape
or a path prefix, so memory grows with the distinct blocks of a cluster, not with its pages.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from extraction.result import Block, Label

SEPARATOR = "/"


@dataclass(slots=True)
class TemplateSlots:
    """Per-slot variants and the content text mass under each layout path prefix.

    Every counter is a plain dict of strings and ints (or of such dicts), which the garbage collector does
    not track: full collections during a crawl would otherwise walk each of their entries.
    """

    # slot -> how many distinct shapes it holds, and how many of them are on one page only. A shape names its
    # slot, so the cluster's shape counts (`BlockFrequency`) say when a slot gains one or sees one again.
    shapes: dict[str, int] = field(default_factory=dict)
    single: dict[str, int] = field(default_factory=dict)
    content_chars: dict[str, int] = field(default_factory=dict)
    total_content_chars: int = 0
    # The prefix tree of `content_chars` ("" is the root), walked down to find the region; each node's
    # children as the keys of a dict (a set would be tracked).
    children: dict[str, dict[str, None]] = field(default_factory=dict, repr=False)
    # The last `region` answer, by share; cleared by `observe` (revising a page must not rescan).
    _regions: dict[float, str | None] = field(default_factory=dict, repr=False)

    def observe(self, blocks: Iterable[tuple[Block, str]], shapes: Iterable[tuple[str, int]]) -> None:
        """Count one page, given as (block, slot) pairs and, for each distinct shape of the page, its slot
        and on how many pages it appeared before."""
        self._regions.clear()
        for slot, before in shapes:
            self._add_shape(slot, before)
        content: dict[str, int] = {}
        for block, slot in blocks:
            if block.label is Label.CONTENT:
                content[slot] = content.get(slot, 0) + len(block.text)
        # Summed per slot first: an article's paragraphs share a few slots, each with a dozen prefixes.
        for slot, chars in content.items():
            self._add_content(slot, chars)

    def importance(self, slot: str) -> float:
        """How much the slot's text varies from page to page, in [0, 1] (see the module docstring):
        the share of its distinct shapes found on one page only (1.0 for an unseen slot)."""
        shapes = self.shapes.get(slot)
        return self.single[slot] / shapes if shapes else 1.0

    def distinct(self, slot: str) -> int:
        """How many distinct texts (up to digits and dates) the slot holds across the cluster."""
        return self.shapes.get(slot, 0)

    def region(self, share: float) -> str | None:
        """The deepest path prefix holding `share` of the content text (None before any content)."""
        if share not in self._regions:
            self._regions[share] = self._deepest_prefix(share * self.total_content_chars)
        return self._regions[share]

    def _add_shape(self, slot: str, before: int) -> None:
        """Count one more page holding a shape of `slot` that `before` pages held."""
        if before == 0:
            self.shapes[slot] = self.shapes.get(slot, 0) + 1
            self.single[slot] = self.single.get(slot, 0) + 1
        elif before == 1:
            self.single[slot] -= 1

    def _add_child(self, parent: str, prefix: str) -> None:
        siblings = self.children.get(parent)
        if siblings is None:
            siblings = self.children[parent] = {}
        siblings[prefix] = None

    def _deepest_prefix(self, needed: float) -> str | None:
        """Walk down the prefix tree while a child holds `needed` chars (masses shrink going down). Where no
        child does, but the children that differ by their id alone do together (Sphinx's `section#intro`,
        `section#api`: one per page), the region is that group (`id_group`), and the walk ends there."""
        found, node, chars = None, "", self.content_chars
        while needed > 0:
            children = self.children.get(node, {})
            best = max(children, key=chars.__getitem__, default=None)
            if best is None:
                break
            if chars[best] < needed:
                group = id_group(best)
                held = sum(chars[child] for child in children if id_group(child) == group)
                return group if group != best and held >= needed else found
            found = node = best
        return found

    def _add_content(self, slot: str, chars: int) -> None:
        self.total_content_chars += chars
        content_chars = self.content_chars
        parent = ""
        for prefix in _containers(slot):
            # An empty slot (a block without a path) is its own root, not a child of it.
            if prefix not in content_chars and prefix != parent:
                self._add_child(parent, prefix)
            content_chars[prefix] = content_chars.get(prefix, 0) + chars
            parent = prefix


@lru_cache(maxsize=1 << 14)
def _containers(slot: str) -> tuple[str, ...]:
    """Every container of the slot, outermost first: its path prefixes, not the slot itself. A region is
    a container: were it a block's own slot (a book whose text is all `div.section/div.para`), the side
    notes and headings beside those paragraphs would lie outside it."""
    steps = slot.split(SEPARATOR)
    return tuple(SEPARATOR.join(steps[:end]) for end in range(1, len(steps)))


def in_region(slot: str, region: str | None) -> bool:
    """True when the slot lies at or under the region's path; a region that ends in a group of elements
    told apart by their ids alone (`id_group`: `main/section`) holds what lies under any of them
    (`main/section#api/p`: a layout step keeps an id only where it has no class)."""
    if region is None:
        return False
    return slot == region or slot.startswith((region + SEPARATOR, region + "#"))


@lru_cache(maxsize=1 << 12)
def id_group(prefix: str) -> str:
    """The prefix with the id of its last step dropped (`main/section#api` -> `main/section`): elements
    without a class keep their id in a layout path, and a page's sections have ids of their own."""
    parent, _, last = prefix.rpartition(SEPARATOR)
    tag, hash_, _ = last.partition("#")
    if not hash_ or "." in tag:
        return prefix
    return f"{parent}{SEPARATOR}{tag}" if parent else tag


def content_container(slots: Sequence[str]) -> str | None:
    """The deepest path holding every one of `slots` below it: the container of a page's content blocks
    (None without any)."""
    return common_path([container_of(slot) for slot in slots])


def container_of(slot: str) -> str:
    """The path of the element that holds the slot's block."""
    return slot.rpartition(SEPARATOR)[0]


def common_path(paths: Sequence[str]) -> str | None:
    """The deepest path that every one of `paths` is at or under (None for none, "" for no common step)."""
    if not paths:
        return None
    # The common prefix of the smallest and the largest path is every path's.
    first, last = min(paths), max(paths)
    steps: list[str] = []
    for a, b in zip(first.split(SEPARATOR), last.split(SEPARATOR), strict=False):
        if a != b:
            break
        steps.append(a)
    return SEPARATOR.join(steps)


def page_region(content: Sequence[tuple[str, int]], share: float, region: str | None) -> str | None:
    """The content region of one page, given as (slot, chars) of its content blocks, when the cluster's
    `region` does not hold `share` of their text: the deepest path prefix that does (None otherwise).

    A cluster's region is where most of its pages keep their content; a page of another kind that joined
    the cluster (a book's chapter page among its section pages) keeps its own elsewhere.
    """
    needed = share * sum(size for _, size in content)
    if not needed or sum(size for slot, size in content if in_region(slot, region)) >= needed:
        return None  # most pages: the cluster's region holds the page's content, no prefix is counted
    chars: dict[str, int] = {}
    for slot, size in content:
        for prefix in _containers(slot):
            chars[prefix] = chars.get(prefix, 0) + size
    # Prefixes holding over half the text form one chain from the root: the deepest is the longest.
    return max((prefix for prefix, size in chars.items() if size >= needed), key=len, default=None)
