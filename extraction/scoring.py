"""Locate the content area and label every block (seed 001 steps 3 and 4, seed 002 weights).

Each qualified block votes for its nearest ancestors (decaying with distance); the node with the best
vote, discounted by its link-text density and by what its tag, class and id say, is the optimal content
node, unless it lies apart from the page's headline while the headline's part of the page holds prose
(a consent dialog, a footnote list). From there the area widens while parents add mostly good text, and a
page whose prose is spread over many sections takes its `<main>` or body; a hub page (a listing with next to
no prose) lets its link entries vote. A template name on a node holding most of the page is the layout's.
`revise` then adds qualified siblings and repeated records (seed 001, step 5).
Inside the area a block is content unless it is the title, a caption, link-dominated, a responsive
copy, or sits in a sub-container named like a template part.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field

from extraction.config import ExtractionConfig
from extraction.result import Block, BlockKind, Label, Rule
from extraction.segment import HEADING_TAGS, Node, Page

# Every alternative starts with a letter, so the regex engine skips positions whose character starts none of
# them; a leading `\b` would make it try every alternative at every position. `a(?<=\ba)` is `\ba`;
# `a(?<![a-z0-9]a)` also takes an `a` after an underscore (`top_ad-slot`), not one inside a word (`pad-`,
# `load-`, `lead-`, `thread-`).
_NEGATIVE_NAMES = re.compile(
    r"comment|disqus|reviews|sidebar|side-bar|related|recommend|share|sharing|social|sponsor|promo"
    r"|advert|a(?<=\ba)ds?\b|a(?<![a-z0-9]a)d-|banner|breadcrumb|pagination|pager|footer|masthead|menu|navbar|n(?<=\bn)av\b"
    r"|subscribe|newsletter|signup|cookie|gdpr|popup|modal|byline|submitted|author-?bio|tags?\b|taglist|meta-?data"
    r"|more-?stories|read-?more|outbrain|taboola|toolbar|skip-?(?:link|to|nav|main|content)|sr-only|screen-reader|visually-?hidden"
)
_POSITIVE_NAMES = re.compile(
    r"article|content|entry|hentry|main|post|story|text|body|blog|prose|markdown|rich-?text"
)
_NEGATIVE_TAGS = frozenset({"nav", "aside", "footer", "header", "form", "menu"})
_POSITIVE_TAGS = frozenset({"article", "main"})
# A section's title; an h1 titles the page, and the content ends with the container that holds it.
_SECTION_TITLES = (HEADING_TAGS - {"h1"}) | {"thead", "caption"}
_CONTAINER_TAGS = frozenset(
    {"div", "section", "article", "main", "td", "body", "center", "blockquote", "form"}
)
_WORD = re.compile(r"\w+")
# How a teaser's excerpt of another page ends: cut off mid-thought ("... may soon...", "[…]").
_EXCERPT_ENDS = ("...", "\u2026", "...]", "\u2026]", "...)", "\u2026)")
# The ids and classes of a block path's steps ("div#main.wide/p" -> "div/p").
_PATH_NAMES = re.compile(r"[#.][^/]*")
# The arrows a pager's links open or close with.
_PAGER_OPENINGS = ("\u2039", "\u00ab", "\u2190")
_PAGER_CLOSINGS = ("\u203a", "\u00bb", "\u2192")
_LISTISH = frozenset({BlockKind.LIST_ITEM, BlockKind.TABLE_ROW})


@dataclass(slots=True)
class ContentArea:
    """The optimal content node, the nodes that joined it, and the per-node evidence behind them."""

    best: int
    root: int
    scores: dict[int, float]
    hints: NodeHints
    good: list[float]
    hub: bool = False
    members: set[int] = field(default_factory=set)
    # When the best node is named as template yet holds most of the page's prose (a thread's replies), the
    # record key (tag and first class) of its units, the replies; else "".
    thread_units: str = ""
    # The top-scoring node the page's headline turned the area away from (`_near_headline`) when it holds
    # teaser excerpts, else -1: a related-posts box beside the article, which must not join it however
    # like the article its records look.
    passed_over: int = -1


def node_hint(node: Node, config: ExtractionConfig) -> float:
    """Multiplier from the node's tag, class and id: above 1 for content-like names, below for template.

    A node named both ways ("widget-post-content", `<header class="post-content">`) stays neutral, as
    readability keeps such nodes among its candidates.
    """
    return _folded_name_hint(node.tag, node.names, config.class_hint_weight)


# Per-page ids in names (post-4711, postid-4711) would give the caches an entry per page, tens of MB over a
# long crawl; no pattern holds a digit and a digit for a digit moves no word boundary, so no answer changes.
_FOLD_DIGITS = str.maketrans("123456789", "000000000")


def _folded_name_hint(tag: str, names: str, weight: float) -> float:
    return _name_hint(tag, names.translate(_FOLD_DIGITS), weight)


@functools.lru_cache(maxsize=1 << 16)
def _name_hint(tag: str, names: str, weight: float) -> float:
    # Cached across pages: the pages of a site, and sites built on one framework, repeat their names.
    negative = tag in _NEGATIVE_TAGS
    positive = tag in _POSITIVE_TAGS
    for token in names.split():
        token_negative, token_positive = _token_polarity(token)
        negative |= token_negative
        positive |= token_positive
    if negative and not positive:
        return 1.0 - 2 * weight
    if positive and not negative:
        return 1.0 + weight
    return 1.0


@functools.lru_cache(maxsize=1 << 16)
def _token_polarity(token: str) -> tuple[bool, bool]:
    # One class or id at a time: tokens (menu-item, col-md-8, entry-content) recur across sites far more
    # than whole class lists, so most lookups are cache hits and the regexes see short strings.
    return _NEGATIVE_NAMES.search(token) is not None, _POSITIVE_NAMES.search(token) is not None


class NodeHints:
    """`node_hint` of each node and the template penalty it inherits, computed only for nodes consulted.

    Most nodes of a page (menu entries, footer links) never vote nor hold good text, so their names are
    never matched against the hint patterns.
    """

    __slots__ = (
        "_config",
        "_contexts",
        "_hints",
        "_layout_chars",
        "_nodes",
        "_page",
        "_prose",
        "_weight",
        "silent",
        "teasers",
    )

    def __init__(self, page: Page, config: ExtractionConfig) -> None:
        self._page = page
        self._config = config
        self._nodes = nodes = page.nodes
        self._weight = config.class_hint_weight
        self._layout_chars = config.layout_text_share * nodes[0].text_chars if nodes else 0.0
        # Each node's good text, unweighted, computed once a template-named node holds most of the page's
        # text (most pages have none): a mega-menu holds most of a thin page's text, not its prose, and
        # comments may hold most of an article's prose, not of its page.
        self._prose: list[float] = []
        self._hints = [-1.0] * len(nodes)
        self._contexts = [-1.0] * len(nodes)
        # Teaser excerpts neither vote nor count as prose anywhere (`excerpts`), nor do veiled blocks
        # (`Page.veiled`): inside the content area they are content, but they do not choose it.
        self.teasers = excerpts(page.blocks, config)
        self.silent = self.teasers | page.veiled if page.veiled else self.teasers

    def hint(self, node_id: int) -> float:
        """The node's own hint (see `node_hint`); neutral on a node that holds most of the page's prose, which
        is the layout whatever its name says (`ExtractionConfig.layout_text_share`)."""
        hint = self._hints[node_id]
        if hint < 0:
            node = self._nodes[node_id]
            hint = _folded_name_hint(node.tag, node.names, self._weight)
            if hint < 1.0 and self._holds_the_page(node_id):
                hint = 1.0
            self._hints[node_id] = hint
        return hint

    def named_as_template(self, node_id: int) -> bool:
        """Whether the node's names say template, even when it holds the page (a thread's comments)."""
        node = self._nodes[node_id]
        return _folded_name_hint(node.tag, node.names, self._weight) < 1.0

    def _holds_the_page(self, node_id: int) -> bool:
        if self._nodes[node_id].text_chars < self._layout_chars:
            return False
        if not self._prose:
            self._prose = _good_text(self._page, self._config, self.silent)
        prose = self._prose
        return prose[node_id] >= max(self._config.layout_text_share * prose[0], 1.0)

    def context(self, node_id: int) -> float:
        """The product of the template penalties of the node and its ancestors (content names do not
        inherit: a `post` wrapper says nothing of the comments inside it)."""
        chain = []
        current = node_id
        while current >= 0 and self._contexts[current] < 0:
            chain.append(current)
            current = self._nodes[current].parent
        inherited = self._contexts[current] if current >= 0 else 1.0
        for member in reversed(chain):
            inherited *= min(self.hint(member), 1.0)
            self._contexts[member] = inherited
        return self._contexts[node_id]


def block_vote(block: Block, config: ExtractionConfig, hub: bool = False) -> float:
    """How strongly a block says 'my ancestors hold the content' (readability-style, seed 002 densities).

    On a hub page (a listing with next to no prose) the entries are links, so links vote too.
    """
    features = block.features
    if features.text_length < config.short_block_chars:
        return 0.0
    length_points = 1.0 + min(
        features.text_length / config.vote_chars_per_point, config.vote_max_length_points
    )
    if hub:
        return length_points
    if features.nltd > config.max_link_density:
        return 0.0
    vote = (
        length_points + min(features.punctuation_count, config.vote_max_punctuation) * config.vote_punctuation
    )
    if block.kind in _LISTISH:
        vote *= config.list_vote_factor
    return vote * (1.0 - features.nltd) ** 2


def excerpts(blocks: list[Block], config: ExtractionConfig) -> set[int]:
    """The positions of teaser excerpts: blocks cut off with an ellipsis ("... may soon...", "[…]") where
    at least `excerpt_run_min` blocks of one tag path are, and half its blocks or more: a list of other
    pages' openings, which says where their content is, not this page's. An article's own "…" ends a
    thought here and there, not every paragraph. Tags only: a card's classes name its post's category."""
    cut = [block for block in blocks if block.text.rstrip().endswith(_EXCERPT_ENDS)]
    # Most pages have no run at all: their paths are never folded.
    if len(cut) < config.excerpt_run_min:
        return set()
    tag_paths: dict[str, str] = {}
    total: Counter[str] = Counter()
    for block in blocks:
        tag_path = tag_paths.get(block.path)
        if tag_path is None:
            tag_path = tag_paths[block.path] = _PATH_NAMES.sub("", block.path)
        total[tag_path] += 1
    runs: dict[str, list[int]] = {}
    for block in cut:
        runs.setdefault(tag_paths[block.path], []).append(block.position)
    return {
        position
        for tag_path, positions in runs.items()
        if len(positions) >= config.excerpt_run_min and 2 * len(positions) >= total[tag_path]
        for position in positions
    }


def locate_content(page: Page, config: ExtractionConfig, title: str = "") -> ContentArea | None:
    """Pick the optimal content node (seed 001, steps 3 and 4); None when no block qualifies.

    Blocks under a template-named container (comments, sidebar) vote with the weight of that context,
    so they win only when they clearly outweigh everything else (a forum thread, a comment-only page).
    The page's `title` finds its headline, near which the content starts.
    """
    hints = NodeHints(page, config)
    good = _good_text(page, config, hints.silent, hints)
    hub = good[0] < config.hub_max_prose_chars
    scores = _node_scores(page, config, hints, hub)
    if not scores:
        return None
    final = {
        node_id: score
        * max(hints.hint(node_id), 1.0)
        * hints.context(node_id)
        * _link_factor(page.nodes[node_id], hub)
        for node_id, score in scores.items()
    }
    headline = _headline(page, title, config)
    top = best = max(final, key=final.__getitem__)
    if headline >= 0:
        best = _near_headline(page, best, final, good, page.block_nodes[headline], config)
    units = _units(page.nodes, best) if hints.named_as_template(best) else ""
    root = _widen(page, best, good, config, thread=bool(units))
    if good[root] < config.spread_share * good[0]:
        root = _main_or_body(page, root)
    records = _record_list_instead(page, best, root, hints, good, config, hub)
    if records >= 0:
        final.setdefault(records, final[best])
        best = root = records
        units = ""
    passed_over = top if _teaser_box(page, top, root, hints.teasers) else -1
    return ContentArea(best, root, final, hints, good, hub, {root}, units, passed_over)


def label_blocks(page: Page, area: ContentArea | None, title: str, config: ExtractionConfig) -> None:
    """Label each block content or noise with a score and a reason a person can read."""
    first_seen: dict[str, Block] = {}
    inside = _inside(page.nodes, area.members) if area else [False] * len(page.nodes)
    for block, node_id in zip(page.blocks, page.block_nodes, strict=True):
        block.score = block.features.content_weight
        if area is None or not inside[node_id]:
            block.label, block.rule, block.reason = (
                _VEILED if block.position in page.veiled else _outside(block, config)
            )
            continue
        block.label, block.rule, block.reason = _label_inside(block, node_id, page, area, title, config)
        if block.label is Label.CONTENT and len(block.text) >= config.duplicate_min_chars:
            first = first_seen.setdefault(block.text, block)
            # Responsive layouts repeat a text in another container per screen size; an article that
            # repeats itself does so in the same container, and the reader sees both.
            if first is not block and first.path != block.path:
                block.label, block.rule = Label.NOISE, Rule.RESPONSIVE_COPY
                block.reason = f"repeats block {first.position}"


def _label_inside(
    block: Block, node_id: int, page: Page, area: ContentArea, title: str, config: ExtractionConfig
) -> tuple[Label, Rule, str]:
    features = block.features
    if title and is_headline(block, title):
        return Label.NOISE, Rule.PAGE_TITLE, "the page title"
    if block.kind is BlockKind.CAPTION and not config.include_captions:
        return Label.NOISE, Rule.CAPTION, "a figure caption"
    if features.noise_score > config.noise_threshold:
        reason = f"noise score F={features.noise_score:.2f} over {config.noise_threshold}"
        return Label.NOISE, Rule.NOISE_SCORE, reason
    if not area.hub and _link_dominated(block, config):
        return Label.NOISE, Rule.LINK_DENSE, f"link-text density {features.nltd:.2f}"
    if features.nltd > config.max_link_density and is_pager(block.text):
        return Label.NOISE, Rule.LINK_DENSE, "a pager: links to the previous and next pages"
    template = _template_ancestor(page.nodes, node_id, area, config)
    if template is not None:
        node = page.nodes[template]
        return Label.NOISE, Rule.TEMPLATE_CONTAINER, f"inside {node.tag}.{node.names[:40]}"
    return Label.CONTENT, Rule.CONTENT_AREA, "in the content area"


_OUTSIDE = (Label.NOISE, Rule.OUTSIDE_AREA, "outside the content area")
_OUTSIDE_LINKS = (Label.NOISE, Rule.LINK_DENSE, "outside the content area, mostly link text")
_VEILED = (Label.NOISE, Rule.VEILED, "outside the content area, hidden from screen readers")


def _outside(block: Block, config: ExtractionConfig) -> tuple[Label, Rule, str]:
    # Mostly link text outside the content (a menu entry, a teaser card of another page) says so: a site
    # model restores such a block only inside the page's own content container (`site_models.model`).
    # A constant reason: menus make these most of a page's blocks, and formatting a figure for each cost
    # a tenth of the extraction's time.
    if block.features.nltd > config.max_prose_link_density:
        return _OUTSIDE_LINKS
    return _OUTSIDE


def _link_factor(node: Node, hub: bool) -> float:
    # On a hub page the links are the content, so they do not discount their container.
    return 1.0 if hub else 1.0 - link_density(node)


def _link_dominated(block: Block, config: ExtractionConfig) -> bool:
    # A long sentence may link half its words and still be prose; a short one is a menu entry.
    features = block.features
    if block.kind is BlockKind.HEADING or features.nltd <= config.max_link_density:
        return False
    return features.text_length < config.long_block_chars or features.nltd > config.max_prose_link_density


def _node_scores(page: Page, config: ExtractionConfig, hints: NodeHints, hub: bool) -> dict[int, float]:
    scores: dict[int, float] = {}
    nodes = page.nodes
    for block, node_id in zip(page.blocks, page.block_nodes, strict=True):
        vote = block_vote(block, config, hub)
        if vote <= 0.0 or block.position in hints.silent:
            continue
        vote *= hints.context(node_id)
        current = node_id if nodes[node_id].tag in _CONTAINER_TAGS else nodes[node_id].parent
        weight = 1.0
        for _ in range(config.ancestor_levels):
            if current < 0:
                break
            scores[current] = scores.get(current, 0.0) + vote * weight
            weight *= config.ancestor_decay
            current = nodes[current].parent
    return scores


def _teaser_box(page: Page, top: int, root: int, teasers: set[int]) -> bool:
    """True when the top-scoring node lies outside the area's root and holds teaser excerpts."""
    nodes = page.nodes
    return not holds(nodes, root, top) and any(holds(nodes, top, page.block_nodes[p]) for p in teasers)


def _record_list_instead(
    page: Page, best: int, root: int, hints: NodeHints, good: list[float], config: ExtractionConfig, hub: bool
) -> int:
    """The container of a list of records (a listing's cards, a shop's products) to take instead of a
    content area of little prose (an intro line, a legal notice) that outweighed them, or -1.

    The records' short blocks and links do not vote, so a paragraph beside them wins; the list replaces it
    when it holds several times its text and lies apart from it (a list around the area is a section's
    intro with its links to other pages), outside template-named containers. An area found in the page's
    own `<article>` stays: the page says where its content is. Off a hub page, a list of links is no
    such list: its records would all be link blocks.
    """
    if good[root] >= config.record_list_max_area_chars or _in_article(page.nodes, best):
        return -1
    nodes = page.nodes
    records = _largest_record_list(nodes, hints, config)
    if (
        records < 0
        or holds(nodes, root, records)
        or holds(nodes, records, root)
        or nodes[records].text_chars < config.record_list_factor * nodes[root].text_chars
        or hints.context(records) < 1.0
        or (not hub and link_density(nodes[records]) > config.max_link_density)
    ):
        return -1
    return records


def _largest_record_list(nodes: list[Node], hints: NodeHints, config: ExtractionConfig) -> int:
    """The node whose children of one record key (tag and first class) hold the most text, discounted by
    its template names, counting only runs of `min_records` or more children of `record_min_chars` each
    on average; -1 when there is none."""
    runs: dict[tuple[int, str], list[int]] = {}
    for node in nodes:
        if node.parent >= 0 and node.text_chars:
            run = runs.setdefault((node.parent, node.record), [0, 0])
            run[0] += 1
            run[1] += node.text_chars
    best, best_weight = -1, 0.0
    for (parent, _), (count, chars) in runs.items():
        if count >= config.min_records and chars >= config.record_min_chars * count:
            weight = chars * hints.context(parent)
            if weight > best_weight:
                best, best_weight = parent, weight
    return best


def _near_headline(
    page: Page, best: int, final: dict[int, float], good: list[float], headline: int, config: ExtractionConfig
) -> int:
    """The best node of the headline's part of the page instead of a content node apart from it, or `best`.

    The part is the headline's ancestor just below where it meets `best`. It must hold prose of its own:
    an article whose headline sits in a page header above its body keeps its body.
    """
    nodes = page.nodes
    if holds(nodes, best, headline):
        return best
    ancestors = set()
    current = best
    while current >= 0:
        ancestors.add(current)
        current = nodes[current].parent
    part = headline
    while nodes[part].parent >= 0 and nodes[part].parent not in ancestors:
        part = nodes[part].parent
    if good[part] < config.headline_region_min_chars:
        return best
    candidates = [node_id for node_id in final if holds(nodes, part, node_id)]
    if not candidates:
        return best
    candidate = max(candidates, key=final.__getitem__)
    return candidate if final[candidate] >= config.headline_region_min_share * final[best] else best


def _headline(page: Page, title: str, config: ExtractionConfig) -> int:
    """The position of the page's headline block, or -1: the first `<h1>` repeating the title, else the
    first whose words the title holds for the most part (`ExtractionConfig.headline_word_share`)."""
    if not title:
        return -1
    for position, block in enumerate(page.blocks):
        if is_headline(block, title):
            return position
    # A shop's or a magazine's title words its headline anew: reordered, abridged, a colour or size added.
    title_words = set(_WORD.findall(title.lower()))
    for position, block in enumerate(page.blocks):
        if block.tag == "h1" and block.kind is BlockKind.HEADING:
            words = _WORD.findall(block.text.lower())
            shared = sum(word in title_words for word in words)
            if words and shared >= config.headline_word_share * len(words):
                return position
    return -1


def is_pager(text: str) -> bool:
    """True for a text framed by an arrow ("‹ Older post  Newer post ›", "« Previous"): read as links, the
    way to the neighbouring pages, whatever titles they carry. Even a hub page's links are no content then."""
    text = text.strip()
    return text.startswith(_PAGER_OPENINGS) or text.endswith(_PAGER_CLOSINGS)


def is_headline(block: Block, title: str) -> bool:
    """True for the page's main heading: an h1 that repeats the page title (which adds the site's name)."""
    return block.tag == "h1" and block.kind is BlockKind.HEADING and same_text(block.text, title)


def _in_article(nodes: list[Node], node_id: int) -> bool:
    while node_id >= 0:
        if nodes[node_id].tag == "article":
            return True
        node_id = nodes[node_id].parent
    return False


def holds(nodes: list[Node], ancestor: int, node_id: int) -> bool:
    while node_id > ancestor:
        node_id = nodes[node_id].parent
    return node_id == ancestor


def _main_or_body(page: Page, root: int) -> int:
    """The `<main>` element holding `root`, else the body: where a page's spread-out content lives."""
    current = root
    while current > 0 and page.nodes[current].tag != "main":
        current = page.nodes[current].parent
    return max(current, 0)


def _widen(page: Page, root: int, good: list[float], config: ExtractionConfig, thread: bool = False) -> int:
    """Climb from the best node while its ancestors add mostly good text (service and landing pages).

    An article's container stops the climb at its comments and link lists; a page whose content is
    spread over many sections (no single dominant node) climbs to the section that holds them all. A
    parent that adds only its titles is taken (`_titled`): the section the content is the body of. A
    parent that adds too little good text to be taken alone is looked past: an ancestor further up that
    adds prose almost only (`widen_prose_ratio`), and enough of it, is taken (a long reference page whose
    largest list outweighs the prose of the sections around it). A `thread` (the best node is named as
    template: replies that outweigh everything else) takes its parent when it adds any good text, however
    much else: the post the replies answer is beside them, shorter, among the thread's links.
    """
    nodes = page.nodes
    current = root
    while nodes[current].parent >= 0:
        current = nodes[current].parent
        added_good = good[current] - good[root]
        added_all = nodes[current].text_chars - nodes[root].text_chars
        if thread and added_good > 0:
            root, thread = current, False
            continue
        if added_all and added_good < config.widen_good_ratio * added_all:
            if _titled(page, current, root, added_all, config):
                root = current
                continue
            break
        mostly = config.widen_good_ratio if nodes[root].parent == current else config.widen_prose_ratio
        enough = config.widen_min_gain * good[root]
        if added_good >= config.widen_prose_ratio * added_all:
            enough = min(enough, config.widen_min_prose_chars)
        if not added_all or (added_good >= mostly * added_all and added_good >= enough):
            root = current
    return root


def _titled(page: Page, parent: int, root: int, added_chars: int, config: ExtractionConfig) -> bool:
    """True when all the text `parent` adds to the content node below it is its titles: a section's heading
    (h2 to h6), a table's head row or caption, or a short line without links before it, one block (a
    DocBook table's title; not a box of short lines such as a price and a button). A section is its title
    and its body, and a title of 15 characters must not stop the climb as a sidebar would."""
    nodes = page.nodes
    depth = nodes[parent].depth
    title_chars = 0
    for node_id in range(parent + 1, len(nodes)):
        node = nodes[node_id]
        if node.depth <= depth:
            break
        if node.parent != parent or not node.text_chars:
            continue
        if node.tag in _SECTION_TITLES or (
            node_id < root
            and node.tag != "h1"
            and not node.link_chars
            and node.text_chars < config.short_block_chars
            and (node_id + 1 == len(nodes) or nodes[node_id + 1].parent != node_id)
        ):
            title_chars += node.text_chars
    return 0 < title_chars == added_chars


def _good_text(
    page: Page, config: ExtractionConfig, silent: set[int], hints: NodeHints | None = None
) -> list[float]:
    """Each node's prose: the text outside links of its blocks that are neither short nor link blocks nor
    `silent` (teasers, veiled blocks), weighted by their template context when `hints` are given."""
    good = [0.0] * len(page.nodes)
    for block, node_id in zip(page.blocks, page.block_nodes, strict=True):
        features = block.features
        if (
            features.text_length >= config.short_block_chars
            and features.nltd <= config.max_link_density
            and block.position not in silent
        ):
            weight = hints.context(node_id) if hints is not None else 1.0
            good[node_id] += features.text_length * (1.0 - features.nltd) * weight
    # Nodes are numbered in document order, so every child comes after its parent.
    for node_id in range(len(page.nodes) - 1, 0, -1):
        parent = page.nodes[node_id].parent
        if parent >= 0:
            good[parent] += good[node_id]
    return good


def _inside(nodes: list[Node], members: set[int]) -> list[bool]:
    inside = [False] * len(nodes)
    for node_id, node in enumerate(nodes):
        inside[node_id] = node_id in members or (node.parent >= 0 and inside[node.parent])
    return inside


def _template_ancestor(
    nodes: list[Node], node_id: int, area: ContentArea, config: ExtractionConfig
) -> int | None:
    current = node_id
    while current >= 0 and current not in area.members:
        if nodes[current].record == area.thread_units:
            # A thread's post and replies are named as template (each a `comment`) and are its content.
            current = nodes[current].parent
            continue
        # A template name on a node that holds most of the area's text is a layout wrapper's name.
        if (
            area.hints.hint(current) < 1.0
            and area.good[current] < config.wrapper_good_share * area.good[area.root]
        ):
            return current
        current = nodes[current].parent
    return None


def _units(nodes: list[Node], parent: int) -> str:
    """The record key of the children of `parent` that hold the most text together (a thread's replies)."""
    chars: dict[str, int] = {}
    for node in nodes[parent + 1 :]:
        if node.parent == parent:
            chars[node.record] = chars.get(node.record, 0) + node.text_chars
        elif node.depth <= nodes[parent].depth:
            break
    return max(chars, key=chars.__getitem__) if chars else ""


def link_density(node: Node) -> float:
    """Share of a node's text that is anchor text."""
    return min(node.link_chars / node.text_chars, 1.0) if node.text_chars else 0.0


def same_text(a: str, b: str) -> bool:
    """True when one text holds the other, ignoring case and surrounding space (a heading and a title)."""
    a, b = a.strip().lower(), b.strip().lower()
    return bool(a) and (a in b or b in a)
