"""Template slots: what each place of a cluster's template holds from page to page (seed 004's style tree).

A slot is a block's layout path (tag and first class per step, digits folded): the same place of the
template on every page. The site style tree of Yi, Liu & Li tells presentation noise from content by
how much a node's content varies across the pages that share it; reduced to slots, a slot's
*importance* is the share of the texts it holds (up to digits and dates) that are found on a single
page. A headline or an article paragraph slot scores near 1 (a new text on every page); a byline, a
category line or a menu near 0 (the same few texts again and again).

The *content region* is where the cluster's pages keep their content: the deepest layout path under
which the share `site_region_share` of the single-page model's content text lies, over all pages
observed. Every counter is keyed by a slot, a shape or a path prefix, so memory grows with the distinct
blocks of a cluster, not with its pages.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from extraction.result import Block, Label

SEPARATOR = "/"


@dataclass(slots=True)
class SlotVariants:
    """The texts one slot holds across the cluster: pages per shape, distinct and single-page shapes."""

    pages: Counter[str] = field(default_factory=Counter)
    single: int = 0

    def add(self, shape: str) -> None:
        """Count one more page holding `shape` in this slot."""
        # `get`, not indexing: a Counter's missing key goes through a Python-level __missing__.
        seen = self.pages.get(shape, 0)
        self.pages[shape] = seen + 1
        self.single += 1 if seen == 0 else -1 if seen == 1 else 0

    @property
    def importance(self) -> float:
        """The share of the slot's distinct shapes found on one page only (1.0 for an unseen slot)."""
        return self.single / len(self.pages) if self.pages else 1.0


@dataclass(slots=True)
class TemplateSlots:
    """Per-slot variants and the content text mass under each layout path prefix."""

    variants: dict[str, SlotVariants] = field(default_factory=dict)
    content_chars: Counter[str] = field(default_factory=Counter)
    total_content_chars: int = 0
    # The prefix tree of `content_chars` ("" is the root), walked down to find the region.
    children: dict[str, set[str]] = field(default_factory=dict, repr=False)
    # The last `region` answer, by share; cleared by `observe` (revising a page must not rescan).
    _regions: dict[float, str | None] = field(default_factory=dict, repr=False)

    def observe(self, blocks: Iterable[tuple[Block, str, str | None]]) -> None:
        """Count one page given as (block, slot, shape) triples: each (slot, shape) once per page."""
        self._regions.clear()
        variants = self.variants
        seen: set[tuple[str, str]] = set()
        content: dict[str, int] = {}
        for block, slot, shape in blocks:
            if shape is not None and (slot, shape) not in seen:
                seen.add((slot, shape))
                # Not `setdefault`: it would build a SlotVariants, and its Counter, for every block.
                slot_variants = variants.get(slot)
                if slot_variants is None:
                    slot_variants = variants[slot] = SlotVariants()
                slot_variants.add(shape)
            if block.label is Label.CONTENT:
                content[slot] = content.get(slot, 0) + len(block.text)
        # Summed per slot first: an article's paragraphs share a few slots, each with a dozen prefixes.
        for slot, chars in content.items():
            self._add_content(slot, chars)

    def importance(self, slot: str) -> float:
        """How much the slot's text varies from page to page, in [0, 1] (see the module docstring)."""
        variants = self.variants.get(slot)
        return variants.importance if variants is not None else 1.0

    def distinct(self, slot: str) -> int:
        """How many distinct texts (up to digits and dates) the slot holds across the cluster."""
        variants = self.variants.get(slot)
        return len(variants.pages) if variants is not None else 0

    def region(self, share: float) -> str | None:
        """The deepest path prefix holding `share` of the content text (None before any content)."""
        if share not in self._regions:
            self._regions[share] = self._deepest_prefix(share * self.total_content_chars)
        return self._regions[share]

    def to_dict(self) -> dict[str, Any]:
        """The counters as plain JSON-ready data."""
        return {
            "variants": {slot: dict(variants.pages) for slot, variants in self.variants.items()},
            "content_chars": dict(self.content_chars),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TemplateSlots:
        """The inverse of `to_dict`."""
        slots = cls()
        for slot, pages in data["variants"].items():
            variants = SlotVariants(Counter(pages))
            variants.single = sum(1 for count in pages.values() if count == 1)
            slots.variants[slot] = variants
        for prefix, chars in data["content_chars"].items():
            slots.content_chars[prefix] = chars
            parent = prefix.rpartition(SEPARATOR)[0]
            if prefix:
                slots.children.setdefault(parent, set()).add(prefix)
            if not parent:
                slots.total_content_chars += chars
        return slots

    def _deepest_prefix(self, needed: float) -> str | None:
        """Walk down the prefix tree while a child holds `needed` chars (masses shrink going down)."""
        found, node, chars = None, "", self.content_chars
        while needed > 0:
            best = max(self.children.get(node, ()), key=chars.__getitem__, default=None)
            if best is None or chars[best] < needed:
                break
            found = node = best
        return found

    def _add_content(self, slot: str, chars: int) -> None:
        self.total_content_chars += chars
        content_chars, children = self.content_chars, self.children
        parent = ""
        for prefix in _prefixes(slot):
            # An empty slot (a block without a path) is its own root, not a child of it.
            if prefix not in content_chars and prefix != parent:
                children.setdefault(parent, set()).add(prefix)
            content_chars[prefix] += chars
            parent = prefix


@lru_cache(maxsize=1 << 14)
def _prefixes(slot: str) -> tuple[str, ...]:
    """The slot and every path prefix of it."""
    steps = slot.split(SEPARATOR)
    return tuple(SEPARATOR.join(steps[:end]) for end in range(1, len(steps) + 1))


def in_region(slot: str, region: str | None) -> bool:
    """True when the slot lies at or under the region's path."""
    if region is None:
        return False
    return slot == region or slot.startswith(region + SEPARATOR)
