"""Topic relevance: how close a text is to a topic given in words, by BM25 (Robertson and Zaragoza, 2009)
with its document statistics learned from the texts seen so far, a focused crawl's own clean pages; and
how much of a topic a short text names (`TopicModel.coverage`: a link's anchor and URL, a list of links).

A topic is a few words or a short description. Its terms are its words less common English function
words, each folded to a crude stem (lower case, a plural or "-ing"/"-ed" ending cut) so that "crawler" and
"crawlers" meet. A text's relevance is its BM25 score over the topic's terms, divided by the score of an
ideal text of average length holding each term twice: 0 for a text with none of the terms, about 1 for a
text that is clearly about the topic, a little more for one about little else. The divisor moves with the
statistics, so that scores stay comparable as the crawl learns which terms are common on the site.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

_WORD = re.compile(r"[^\W_]+")
# Function words that say nothing of a topic (a short list: the topic's own words carry the weight).
_STOPWORDS = frozenset(
    _WORD.findall(
        "a about above after again all also an and any are as at be been before being below between both but "
        "by can could did do does doing down during each few for from further had has have having he her "
        "here hers him his how i if in into is it its itself just me more most my no nor not now of off on "
        "once only or other our out over own same she should so some such than that the their them then "
        "there these they this those through to too under until up very was we were what when where which "
        "while who whom why will with would you your"
    )
)
_SIBILANT_PLURALS = ("sses", "shes", "ches", "xes", "zes", "oes")


def terms(text: str) -> list[str]:
    """The text's terms: its words in lower case, less function words and one-letter words, stemmed."""
    return [_stem(word) for word in _WORD.findall(text.lower()) if len(word) > 1 and word not in _STOPWORDS]


def _stem(word: str) -> str:
    """A crude stem: plurals to the singular, "-ing" and "-ed" cut (only to match words of one text with
    another's, never shown)."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(_SIBILANT_PLURALS):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    if word.endswith("ing") and len(word) > 5:
        return word[:-3]
    if word.endswith("ed") and len(word) > 4:
        return word[:-2]
    return word


@dataclass(frozen=True, slots=True)
class Topic:
    """A topic: its text and its distinct terms, in order."""

    text: str
    terms: tuple[str, ...]

    @classmethod
    def of(cls, text: str) -> Topic:
        """The topic of a few words or a description; ValueError when it has no term."""
        found = tuple(dict.fromkeys(terms(text)))
        if not found:
            raise ValueError(f"the topic {text.strip()[:80]!r} has no word to look for")
        return cls(text.strip(), found)

    @classmethod
    def of_examples(cls, texts: list[str], size: int) -> Topic:
        """The topic of example pages' texts: their `size` terms held by the most of them, the more
        frequent first among equals (what the examples share, not one page's asides). Terms common on the
        whole site weigh less once the crawl has seen it (`TopicModel`'s IDF). ValueError without a term."""
        held: Counter[str] = Counter()
        counts: Counter[str] = Counter()
        for text in texts:
            words = terms(text)
            counts.update(words)
            held.update(set(words))
        ranked = sorted(held, key=lambda term: (-held[term], -counts[term], term))[:size]
        if not ranked:
            raise ValueError("the topic's example pages have no word to look for")
        return cls(" ".join(ranked), tuple(ranked))


@dataclass(slots=True)
class TopicModel:
    """BM25 relevance to one topic, with document frequencies learned from the texts observed."""

    topic: Topic
    k1: float = 1.2
    b: float = 0.75
    documents: int = 0
    total_terms: int = 0
    frequency: Counter[str] = field(default_factory=Counter)
    _idfs: dict[str, float] = field(default_factory=dict, init=False, repr=False)

    def observe(self, text: str) -> None:
        """Count one document (a page's clean text) in the statistics."""
        self.observe_terms(terms(text))

    def observe_terms(self, words: list[str]) -> None:
        """`observe` for a text already split into `terms`."""
        self.documents += 1
        self.total_terms += len(words)
        self._idfs.clear()
        wanted = self.topic.terms
        self.frequency.update(term for term in set(words) if term in wanted)

    def relevance(self, text: str) -> float:
        """The text's relevance to the topic: 0 without any of its terms, about 1 when clearly about it."""
        return self.relevance_of_terms(terms(text))

    def relevance_of_terms(self, words: list[str]) -> float:
        """`relevance` for a text already split into `terms`."""
        counts = Counter(words)
        length = sum(counts.values())
        if not length:
            return 0.0
        score = self._score(counts, length)
        return score / self._ideal() if score else 0.0

    def coverage(self, words: set[str], joined: str = "") -> float:
        """How much of the topic a short text names, 0 to 1: the share of the topic's terms among `words`,
        each term weighted by its IDF. A term of four letters or more also counts inside a word of `joined`
        (a URL's words, space-separated), where slugs join words: ``createtable``, ``growingtomatoes``.
        Unlike `relevance`, neither how often a term occurs nor the text's length counts: a link's anchor
        and URL, or a list of links, say what they name once."""
        found = total = 0.0
        for term in self.topic.terms:
            weight = self._idf(term)
            total += weight
            if term in words or (len(term) >= 4 and term in joined):
                found += weight
        return found / total if total else 0.0

    def _score(self, counts: Counter[str], length: int) -> float:
        average = self.total_terms / self.documents if self.documents else float(length)
        norm = self.k1 * (1 - self.b + self.b * length / max(average, 1.0))
        score = 0.0
        for term in self.topic.terms:
            count = counts.get(term, 0)
            if count:
                score += self._idf(term) * count * (self.k1 + 1) / (count + norm)
        return score

    def _idf(self, term: str) -> float:
        weight = self._idfs.get(term)
        if weight is None:
            held = self.frequency.get(term, 0)
            weight = self._idfs[term] = math.log(1 + (self.documents - held + 0.5) / (held + 0.5))
        return weight

    def _ideal(self) -> float:
        """The score of an average-length text holding every topic term twice."""
        twice = 2 * (self.k1 + 1) / (2 + self.k1)
        return sum(self._idf(term) * twice for term in self.topic.terms) or 1.0
