"""Full-text search over the pages' clean text: the index finds the pages holding every word of a query, and
BM25 ranks them over two fields, their clean text and their title (each field's score apart, summed: a
title that holds the query outranks a page that only mentions its words often), each with its
best-matching block as the snippet. A query in double quotes is a phrase: its words must follow each other.

Retrieval and ranking are apart because the index keeps no word counts (`pipelines.storage.search_index`:
FTS5 with detail=none and a stripped tsvector, the smallest index either engine keeps, where FTS5's own
`bm25()` gives every page 0): ranking reads the matching pages' clean text, at most `CANDIDATES` of them,
the shortest first. Document frequencies come from the index itself (SQLite's fts5vocab table, PostgreSQL's
GIN index), so the figures are the usual BM25's (k1 1.2, b 0.75), on every engine. The baseline store is
searched by the same code (`pipelines.storage.baseline`), so the two rankings compare.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.orm import Session

from pipelines.storage.dialect import is_postgresql
from pipelines.storage.search_index import TS_CONFIG, words

# Pages ranked per query, at most: the shortest of those that hold every word.
CANDIDATES = 500
_K1, _B = 1.2, 0.75
_SNIPPET_WORDS = 30


@dataclass(frozen=True, slots=True)
class Hit:
    """A page that matches a query: its URL, title, site, BM25 score (higher is better) and best block."""

    url: str
    title: str
    site: str
    score: float
    snippet: str


@dataclass(frozen=True, slots=True)
class SearchTables:
    """Where a store keeps what search reads: its pages (id, url, title, site, length), their texts, and its
    index (SQLite: the FTS5 table; PostgreSQL: the tsvector column of the pages table)."""

    candidates: dict[str, str]
    texts: str
    frequencies: dict[str, str]
    total: str


def fts_query(terms: Sequence[str]) -> str:
    """An FTS5 query of words: each one quoted (FTS5's own syntax is not the user's), all of them required."""
    return " ".join(f'"{word}"' for word in terms)


CLEAN_STORE = SearchTables(
    candidates={
        "sqlite": """
            SELECT p.id, p.url, p.title, s.host
            FROM page_search JOIN pages AS p ON p.id = page_search.rowid JOIN sites AS s ON s.id = p.site_id
            WHERE page_search MATCH :query AND (:site = '' OR s.host = :site)
            ORDER BY p.stored_bytes, p.id LIMIT :cap""",
        "postgresql": f"""
            SELECT p.id, p.url, p.title, s.host FROM pages AS p JOIN sites AS s ON s.id = p.site_id
            WHERE p.search @@ plainto_tsquery('{TS_CONFIG}', :terms) AND (:site = '' OR s.host = :site)
            ORDER BY p.stored_bytes, p.id LIMIT :cap""",
    },
    texts="SELECT page_id, text FROM clean_pages WHERE page_id IN ({ids})",
    frequencies={
        "sqlite": "SELECT term, doc FROM page_search_vocabulary WHERE term IN ({words})",
        "postgresql": f"SELECT count(*) FROM pages WHERE search @@ to_tsquery('{TS_CONFIG}', :word)",
    },
    total="SELECT count(*) FROM pages",
)


def search(
    session: Session, terms: str, site: str = "", limit: int = 10, candidates: int = CANDIDATES
) -> list[Hit]:
    """The pages whose clean text holds every word of `terms` (or the phrase, when it is quoted), best
    first, at most `limit` (of `site` when given), ranked among the `candidates` shortest that match."""
    return search_store(session, CLEAN_STORE, terms, site, limit, candidates)


def search_store(
    session: Session, tables: SearchTables, terms: str, site: str, limit: int, candidates: int = CANDIDATES
) -> list[Hit]:
    """`search` over a store's tables."""
    phrase = words(terms) if _quoted(terms) else []
    query = list(dict.fromkeys(words(terms)))
    if not query or limit < 1:
        return []
    dialect = "postgresql" if is_postgresql(session) else "sqlite"
    values = {"query": fts_query(query), "terms": " ".join(query), "site": site, "cap": candidates}
    pages = session.execute(text(tables.candidates[dialect]), values).all()
    if not pages:
        return []
    ids = ", ".join(str(int(page_id)) for page_id, *_ in pages)
    rows = session.execute(text(tables.texts.format(ids=ids)))
    texts: dict[int, str] = {page_id: page_text or "" for page_id, page_text in rows}
    weights = _idf(session, tables, dialect, query)
    page_words = {page_id: words(texts.get(page_id, "")) for page_id, *_ in pages}
    average = sum(map(len, page_words.values())) / len(page_words) or 1.0
    # The title is a field of its own (a store that keeps none, like the baseline, scores its text alone).
    title_words = {page_id: words(title) for page_id, _, title, _ in pages}
    title_average = sum(map(len, title_words.values())) / len(title_words) or 1.0
    hits = []
    for page_id, url, title, host in pages:
        if phrase and not _holds(page_words[page_id], phrase):
            continue
        score = _bm25(page_words[page_id], weights, average) + _bm25(
            title_words[page_id], weights, title_average
        )
        hits.append(Hit(url, title, host, score, _snippet(texts.get(page_id, ""), query)))
    hits.sort(key=lambda hit: (-hit.score, hit.url))
    return hits[:limit]


def _matches(line_words: list[str], wanted: set[str]) -> tuple[int, int]:
    """How well a line matches: the query words it holds, then how often it holds them."""
    return len(wanted.intersection(line_words)), sum(word in wanted for word in line_words)


def _quoted(terms: str) -> bool:
    stripped = terms.strip()
    return len(stripped) > 1 and stripped[0] == stripped[-1] == '"'


def _holds(page_words: list[str], phrase: list[str]) -> bool:
    """Whether the words of a page hold the phrase's words one after another."""
    size = len(phrase)
    first = phrase[0]
    return any(
        page_words[index : index + size] == phrase for index, word in enumerate(page_words) if word == first
    )


def _idf(session: Session, tables: SearchTables, dialect: str, query: list[str]) -> dict[str, float]:
    """Each query word's inverse document frequency over the store's pages (BM25's, floored at 0)."""
    total = int(session.execute(text(tables.total)).scalar() or 0)
    if dialect == "sqlite":
        placeholders = ", ".join(f":w{index}" for index in range(len(query)))
        named = {f"w{index}": word for index, word in enumerate(query)}
        counts = dict(
            session.execute(text(tables.frequencies[dialect].format(words=placeholders)), named).all()
        )
    else:
        statement = text(tables.frequencies[dialect])
        counts = {word: session.execute(statement, {"word": word}).scalar() for word in query}
    return {
        word: max(0.0, math.log((total - df + 0.5) / (df + 0.5) + 1))
        for word, df in _frequencies(counts, query)
    }


def _frequencies(counts: dict[str, object], query: list[str]) -> list[tuple[str, int]]:
    return [(word, int(str(counts.get(word) or 0))) for word in query]


def _bm25(page_words: list[str], weights: dict[str, float], average: float) -> float:
    counts = Counter(word for word in page_words if word in weights)
    norm = _K1 * (1 - _B + _B * len(page_words) / average)
    return sum(weight * counts[word] * (_K1 + 1) / (counts[word] + norm) for word, weight in weights.items())


def _snippet(clean_text: str, query: list[str]) -> str:
    """The block (line) of the text that holds the most query words, cut to a window around the first, the
    words found in brackets."""
    wanted = set(query)
    lines = [line for line in clean_text.split("\n") if line.strip()]
    if not lines:
        return ""
    best = max(lines, key=lambda line: _matches(words(line), wanted))
    tokens = best.split()
    first = next((index for index, token in enumerate(tokens) if wanted & set(words(token))), 0)
    start = max(0, first - _SNIPPET_WORDS // 3)
    shown = [
        f"[{token}]" if wanted & set(words(token)) else token
        for token in tokens[start : start + _SNIPPET_WORDS]
    ]
    return (
        ("... " if start else "") + " ".join(shown) + (" ..." if start + _SNIPPET_WORDS < len(tokens) else "")
    )
