"""A focused crawl: the relevance of each page to a topic, and a priority for each of its links from where the
link sits after cleaning.

A page's relevance is its clean text's (`extraction.topic.TopicModel`, BM25 with statistics learned from the
crawl's own clean pages). A link's priority combines, by the ``FOCUS_*`` weights:

- the relevance of the block the link sits in (``FOCUS_BLOCK_WEIGHT``),
- the relevance of its anchor text (``FOCUS_ANCHOR_WEIGHT``),
- the relevance of its page (``FOCUS_PAGE_WEIGHT``),

times ``FOCUS_TEMPLATE_FACTOR`` when the block is noise (a menu, a "latest posts" box, a footer): the site's
template links everywhere, its content links to what it is about. ``FOCUS_BLOCK_SIGNAL = False`` leaves the
block out (its relevance and label), for comparison. The priority goes through Scrapy's
`Request.priority`, so any scheduler orders by it, a shared one included.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from scrapy.settings import BaseSettings

from extraction import ExtractionResult, Label
from extraction.topic import Topic, TopicModel, terms

# Scrapy priorities are integers: relevance in thousandths.
_SCALE = 1000


def parse_topic(topic: str | None, topic_file: str | None) -> Topic | None:
    """The topic of ``-a topic=WORDS`` or ``-a topic_file=PATH`` (its text), or None for a plain crawl;
    ValueError for an empty topic or an unreadable file."""
    if topic and topic_file:
        raise ValueError("give -a topic or -a topic_file, not both")
    if topic_file:
        try:
            topic = Path(topic_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"-a topic_file={topic_file}: {error}") from None
    return Topic.of(topic) if topic is not None else None


@dataclass(frozen=True, slots=True)
class FocusWeights:
    """How a link's priority weighs its block, its anchor and its page, and how a noise block counts."""

    block: float = 0.4
    anchor: float = 0.4
    page: float = 0.2
    template: float = 0.3
    block_signal: bool = True
    min_relevance: float = 0.3
    saturation_pages: int = 0
    saturation_new: float = 0.05

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> Self:
        """The ``FOCUS_*`` settings; ValueError for a negative weight or a factor above 1."""
        weights = cls(
            block=settings.getfloat("FOCUS_BLOCK_WEIGHT"),
            anchor=settings.getfloat("FOCUS_ANCHOR_WEIGHT"),
            page=settings.getfloat("FOCUS_PAGE_WEIGHT"),
            template=settings.getfloat("FOCUS_TEMPLATE_FACTOR"),
            block_signal=settings.getbool("FOCUS_BLOCK_SIGNAL"),
            min_relevance=settings.getfloat("FOCUS_MIN_RELEVANCE"),
            saturation_pages=settings.getint("FOCUS_SATURATION_PAGES"),
            saturation_new=settings.getfloat("FOCUS_SATURATION_NEW_TERMS"),
        )
        numbers = (weights.block, weights.anchor, weights.page, weights.template, weights.min_relevance)
        if min(*numbers, weights.saturation_pages, weights.saturation_new) < 0:
            raise ValueError("FOCUS_* settings must not be negative")
        if weights.template > 1 or weights.saturation_new > 1:
            raise ValueError("FOCUS_TEMPLATE_FACTOR and FOCUS_SATURATION_NEW_TERMS are at most 1")
        return weights


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
        self.saturation = Saturation(weights.saturation_pages, weights.saturation_new)

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

    def priorities(self, result: ExtractionResult, page_relevance: float) -> dict[str, int]:
        """Each link's priority (higher first)."""
        weights, blocks = self.weights, result.blocks
        block_scores: dict[int, float] = {}
        found = {}
        for url, position, anchor in result.link_blocks():
            score = weights.anchor * self.model.relevance(anchor) + weights.page * page_relevance
            if weights.block_signal and 0 <= position < len(blocks):
                if position not in block_scores:
                    block_scores[position] = self.model.relevance(blocks[position].text)
                score += weights.block * block_scores[position]
                if blocks[position].label is not Label.CONTENT:
                    score *= weights.template
            found[url] = round(_SCALE * score)
        return found
