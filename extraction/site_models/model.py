"""`SiteModel`: one cluster's learned template, revising the single-page labels of `extract`.

A content block is dropped as template when its exact text, or its shape (same place, same text up to
digits and dates), is on at least the frequent share of the cluster's pages; a site-wide disclaimer
inside the article area goes the same way. Guardrails: tables, code and list items of the content are
dropped only for an exact repeat (a shape match says little about rows of numbers or code lines) that
the page itself does not repeat (an index's "module" under each entry is a field of its records, and
records are what such a page is for), and a revision that would leave the page without content is not
applied. Lin & Ho's block entropy is
reported beside each decision as evidence; it decides nothing alone (see `Decision.entropy`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from extraction.config import ExtractionConfig
from extraction.result import Block, BlockKind, Label
from extraction.site_models.entropy import TermEntropy
from extraction.site_models.frequency import BlockFrequency

# Content structures whose lines look alike from page to page (numbers, code) without being template.
_PROTECTED = frozenset({BlockKind.TABLE_ROW, BlockKind.CODE, BlockKind.LIST_ITEM})


@dataclass(slots=True, frozen=True)
class Decision:
    """The revised label of one block, why, and the cluster evidence behind it.

    `pages` is the larger of the block's exact-text and shape page counts; `entropy` its Lin & Ho block
    entropy (None without terms), high for template blocks and low for an article's own paragraphs.
    """

    position: int
    label: Label
    reason: str
    pages: int
    entropy: float | None


@dataclass(slots=True)
class SiteModel:
    """Block frequencies and term statistics of one cluster of pages."""

    config: ExtractionConfig = field(default_factory=ExtractionConfig)
    frequency: BlockFrequency = field(default_factory=BlockFrequency)
    entropy: TermEntropy = field(default_factory=TermEntropy)

    @property
    def pages(self) -> int:
        """How many pages the model has seen."""
        return self.frequency.pages

    @property
    def ready(self) -> bool:
        """True once the model has seen `site_min_pages` pages: fewer cannot tell template from chance."""
        return self.pages >= self.config.site_min_pages

    def observe(self, blocks: Sequence[Block]) -> None:
        """Learn from one page of the cluster (every block, whatever its label)."""
        self.frequency.observe(blocks)
        self.entropy.observe(blocks)

    def revise(self, blocks: Sequence[Block]) -> list[Decision]:
        """One decision per block: content blocks that repeat across the cluster become noise.

        Noise stays noise. When every content block would go, the single-page labels stand and each
        decision says so: a page is never emptied by its template.
        """
        fields = _record_fields(blocks)
        decisions = [self._decide(block, block.text in fields) for block in blocks]
        had_content = any(block.is_content for block in blocks)
        if had_content and not any(decision.label is Label.CONTENT for decision in decisions):
            return [self._keep(block, decision) for block, decision in zip(blocks, decisions, strict=True)]
        return decisions

    def apply(self, blocks: Sequence[Block]) -> None:
        """Relabel the blocks in place with `revise` (nothing happens before the model is `ready`)."""
        if not self.ready:
            return
        for block, decision in zip(blocks, self.revise(blocks), strict=True):
            block.label, block.reason = decision.label, decision.reason

    def to_dict(self) -> dict[str, Any]:
        """The model's state as plain counts, for a pipeline to persist and share between processes."""
        return {"frequency": self.frequency.to_dict(), "entropy": self.entropy.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any], config: ExtractionConfig | None = None) -> SiteModel:
        """The inverse of `to_dict` (the config is not state: it comes from the caller)."""
        return cls(
            config or ExtractionConfig(),
            BlockFrequency.from_dict(data["frequency"]),
            TermEntropy.from_dict(data["entropy"]),
        )

    def _decide(self, block: Block, record_field: bool) -> Decision:
        text_pages = self.frequency.text_pages(block)
        shape_pages = self.frequency.shape_pages(block)
        entropy = self.entropy.block_entropy(block.text)
        pages = max(text_pages, shape_pages)
        if block.is_content:
            frequent = self.frequency.threshold(
                self.config.site_frequent_share, self.config.site_frequent_min_pages
            )
            of = f"of {self.pages} pages of this cluster"
            if text_pages >= frequent and not (record_field and block.kind in _PROTECTED):
                return Decision(
                    block.position, Label.NOISE, f"same text on {text_pages} {of}", pages, entropy
                )
            if shape_pages >= frequent and block.kind not in _PROTECTED:
                reason = f"same block, changing digits, on {shape_pages} {of}"
                return Decision(block.position, Label.NOISE, reason, pages, entropy)
        return Decision(block.position, block.label, block.reason, pages, entropy)

    def _keep(self, block: Block, decision: Decision) -> Decision:
        if block.label is decision.label:
            return decision
        reason = f"{block.reason} (kept: {decision.reason}, but dropping it would leave the page empty)"
        return Decision(block.position, block.label, reason, decision.pages, decision.entropy)


def _record_fields(blocks: Sequence[Block]) -> set[str]:
    """Texts that several content blocks of the page share."""
    counts = Counter(block.text for block in blocks if block.is_content)
    return {text for text, count in counts.items() if count > 1}
