"""Block document frequency per cluster (seed 001's inverse block document frequency, as counts).

Two keys per block: its text hash (the very same text) and a near-duplicate shape, the block's path
with per-page class modifiers dropped plus its text with digit runs and month names masked, so
"Posted on 12 May 2014" and "Posted on 3 June 2019" in the same place are one block. Each key is
counted once per page, so the counters grow with the distinct blocks of the cluster, not its pages.

The "frequent" threshold is a share of the cluster's pages (`site_frequent_share`, 0.5) with a floor
(`site_frequent_min_pages`): a template block sits on nearly every page of its template and an article
paragraph on one, so the distribution is bimodal and any share between the modes separates them; a gap
search in the sorted frequencies would pick the same cut with more code and less predictability on
small clusters, where a few pages make spurious gaps.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from extraction.hashing import text_hash
from extraction.result import Block
from extraction.site_models.signature import layout_path

_MONTHS = (
    r"january|february|march|april|may|june|july|august|september|october|november|december"
    r"|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_CHANGING = re.compile(rf"\d+|\b(?:{_MONTHS})\b", re.IGNORECASE)
_LETTER = re.compile(r"[^\W\d_]")


def mask_text(text: str) -> str:
    """The text with digit runs and month names replaced by 0 and whitespace folded."""
    return " ".join(_CHANGING.sub("0", text).split())


def block_shape(block: Block) -> str | None:
    """The near-duplicate key of a block; None when its masked text has no letter left.

    A block of numbers alone ("3 | 4 | 240V" masks to nearly nothing) would match every other such
    block at its path: its shape says nothing about it being template.
    """
    masked = mask_text(block.text)
    if not _LETTER.search(masked):
        return None
    return text_hash(layout_path(block.path) + "\x1f" + masked)


@dataclass(slots=True)
class BlockFrequency:
    """On how many pages of a cluster each block text and each block shape appears."""

    pages: int = 0
    texts: Counter[str] = field(default_factory=Counter)
    shapes: Counter[str] = field(default_factory=Counter)

    def observe(self, blocks: Iterable[Block]) -> None:
        """Count one page: each text hash and shape once, however often the page repeats it."""
        blocks = list(blocks)
        self.pages += 1
        self.texts.update({block.hash for block in blocks})
        self.shapes.update({shape for block in blocks if (shape := block_shape(block)) is not None})

    def threshold(self, share: float, min_pages: int) -> int:
        """The page count at which a block is frequent: `share` of the pages, at least `min_pages`."""
        return max(min_pages, math.ceil(share * self.pages))

    def text_pages(self, block: Block) -> int:
        """On how many pages the block's exact text appears."""
        return self.texts[block.hash]

    def shape_pages(self, block: Block) -> int:
        """On how many pages the block's shape appears (0 for a block without a shape)."""
        shape = block_shape(block)
        return self.shapes[shape] if shape is not None else 0

    def to_dict(self) -> dict[str, Any]:
        """The counts as plain JSON-ready data."""
        return {"pages": self.pages, "texts": dict(self.texts), "shapes": dict(self.shapes)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BlockFrequency:
        """The inverse of `to_dict`."""
        return cls(int(data["pages"]), Counter(data["texts"]), Counter(data["shapes"]))
