"""`SiteModel`: one cluster's learned template, revising the single-page labels of `extract`.

Three cross-page rules, each decision with a reason a person can read:
- Repeated: a content block whose exact text, or whose shape (same place, same text up to digits and
  dates), is on at least the frequent share of the cluster's pages is template (seed 001's inverse block
  document frequency); a site-wide disclaimer inside the article area goes the same way.
- Template slot (seed 004's style tree, `slots`): a content block outside the cluster's content region,
  in a place of the template that holds the same few texts from page to page, is template.
- Redundant (seed 004's InfoDiscoverer, `entropy`; off unless `site_drop_redundant`): a content block
  outside the content region whose terms are spread over the cluster's pages (Lin & Ho's block entropy
  at or above the page's greedy threshold) is template even when its text changes (related posts, a
  changing menu).
- Section heads: a heading or a definition's term, however often repeated, is content when the block it
  heads is content and shares its container (a manual's "OPTIONS", an option's "-v").
- New in the content region (the cluster's, or the page's own: `slots.page_region`): a block the single
  page set aside (too short, a caption, a lone link) that is not repeated and sits in the content region,
  or directly in the element that holds it without being link text (a page's intro before the
  sub-sections that make the region), in a place whose text is new on most pages, is content, unless it
  is mostly link text outside the container of the page's own content (a teaser card of another page) or
  a heading restating the page's headline (a reply's "Re: <topic>");
  so is the page's headline, the h1 repeating the title, in a place holding a new heading on every page.
- A heading restating the page's headline is noise wherever it is (`Rule.PAGE_TITLE`): a thread's replies
  may be content on the page itself, their subject lines say nothing new.
Guardrails: tables, code and list items of the content are dropped only for an exact repeat (a shape
match says little about rows of numbers or code lines) that the page itself does not repeat (an index's
"module" under each entry is a field of its records, and records are what such a page is for), and a
revision that would leave the page without content is not applied.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from extraction.result import RULE_TEXT, Block, BlockFeatures, BlockKind, Label, Rule
from extraction.scoring import is_headline, is_pager, same_text
from extraction.site_models.config import SiteModelConfig
from extraction.site_models.entropy import TermEntropy, greedy_threshold, terms
from extraction.site_models.frequency import BlockFrequency, BlockKey, block_key
from extraction.site_models.slots import (
    SEPARATOR,
    TemplateSlots,
    container_of,
    content_container,
    in_region,
    page_region,
)

# A stored block keeps no features and the model reads none: one shared empty record, not one per block.
_NO_FEATURES = BlockFeatures()
_KINDS = {kind.value: kind for kind in BlockKind}
_LABELS = {label.value: label for label in Label}
_RULES = {rule.value: rule for rule in Rule}
# Content structures whose lines look alike from page to page (numbers, code) without being template.
_PROTECTED = frozenset({BlockKind.TABLE_ROW, BlockKind.CODE, BlockKind.LIST_ITEM})


# Not frozen: a decision per block per revision, and a frozen dataclass's __init__ costs several times more.
@dataclass(slots=True)
class Decision:
    """The revised label of one block, the rule that decided it and why in words, and on how many of the
    cluster's pages it (or its shape) is."""

    position: int
    label: Label
    rule: Rule
    reason: str
    pages: int


# A label, the rule that gave it, and the reason in words.
Verdict = tuple[Label, Rule, str]


@dataclass(slots=True, frozen=True)
class _Context:
    """What one revision of a page needs from the model, computed once per page."""

    frequent: int
    region: str | None
    # Where this page's single-page content lies when the cluster's region does not hold it (a page of
    # another kind in the cluster).
    own_region: str | None
    # The container of this page's single-page content: a link block is restored only inside it.
    container: str | None
    of: str
    title: str
    # The page's own heading: the longest heading that its title holds or that holds its title (lower case).
    headline: str
    # The blocks of the page's header (the container of its headline, when that lies outside the region)
    # that follow a section label there: a manual's "NAME" over what the command does.
    header_sections: frozenset[int]

    def echoes_headline(self, block: Block) -> bool:
        """True for a heading that restates the page's headline with more around it: a reply's "Re: <title>",
        a comments heading's "3 thoughts on <title>". Only a heading: the text of a reference page names
        its subject ("ALTER TABLE changes ...") and is content."""
        text = block.text
        return (
            block.kind is BlockKind.HEADING
            and bool(self.headline)
            and len(text) > len(self.headline)
            and self.headline in text.lower()
        )

    def in_region(self, slot: str) -> bool:
        """True when the slot lies in the cluster's content region or in the page's own."""
        return in_region(slot, self.region) or in_region(slot, self.own_region)

    def in_own_content(self, slot: str) -> bool:
        """True when the slot lies in the container of the page's own single-page content, and that container
        holds the cluster's region as a child: the page's content spills just above the region (a book's
        section, its intro and side notes beside its sub-sections). A container further up holds the
        layout's menus too."""
        container, region = self.container, self.region
        return (
            container is not None
            and region is not None
            and in_region(region, container)
            and region.count("/") - container.count("/") <= 1
            and in_region(slot, container)
        )

    def beside_region(self, slot: str) -> bool:
        """True for a slot directly in the element that holds the region (`region` is its sub-sections): a
        manual page's intro before them, which the single page leaves out when it takes the longest one."""
        return (
            self.region is not None
            and SEPARATOR in self.region
            and container_of(slot) == container_of(self.region)
        )

    def in_header_section(self, block: Block) -> bool:
        """True for a block of the page's header that a section label heads (`_header_sections`)."""
        return block.position in self.header_sections

    def holds_link(self, slot: str) -> bool:
        """Whether a teaser (`_teaser`) in the slot may be content: inside the page's own content, or
        anywhere in the region of a page that has none of its own. Elsewhere it is a card for another
        page, however new on this one: a region holds such cards where they are some page's content."""
        return self.container is None or in_region(slot, self.container)


@dataclass(slots=True)
class SiteModel:
    """Block frequencies, template slots and term statistics of one cluster of pages."""

    config: SiteModelConfig = field(default_factory=SiteModelConfig)
    frequency: BlockFrequency = field(default_factory=BlockFrequency)
    slots: TemplateSlots = field(default_factory=TemplateSlots)
    terms: TermEntropy = field(default_factory=TermEntropy)

    @property
    def pages(self) -> int:
        """How many pages the model has seen."""
        return self.frequency.pages

    @property
    def ready(self) -> bool:
        """True once the model has seen `site_min_pages` pages: fewer cannot tell template from chance."""
        return self.pages >= self.config.min_pages

    def keys(self, blocks: Sequence[Block]) -> list[BlockKey]:
        """The counters' keys of each block (a caller that stores them passes them back in)."""
        return [block_key(block, self.config.shape_max_chars) for block in blocks]

    def observe(self, blocks: Sequence[Block], keys: Sequence[BlockKey] | None = None) -> None:
        """Learn from one page of the cluster (every block, whatever its label)."""
        keys = self.keys(blocks) if keys is None else keys
        shapes = self.frequency.observe(keys)
        self.slots.observe(((block, key.slot) for block, key in zip(blocks, keys, strict=True)), shapes)
        if self.config.drop_redundant and self.terms.pages < self.config.entropy_pages:
            self.terms.observe(blocks)

    def revise(
        self, blocks: Sequence[Block], title: str = "", keys: Sequence[BlockKey] | None = None
    ) -> list[Decision]:
        """One decision per block: repeated blocks become noise, new blocks of the content region content.

        When every content block would go, the single-page labels stand and each decision says so: a
        page is never emptied by its template.
        """
        keys = self.keys(blocks) if keys is None else keys
        pages_of = self.frequency.pages_of(keys)
        context = self._context(title, blocks, keys, pages_of)
        fields = _record_fields(blocks, keys)
        decisions = [
            self._decide(block, key, pages, key.text in fields, context)
            for block, key, pages in zip(blocks, keys, pages_of, strict=True)
        ]
        if self.config.drop_redundant:
            self._drop_redundant(blocks, keys, decisions, context)
        _keep_section_heads(blocks, keys, decisions, context)
        had_content = any(block.is_content for block in blocks)
        if had_content and not any(decision.label is Label.CONTENT for decision in decisions):
            return [self._keep(block, decision) for block, decision in zip(blocks, decisions, strict=True)]
        return decisions

    def apply(self, blocks: Sequence[Block], title: str = "", keys: Sequence[BlockKey] | None = None) -> None:
        """Relabel the blocks in place with `revise` (nothing happens before the model is `ready`)."""
        if not self.ready:
            return
        for block, decision in zip(blocks, self.revise(blocks, title, keys), strict=True):
            block.label, block.rule, block.reason = decision.label, decision.rule, decision.reason

    def _context(
        self,
        title: str,
        blocks: Sequence[Block],
        keys: Sequence[BlockKey],
        pages_of: Sequence[tuple[int, int]],
    ) -> _Context:
        config = self.config
        frequent = self.frequency.threshold(config.frequent_share, config.frequent_min_pages)
        content = [
            (key.slot, len(block.text)) for block, key in zip(blocks, keys, strict=True) if block.is_content
        ]
        region = self.slots.region(config.region_share)
        own = page_region(content, config.region_share, region)
        container = content_container([slot for slot, _ in content])
        of = f"of {self.pages} pages of this cluster"
        headline = _page_headline(blocks, title)
        sections = _header_sections(blocks, keys, pages_of, frequent, title, region)
        return _Context(frequent, region, own, container, of, title, headline, sections)

    def _decide(
        self, block: Block, key: BlockKey, pages_of: tuple[int, int], record_field: bool, context: _Context
    ) -> Decision:
        """The block's decision, from on how many pages its text and its shape appear (`pages_of`)."""
        text_pages, shape_pages = pages_of
        pages = max(text_pages, shape_pages)
        verdict: Verdict = (block.label, block.rule, block.reason)
        if block.label is Label.CONTENT:
            # Most blocks are content neither repeated nor out of place: no rule to call.
            if context.echoes_headline(block):
                verdict = (Label.NOISE, Rule.PAGE_TITLE, "restates the page's headline")
            elif pages >= context.frequent:
                verdict = self._repeated(block, text_pages, shape_pages, record_field, context)
            if verdict[0] is Label.CONTENT and not context.in_region(key.slot):
                verdict = self._template_slot(block, key)
        else:
            # A menu that lists every page puts the headline's text on each of them: its place holds it
            # on this page only.
            seen = shape_pages if is_headline(block, context.title) else pages
            if seen < context.frequent:
                verdict = self._new_on_page(block, key, seen, context)
        return Decision(block.position, *verdict, pages)

    def _repeated(
        self, block: Block, text_pages: int, shape_pages: int, record_field: bool, context: _Context
    ) -> Verdict:
        """Noise when the block's text or shape is on the frequent share of the cluster's pages."""
        if text_pages >= context.frequent and not (record_field and block.kind in _PROTECTED):
            return Label.NOISE, Rule.REPEATED_TEXT, f"same text on {text_pages} {context.of}"
        if shape_pages >= context.frequent and block.kind not in _PROTECTED:
            reason = f"same block, changing digits, on {shape_pages} {context.of}"
            return Label.NOISE, Rule.REPEATED_SHAPE, reason
        return block.label, block.rule, block.reason

    def _template_slot(self, block: Block, key: BlockKey) -> Verdict:
        """Noise when the block's place in the template holds the same few texts from page to page."""
        importance = self.slots.importance(key.slot)
        if importance < self.config.template_importance:
            texts = self.slots.distinct(key.slot)
            reason = f"outside the content region, where {texts} texts recur ({importance:.2f} new)"
            return Label.NOISE, Rule.TEMPLATE_SLOT, reason
        return block.label, block.rule, block.reason

    def _new_on_page(self, block: Block, key: BlockKey, pages: int, context: _Context) -> Verdict:
        """Content when a block set aside by the page is new on it and sits where content lives."""
        # Stored before, its noise text since purged: nothing to restore. A restatement of the headline says
        # nothing new, however new its text is on the page; nor does a pager, however new its titles. A
        # panel the page left closed outside its area (a FAQ module after the article) is not what the
        # region, drawn by what the cluster's pages show, speaks for.
        if not block.text or context.echoes_headline(block) or _pager(block) or block.rule is Rule.VEILED:
            return block.label, block.rule, block.reason
        importance = self.slots.importance(key.slot)
        config = self.config
        if (
            (
                context.in_region(key.slot)
                or _named_aside_in_own_content(block, key, context)
                or context.in_header_section(block)
                or (context.beside_region(key.slot) and block.rule is not Rule.LINK_DENSE)
            )
            and importance >= config.restore_importance
            and (not _teaser(block) or context.holds_link(key.slot))
        ):
            reason = f"in the content region, not template (on {pages} {context.of})"
            return Label.CONTENT, Rule.RESTORED, reason
        if (
            config.keep_headline
            and is_headline(block, context.title)
            and importance >= config.headline_importance
        ):
            reason = f"the page's headline (its place holds a new heading, {importance:.2f})"
            return Label.CONTENT, Rule.HEADLINE, reason
        return block.label, block.rule, block.reason

    def _drop_redundant(
        self, blocks: Sequence[Block], keys: Sequence[BlockKey], decisions: list[Decision], context: _Context
    ) -> None:
        """Relabel as noise, in `decisions`, the page's content blocks outside the content region whose
        terms recur across the cluster (Lin & Ho: block entropy at or above the page's threshold).

        Headings, tables, code and lists are left alone: a title or a record names what the site is
        about, so its words are everywhere on the site without being template.
        """
        candidates = [
            index
            for index, (block, key, decision) in enumerate(zip(blocks, keys, decisions, strict=True))
            if block.is_content
            and decision.label is Label.CONTENT
            and block.kind not in _PROTECTED
            and block.kind is not BlockKind.HEADING
            and not in_region(key.slot, context.region)
        ]
        if not candidates or self.terms.pages < 2:
            return
        scored = self._block_entropies(blocks)
        config = self.config
        threshold = greedy_threshold(
            [entry for entry in scored if entry is not None],
            config.entropy_step,
            config.entropy_flat_share,
            config.entropy_floor,
        )
        for index in candidates:
            entry = scored[index]
            if entry is not None and entry[0] >= threshold:
                entropy = entry[0]
                reason = (
                    f"outside the content region, its words recur over the cluster (entropy {entropy:.2f})"
                )
                decisions[index] = Decision(
                    blocks[index].position, Label.NOISE, Rule.REDUNDANT, reason, decisions[index].pages
                )

    def _block_entropies(self, blocks: Sequence[Block]) -> list[tuple[float, list[str]] | None]:
        """Each block's entropy and terms (None for a block without terms): the page's threshold is
        computed from them and the candidate blocks are judged by them."""
        scored: list[tuple[float, list[str]] | None] = []
        for block in blocks:
            features = terms(block.text)
            scored.append((self.terms.mean_entropy(set(features)), features) if features else None)
        return scored

    def _keep(self, block: Block, decision: Decision) -> Decision:
        if block.label is decision.label:
            return decision
        reason = f"{block.reason} (kept: {decision.reason}, but dropping it would leave the page empty)"
        return Decision(block.position, block.label, Rule.KEPT, reason, decision.pages)


def stored_block(position: int, slot: str, tag: str, kind: str, text: str, label: str, rule: int) -> Block:
    """A block as a crawl stores it (kind, label and rule as their values; the slot as its path), for the
    model; its reason is its rule's sentence (a store keeps no figures)."""
    decided_by = _RULES.get(rule, Rule.UNJUDGED)
    return Block(
        position,
        slot,
        tag,
        _KINDS.get(kind, BlockKind.TEXT),
        text,
        _NO_FEATURES,
        _LABELS[label],
        reason=RULE_TEXT[decided_by],
        rule=decided_by,
    )


def _keep_section_heads(
    blocks: Sequence[Block], keys: Sequence[BlockKey], decisions: list[Decision], context: _Context
) -> None:
    """Relabel as content, in `decisions`, each heading or definition term that heads content of the page:
    the first block after it (other heads aside) is content in the cluster's content region, and lies in
    the head's own container. A manual's "OPTIONS" and its "-v" recur on every page and may sit beside the
    region that holds the sections' text, and still name what follows; a "Related posts" heading followed
    by noise stays noise, and so does a restatement of the page's headline."""
    following: int | None = None  # the index of the nearest block after this one that is not a head
    for index in range(len(blocks) - 1, -1, -1):
        block, key, decision = blocks[index], keys[index], decisions[index]
        if not _head(block):
            following = index if block.text else following
            continue
        if (
            decision.label is Label.NOISE
            and not context.echoes_headline(block)
            and following is not None
            and decisions[following].label is Label.CONTENT
            and (
                in_region(keys[following].slot, context.region)
                or context.in_header_section(blocks[following])
            )
            and in_region(keys[following].slot, container_of(key.slot))
        ):
            reason = f"heads content of the page (block {blocks[following].position}) in its container"
            decisions[index] = Decision(
                block.position, Label.CONTENT, Rule.SECTION_HEAD, reason, decision.pages
            )


def _head(block: Block) -> bool:
    """A heading, or the term of a definition list."""
    return block.kind is BlockKind.HEADING or block.tag == "dt"


def _named_aside_in_own_content(block: Block, key: BlockKey, context: _Context) -> bool:
    """True for a block the single page set aside for its container's name alone (a DocBook `sidebar`, a
    side note in the chapter) inside the container of the page's own content: where the cluster's region
    is narrower than the page's content (a book's sub-sections), the name is the only evidence against it."""
    return block.rule is Rule.TEMPLATE_CONTAINER and context.in_own_content(key.slot)


def _pager(block: Block) -> bool:
    """True for link text framed by an arrow: the way to the previous and next pages (`is_pager`)."""
    return block.rule is Rule.LINK_DENSE and is_pager(block.text)


def _teaser(block: Block) -> bool:
    """True for a heading or paragraph the single page set aside as link text: a card for another page. A
    list of links is not one: it is the table of contents a hub page holds as its content."""
    return block.rule is Rule.LINK_DENSE and block.kind is not BlockKind.LIST_ITEM


def _page_headline(blocks: Sequence[Block], title: str) -> str:
    """The text of the page's own heading, in lower case: the longest heading that repeats its title ("" when
    none does). The longest, because a title also holds the site's name, often a heading of its own."""
    headings = [block.text.strip() for block in blocks if block.kind is BlockKind.HEADING]
    repeating = [text for text in headings if same_text(text, title)]
    return max(repeating, key=len).lower() if repeating else ""


def _header_sections(
    blocks: Sequence[Block],
    keys: Sequence[BlockKey],
    pages_of: Sequence[tuple[int, int]],
    frequent: int,
    title: str,
    region: str | None,
) -> frozenset[int]:
    """The positions of the blocks of the page's header that a section label heads: where the page's headline
    (the first h1 repeating its title) lies outside the cluster's region, the blocks in the headline's
    container that come after a heading there whose text is on `frequent` pages of the cluster (`pages_of`:
    a manual's "NAME", "Summary"). What follows the headline directly (a byline, a language bar) or a
    heading of the page's own (a subtitle) is not one."""
    if not title:
        return frozenset()
    header: str | None = None
    sections: set[int] = set()
    labelled = False
    for block, key, (text_pages, _) in zip(blocks, keys, pages_of, strict=True):
        if header is None:
            if is_headline(block, title):
                if in_region(key.slot, region):
                    return frozenset()
                header = container_of(key.slot)
            continue
        if not in_region(key.slot, header):
            continue
        if block.kind is BlockKind.HEADING:
            labelled = text_pages >= frequent
        elif labelled:
            sections.add(block.position)
    return frozenset(sections)


def _record_fields(blocks: Sequence[Block], keys: Sequence[BlockKey]) -> set[str]:
    """Text hashes that several content blocks of the page share (by hash: a re-clean reads no content
    text)."""
    counts = Counter(key.text for block, key in zip(blocks, keys, strict=True) if block.is_content)
    return {text for text, count in counts.items() if count > 1}
