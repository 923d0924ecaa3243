"""Result types of an extraction: blocks, their labels and the page-level result."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from extraction.hashing import text_hash
from extraction.links import resolve_links


class Label(Enum):
    """Whether a block belongs to the page's informative content."""

    CONTENT = "content"
    NOISE = "noise"


class BlockKind(Enum):
    """The structural role of a block, which decides how it is rendered as text."""

    HEADING = "heading"
    PARAGRAPH = "paragraph"
    LIST_ITEM = "list_item"
    TABLE_ROW = "table_row"
    CODE = "code"
    QUOTE = "quote"
    CAPTION = "caption"
    TEXT = "text"


@dataclass(slots=True)
class BlockFeatures:
    """Per-block features of seed 002, raw counts and page-normalised densities."""

    text_length: int = 0
    word_count: int = 0
    link_count: int = 0
    link_text_length: int = 0
    image_count: int = 0
    image_size: int = 0
    interaction_count: int = 0
    interaction_size: int = 0
    form_count: int = 0
    form_size: int = 0
    email_count: int = 0
    punctuation_count: int = 0
    depth: int = 0
    position: float = 0.0
    nltd: float = 0.0
    natd: float = 0.0
    pmd: float = 0.0
    noise_score: float = 0.0
    content_weight: float = 0.0


@dataclass(slots=True)
class Block:
    """One segment of a page: its DOM path, text, features and decision."""

    position: int
    path: str
    tag: str
    kind: BlockKind
    text: str
    features: BlockFeatures = field(default_factory=BlockFeatures)
    label: Label = Label.NOISE
    score: float = 0.0
    reason: str = ""

    @property
    def hash(self) -> str:
        """The block's text hash (`extraction.hashing.text_hash`)."""
        return text_hash(self.text)

    @property
    def is_content(self) -> bool:
        """True when the block is labelled informative."""
        return self.label is Label.CONTENT


@dataclass(slots=True)
class ExtractionResult:
    """What `extract` returns for one page."""

    url: str | None
    title: str
    blocks: list[Block]
    encoding: str = "utf-8"
    reason: str = ""
    hrefs: list[str] = field(default_factory=list)
    base_url: str | None = None
    refresh_url: str | None = None

    @property
    def links(self) -> list[str]:
        """Absolute, normalised http(s) URLs of the page's links, each once, in page order.

        Resolved on demand: extraction alone (an index, an evaluation) does not pay for URL handling.
        """
        return resolve_links(self.hrefs, self.base_url)

    @property
    def content_blocks(self) -> list[Block]:
        """The informative blocks, in page order."""
        return [block for block in self.blocks if block.label is Label.CONTENT]

    @property
    def text(self) -> str:
        """The main content as plain text, one line per block."""
        return "\n".join(block.text for block in self.blocks if block.label is Label.CONTENT)

    @property
    def visible_text(self) -> str:
        """All visible text of the page after cleaning, one line per block."""
        return "\n".join(block.text for block in self.blocks)
