"""Result types of an extraction: blocks, their labels and the page-level result."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum

from extraction.hashing import text_hash
from extraction.links import normalise_url, resolve_links


class Label(Enum):
    """Whether a block belongs to the page's informative content."""

    CONTENT = "content"
    NOISE = "noise"


class Rule(IntEnum):
    """The rule that decided a block's label: data, so that a store keeps a small code, not a sentence.

    The values are stored codes (an IntEnum: a rule is its code, below 32: five bits of a stored block)
    and never change meaning; a new rule takes a new number. `RULE_LABELS`
    gives the label a rule implies (None: either label, the block keeps the one it had), `RULE_TEXT` the
    sentence a view shows for it. A block's `reason` says the same with the figures of its page.
    """

    UNJUDGED = 0
    # Single-page extraction (`scoring`, `revise`): 0 to 15.
    CONTENT_AREA = 1
    OUTSIDE_AREA = 2
    PAGE_TITLE = 3
    CAPTION = 4
    NOISE_SCORE = 5
    LINK_DENSE = 6
    TEMPLATE_CONTAINER = 7
    RESPONSIVE_COPY = 8
    STRANDED = 9
    VEILED = 10
    # A cluster's site model (`site_models.model`): 16 to 30.
    REPEATED_TEXT = 16
    REPEATED_SHAPE = 17
    TEMPLATE_SLOT = 18
    REDUNDANT = 19
    RESTORED = 20
    HEADLINE = 21
    KEPT = 22
    SECTION_HEAD = 23
    # One of the seed papers' methods (`methods`): its own reason says which step decided.
    METHOD = 31


RULE_LABELS: dict[Rule, Label | None] = {
    Rule.UNJUDGED: Label.NOISE,
    Rule.CONTENT_AREA: Label.CONTENT,
    Rule.OUTSIDE_AREA: Label.NOISE,
    Rule.PAGE_TITLE: Label.NOISE,
    Rule.CAPTION: Label.NOISE,
    Rule.NOISE_SCORE: Label.NOISE,
    Rule.LINK_DENSE: Label.NOISE,
    Rule.TEMPLATE_CONTAINER: Label.NOISE,
    Rule.RESPONSIVE_COPY: Label.NOISE,
    Rule.STRANDED: Label.NOISE,
    Rule.VEILED: Label.NOISE,
    Rule.REPEATED_TEXT: Label.NOISE,
    Rule.REPEATED_SHAPE: Label.NOISE,
    Rule.TEMPLATE_SLOT: Label.NOISE,
    Rule.REDUNDANT: Label.NOISE,
    Rule.RESTORED: Label.CONTENT,
    Rule.HEADLINE: Label.CONTENT,
    Rule.KEPT: None,
    Rule.SECTION_HEAD: Label.CONTENT,
    Rule.METHOD: None,
}
RULE_TEXT: dict[Rule, str] = {
    Rule.UNJUDGED: "not judged",
    Rule.CONTENT_AREA: "in the content area",
    Rule.OUTSIDE_AREA: "outside the content area",
    Rule.PAGE_TITLE: "the page title",
    Rule.CAPTION: "a figure caption",
    Rule.NOISE_SCORE: "its noise score is over the threshold",
    Rule.LINK_DENSE: "mostly link text",
    Rule.TEMPLATE_CONTAINER: "inside a container named as template (sidebar, footer, comments, ...)",
    Rule.RESPONSIVE_COPY: "repeats a block of another container (a responsive copy)",
    Rule.STRANDED: "short text between noise blocks",
    Rule.VEILED: "outside the content area, hidden from screen readers",
    Rule.REPEATED_TEXT: "the same text is on most pages of its cluster",
    Rule.REPEATED_SHAPE: "the same block, digits and dates aside, is on most pages of its cluster",
    Rule.TEMPLATE_SLOT: "outside the content region, in a place of the template whose texts recur",
    Rule.REDUNDANT: "outside the content region, its words recur over the cluster",
    Rule.RESTORED: "new on its page, in the content region of its cluster",
    Rule.HEADLINE: "the page's headline",
    Rule.KEPT: "as the single page judged it: the cluster's rules would have left the page empty",
    Rule.SECTION_HEAD: "heads a section of the page's content (a heading, a definition's term)",
    Rule.METHOD: "labelled by the crawl's extraction method",
}


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


@dataclass(slots=True, init=False)
class BlockFeatures:
    """Per-block features of seed 002, raw counts and page-normalised densities.

    `__init__` takes the counts, which segmentation gives; the densities and scores start at 0 and are
    `extraction.features`' to compute, from the page's totals. It is written out, not generated: compiled
    (setup.py), a generated one runs as interpreted code setting each field through a descriptor, 5x
    slower on a hot constructor. Every parameter has a default: compiled, pickle and copy call
    `__init__()` before restoring fields.
    """

    text_length: int
    word_count: int
    link_count: int
    link_text_length: int
    image_count: int
    image_size: int
    interaction_count: int
    interaction_size: int
    form_count: int
    form_size: int
    email_count: int
    punctuation_count: int
    depth: int
    position: float
    """The block's place in the page, from 0 (first) towards 1."""
    nltd: float
    """Link text density: the share of the block's text that is anchor text."""
    natd: float
    """Non-anchor text density: the block's share of the page's text outside links."""
    pmd: float
    """Punctuation mark density: the block's share of the page's punctuation."""
    noise_score: float
    """Seed 002's F, the weighted noise features (e-mails, links, interaction elements, forms)."""
    content_weight: float
    """Seed 002's (1 - NLTD) + NATD + beta * PMD, less the noise-word penalty."""

    def __init__(  # noqa: PLR0913 (one parameter per count)
        self, text_length: int = 0, word_count: int = 0, link_count: int = 0, link_text_length: int = 0,
        image_count: int = 0, image_size: int = 0, interaction_count: int = 0, interaction_size: int = 0,
        form_count: int = 0, form_size: int = 0, email_count: int = 0, punctuation_count: int = 0,
        depth: int = 0,
    ) -> None:  # fmt: skip
        self.position = self.nltd = self.natd = self.pmd = self.noise_score = self.content_weight = 0.0
        self.text_length = text_length
        self.word_count = word_count
        self.link_count = link_count
        self.link_text_length = link_text_length
        self.image_count = image_count
        self.image_size = image_size
        self.interaction_count = interaction_count
        self.interaction_size = interaction_size
        self.form_count = form_count
        self.form_size = form_size
        self.email_count = email_count
        self.punctuation_count = punctuation_count
        self.depth = depth


@dataclass(slots=True, init=False)
class Block:
    """One segment of a page: its DOM path, text, features and decision: its label, the rule that decided
    it, and the reason in words (`__init__` as BlockFeatures')."""

    position: int
    path: str
    tag: str
    kind: BlockKind
    text: str
    features: BlockFeatures
    label: Label
    score: float
    reason: str
    rule: Rule

    def __init__(  # noqa: PLR0913 (one parameter per field, as the generated one)
        self,
        position: int = 0,
        path: str = "",
        tag: str = "",
        kind: BlockKind = BlockKind.TEXT,
        text: str = "",
        features: BlockFeatures | None = None,
        label: Label = Label.NOISE,
        score: float = 0.0,
        reason: str = "",
        rule: Rule = Rule.UNJUDGED,
    ) -> None:
        self.position = position
        self.path = path
        self.tag = tag
        self.kind = kind
        self.text = text
        self.features = BlockFeatures() if features is None else features
        self.label = label
        self.score = score
        self.reason = reason
        self.rule = rule

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
    # Per href, the position of the block it sits in (-1: none, the page has no block), and its anchor text.
    href_blocks: list[int] = field(default_factory=list)
    href_texts: list[str] = field(default_factory=list)
    base_url: str | None = None
    refresh_url: str | None = None
    # The page's `<link rel="canonical">`, resolved: a crawl stores a page once when its canonical URL
    # holds the same content.
    canonical_url: str | None = None
    # U+FFFD characters the decode put in for bytes invalid in the page's encoding (a UTF-8 page with a
    # few bad bytes is read as UTF-8, as browsers read it, not as another encoding).
    decode_replacements: int = 0

    @property
    def links(self) -> list[str]:
        """Absolute, normalised http(s) URLs of the page's links, each once, in page order.

        Resolved on demand: extraction alone (an index, an evaluation) does not pay for URL handling.
        """
        return resolve_links(self.hrefs, self.base_url)

    def link_blocks(self) -> list[tuple[str, int, str]]:
        """Each link of `links` with the position of the block it first sits in (-1 when unknown) and the
        text of its anchors (each distinct one once): where a link stands on the page and what it says, for
        a crawl that weighs links."""
        count = len(self.hrefs)
        known = len(self.href_blocks) == count
        with_texts = len(self.href_texts) == count
        resolved: dict[str, str | None] = {}
        found: dict[str, tuple[int, list[str]]] = {}
        for index, href in enumerate(self.hrefs):
            if href not in resolved:
                resolved[href] = normalise_url(href, self.base_url)
            url = resolved[href]
            if url is None:
                continue
            _, texts = found.setdefault(url, (self.href_blocks[index] if known else -1, []))
            text = self.href_texts[index] if with_texts else ""
            if text and text not in texts:
                texts.append(text)
        return [(url, block, " ".join(texts)) for url, (block, texts) in found.items()]

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
