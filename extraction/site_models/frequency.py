"""Block document frequency per cluster (seed 001's inverse block document frequency, as counts).

Two keys per block: its text hash (the very same text) and a near-duplicate shape, the block's path
with per-page class modifiers dropped plus its text with digit runs and month names masked, so
"Posted on 12 May 2014" and "Posted on 3 June 2019" in the same place are one block. A dated line that is
no heading has its names masked too (runs of capitalised words after the first word): a byline's
"Submitted by Robert Wall on Mon, 03/06/2013 - 21:44" and "Submitted by PhilThy on Tue, ..." are one
block, the template's phrase around a poster and a date (seed 000's key patterns). Each key is
counted once per page, so the counters grow with the distinct blocks of the cluster, not its pages, and a
key costs about 12 bytes (`extraction.compact`).

The "frequent" threshold is a share of the cluster's pages (`site_frequent_share`, 0.5) with a floor
(`site_frequent_min_pages`): a template block sits on nearly every page of its template and an article
paragraph on one, so the distribution is bimodal and any share between the modes separates them; a gap
search in the sorted frequencies would pick the same cut with more code and less predictability on
small clusters, where a few pages make spurious gaps.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import NamedTuple

from extraction.compact import PageCounts
from extraction.hashing import text_hash
from extraction.result import Block, BlockKind
from extraction.site_models.signature import layout_path

_MONTHS = (
    r"january|february|march|april|may|june|july|august|september|october|november|december"
    r"|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_CHANGING = re.compile(rf"\d+|\b(?:{_MONTHS})\b", re.IGNORECASE)
_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")
# A date or a time: "3/6/2013", "2013-06-03", "3.6.2013", "21:44", or a month beside a number.
_DATED = re.compile(
    rf"\d[/.-]\d+[/.-]\d|\d:\d\d|\b(?:{_MONTHS})\b\.? \d|\d\.? (?:{_MONTHS})\b", re.IGNORECASE
)
# A run of capitalised words (a name, a weekday), after the text's first word.
_NAMES = re.compile(r"(?<=\s)[^\W\d_a-z][\w'’.-]*(?:\s+[^\W\d_a-z][\w'’.-]*)*")


def mask_text(text: str, names: bool = False) -> str:
    """The text with digit runs and month names replaced by 0 and whitespace folded; with `names`, a dated
    text also has each run of capitalised words after its first word replaced by X."""
    masked = " ".join(_CHANGING.sub("0", text).split())
    return _NAMES.sub("X", masked) if names and _DATED.search(text) else masked


class BlockKey(NamedTuple):
    """What the cluster counters know a block by: its text hash, its slot and its shape."""

    text: str
    slot: str
    shape: str | None


def block_key(block: Block, shape_max_chars: int) -> BlockKey:
    """The keys of one block (the layout path and the masked text are computed once here)."""
    slot = layout_path(block.path)
    text_key = block.hash
    heading = block.kind is BlockKind.HEADING
    return BlockKey(text_key, slot, block_shape(slot, block.text, text_key, shape_max_chars, heading))


def block_shape(slot: str, text: str, text_key: str, max_chars: int, heading: bool = False) -> str | None:
    """The near-duplicate key of a block in `slot`: its slot and its text up to digits and dates.

    Only a short block with a digit has a changing part (a date, a counter): its masked text makes its
    shape. Any other block is its own shape, made of its slot and its text hash (`derived_shape`), so
    a store that keeps only the hash can rebuild it; masking every paragraph of a site would cost more
    than the rest of the model. None when no letter is left: a block of numbers alone ("3 | 4 | 240V")
    would match every other such block at its path, and its shape says nothing about it being template.
    """
    if len(text) <= max_chars and _DIGIT.search(text):
        return masked_shape(slot, text, heading)
    return derived_shape(slot, text_key) if _LETTER.search(text) else None


def masked_shape(slot: str, text: str, heading: bool = False) -> str | None:
    """The shape of a block with a changing part: its slot and its masked text (None without a letter).
    A heading keeps its names: "Chapter 5. Server Setup" and "Chapter 7. Client Setup" are no template."""
    masked = mask_text(text, names=not heading)
    return text_hash(slot + "\x1f" + masked) if _LETTER.search(masked) else None


def derived_shape(slot: str, text_key: str) -> str:
    """The shape of a block without a changing part: its slot and its text hash (hashed as they are: a slot
    and a hash hold no whitespace to fold)."""
    return blake2b(f"{slot}\x1e{text_key}".encode(), digest_size=8).hexdigest()


@dataclass(slots=True)
class BlockFrequency:
    """On how many pages of a cluster each block text and each block shape appears.

    Both counts are keyed by the 64-bit hash (`extraction.compact.PageCounts`): a cluster meets most of its
    texts on one page only, and a count must cost a few bytes for a crawl's memory to stay flat.
    """

    pages: int = 0
    texts: PageCounts = field(default_factory=PageCounts)
    shapes: PageCounts = field(default_factory=PageCounts)

    def observe(self, keys: Collection[BlockKey]) -> list[tuple[str, int]]:
        """Count one page: each text hash and shape once, however often the page repeats it. For each
        distinct shape of the page, its slot and on how many pages it appeared before."""
        self.pages += 1
        self.texts.add_page(int(key.text, 16) for key in keys)
        slots = {key.shape: key.slot for key in keys if key.shape is not None}
        before = self.shapes.add_page(int(shape, 16) for shape in slots)
        return list(zip(slots.values(), before, strict=True))

    def threshold(self, share: float, min_pages: int) -> int:
        """The page count at which a block is frequent: `share` of the pages, at least `min_pages`."""
        return max(min_pages, math.ceil(share * self.pages))

    def pages_of(self, keys: Sequence[BlockKey]) -> list[tuple[int, int]]:
        """For each block, on how many pages its exact text appears, and its shape (0 without a shape)."""
        texts = self.texts.counts([int(key.text, 16) for key in keys])
        shapes = iter(self.shapes.counts([int(key.shape, 16) for key in keys if key.shape is not None]))
        return [
            (text_pages, next(shapes) if key.shape is not None else 0)
            for key, text_pages in zip(keys, texts, strict=True)
        ]
