"""A focused crawl: the relevance of each page to a topic, and a priority for each of its links from where the
link sits after cleaning.

A page's relevance is its clean text's (`extraction.topic.TopicModel.relevance`, BM25 with statistics
learned from the crawl's own clean pages): it is stored, ranks pages in SQL and feeds the saturation test.
A link's priority combines, by the ``FOCUS_*`` weights, how much of the topic each of these names
(`TopicModel.coverage`, the IDF-weighted share of the topic's terms):

- its anchor text and the words of its URL's path (``FOCUS_ANCHOR_WEIGHT``);
- the block it sits in (``FOCUS_BLOCK_WEIGHT``): the higher of the block's own words and its run's
  (`block_runs`: the list or section around it, what a table of contents' entry is listed under);
- its page (``FOCUS_PAGE_WEIGHT``), by the page's title: the BM25 relevance of the whole text measured to
  mislead here, a long page holding every term passing its high score to all of its links;

times ``FOCUS_TEMPLATE_FACTOR`` when the block is noise (a menu, a "latest posts" box, a footer) and the
page's content holds links of its own: the site's template links everywhere, its content links to what it is
about. A page whose links are all in noise is a list of links judged as a whole (a contents page judged before
its cluster's site model exists): nothing to tell its template from. ``FOCUS_BLOCK_SIGNAL = False`` leaves the
block out (its words and label), for comparison. The priority goes through Scrapy's `Request.priority`, so
any scheduler orders by it, a shared one included.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from extraction import Block, ExtractionResult, Label
from extraction.topic import Topic, TopicModel, terms

# Scrapy priorities are integers: relevance in thousandths.
_SCALE = 1000


def parse_topic(topic: str | None, topic_file: str | None) -> tuple[Topic | None, tuple[str, ...]]:
    """The topic of ``-a topic=WORDS`` or ``-a topic_file=PATH``, and its example URLs: a file whose lines
    (blank ones aside) are all http(s) URLs names example pages, whose clean text defines the topic once
    the crawl has fetched them (`Topic.of_examples`); any other file is the topic's text. (None, ()) for a
    plain crawl; ValueError for an empty topic or an unreadable file."""
    if topic and topic_file:
        raise ValueError("give -a topic or -a topic_file, not both")
    if topic_file:
        try:
            topic = Path(topic_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"-a topic_file={topic_file}: {error}") from None
        lines = [line.strip() for line in topic.splitlines() if line.strip()]
        if lines and all(urlsplit(line).scheme in ("http", "https") for line in lines):
            return None, tuple(dict.fromkeys(lines))
    return (Topic.of(topic) if topic is not None else None), ()


@dataclass(frozen=True, slots=True)
class FocusWeights:
    """The ``FOCUS_*`` settings (`crawler.default_settings`), read by `crawler.checks.settings_group`."""

    block_weight: float
    """Weight of the relevance of the block a link sits in."""
    anchor_weight: float
    """Weight of the relevance of the link's anchor text."""
    page_weight: float
    """Weight of the relevance of the link's page."""
    template_factor: float
    """Factor of a link's priority when its block is noise: the template links everywhere."""
    block_signal: bool
    """False leaves the block out (its relevance and label), for comparison."""
    min_relevance: float
    """A page this relevant or more counts as relevant, for the saturation test."""
    saturation_pages: int
    """The saturation test reads this many relevant pages (0: never stop)."""
    saturation_new_terms: float
    """Saturated when those pages brought less than this share of new words each on average."""
    example_terms: int
    """A topic given by example pages has this many terms (`Topic.of_examples`)."""


class Saturation:
    """The share of new words each relevant page brings to the relevant pages' vocabulary, over the last
    `pages` of them (crawl4ai's adaptive crawling stops on the same idea): saturated when their mean falls
    below `new_share`. Off when `pages` is 0."""

    def __init__(self, pages: int, new_share: float) -> None:
        self.pages = pages
        self.new_share = new_share
        self.vocabulary: set[str] = set()
        self.recent: deque[float] = deque(maxlen=max(pages, 1))

    def add(self, words: list[str]) -> None:
        """Count one relevant page's words."""
        if not self.pages:
            return
        distinct = set(words)
        self.recent.append(len(distinct - self.vocabulary) / len(distinct) if distinct else 0.0)
        self.vocabulary |= distinct

    @property
    def saturated(self) -> bool:
        """The last `pages` relevant pages brought, on average, less than `new_share` new words each."""
        full = bool(self.pages) and len(self.recent) == self.pages
        return full and sum(self.recent) / self.pages < self.new_share


class Focus:
    """The topic model of one crawl and the priorities it gives links."""

    def __init__(self, topic: Topic, weights: FocusWeights) -> None:
        self.model = TopicModel(topic)
        self.weights = weights
        self.saturation = Saturation(weights.saturation_pages, weights.saturation_new_terms)

    def page_relevance(self, result: ExtractionResult) -> float:
        """Learn from the page's clean text, then score it; a relevant page's new words feed the
        saturation test."""
        words = terms(result.text)
        self.model.observe_terms(words)
        relevance = self.model.relevance_of_terms(words)
        if relevance >= self.weights.min_relevance:
            self.saturation.add(words)
        return relevance

    @property
    def saturated(self) -> bool:
        """True when the last relevant pages brought little new vocabulary (`Saturation`)."""
        return self.saturation.saturated

    def priorities(self, result: ExtractionResult) -> dict[str, int]:
        """Each link's priority (higher first), after the page's `page_relevance` has fed the statistics. A
        link weighs its page by what the page's title names, not by its relevance (see the module's note)."""
        weights, blocks, model = self.weights, result.blocks, self.model
        page_score = weights.page_weight * model.coverage(set(terms(result.title)))
        blocks_score = _BlockScores(model, blocks) if weights.block_signal else None
        links = result.link_blocks()
        # A page whose content holds no link is a list of links judged noise as a whole (a contents page
        # judged alone), or a leaf whose template links the crawl met before: its lists are not demoted.
        demote = any(
            0 <= position < len(blocks) and blocks[position].label is Label.CONTENT
            for _, position, _ in links
        )
        found = {}
        for url, position, anchor in links:
            path = terms(url_words(url))
            said = model.coverage(set(terms(anchor)).union(path), " ".join(path))
            score = weights.anchor_weight * said + page_score
            if blocks_score is not None and 0 <= position < len(blocks):
                score += weights.block_weight * blocks_score.of(position)
                if demote and blocks[position].label is not Label.CONTENT:
                    score *= weights.template_factor
            found[url] = round(_SCALE * score)
        return found


class _BlockScores:
    """What each block of a page names of the topic (`TopicModel.coverage`): the higher of the block's
    own words' and its run's (`block_runs`), each run read once."""

    def __init__(self, model: TopicModel, blocks: list[Block]) -> None:
        self.model = model
        self.blocks = blocks
        self.runs = block_runs(blocks)
        self.scores: dict[int, float] = {}
        self.run_scores: dict[int, float] = {}

    def of(self, position: int) -> float:
        """The score of the block at `position`."""
        score = self.scores.get(position)
        if score is None:
            start, end = self.runs[position]
            if start not in self.run_scores:
                words = terms("\n".join(block.text for block in self.blocks[start:end]))
                self.run_scores[start] = self.model.coverage(set(words))
            # A block alone in its run is its run: one score, not two.
            own = self.model.coverage(set(terms(self.blocks[position].text))) if end - start > 1 else 0.0
            score = self.scores[position] = max(own, self.run_scores[start])
        return score


def block_runs(blocks: list[Block]) -> list[tuple[int, int]]:
    """Each block's run, (start, end) positions: the consecutive blocks of one DOM path, such as the items of
    a list or the paragraphs of a section. A link is judged by its run: one entry of a table of contents
    says little, the list it sits in says what the links around it are about."""
    runs: list[tuple[int, int]] = []
    start = 0
    for position in range(1, len(blocks) + 1):
        if position == len(blocks) or blocks[position].path != blocks[start].path:
            runs.extend([(start, position)] * (position - start))
            start = position
    return runs


def url_words(url: str) -> str:
    """The words of a URL's path (``/docs/growing-tomatoes.html``: docs growing tomatoes html): what the link
    says of its page besides its anchor text."""
    return unquote(urlsplit(url).path)
