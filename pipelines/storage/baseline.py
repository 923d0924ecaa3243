"""The baseline store a crawl's savings are measured against: every page's visible text in one row, on the
same engine, with the same full-text index as the clean store (FTS5 with the same tokenizer on SQLite; a
"simple" tsvector under a GIN index on PostgreSQL).

It is what an indexer that keeps pages whole but drops their markup would hold; a crawl writes it beside its
own store when ``BASELINE_DATABASE_URL`` is set (`pipelines.baseline.BaselinePipeline`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

from pipelines.storage.db import StoreMissingError, compact, make_engine, reclaim
from pipelines.storage.search import Hit, SearchTables, search_store
from pipelines.storage.search_index import FTS_TOKENIZER, TS_CONFIG, index_text, search_vector
from records import site_of

_SCHEMA = {
    "sqlite": [
        "CREATE TABLE IF NOT EXISTS baseline_pages (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, "
        "text TEXT NOT NULL)",
        "CREATE VIRTUAL TABLE IF NOT EXISTS baseline_search USING fts5(text, content='baseline_pages', "
        f"content_rowid='id', tokenize='{FTS_TOKENIZER}', detail=none, columnsize=0)",
        "CREATE VIRTUAL TABLE IF NOT EXISTS baseline_search_vocabulary USING fts5vocab(baseline_search, row)",
    ],
    "postgresql": [
        "CREATE TABLE IF NOT EXISTS baseline_pages (id serial PRIMARY KEY, url text NOT NULL UNIQUE, "
        "text text NOT NULL, search tsvector)",
        "CREATE INDEX IF NOT EXISTS ix_baseline_search ON baseline_pages USING gin (search)",
    ],
}
_DELETE = {
    "sqlite": [
        "INSERT INTO baseline_search(baseline_search, rowid, text) "
        "SELECT 'delete', id, text FROM baseline_pages WHERE url = :url",
        "DELETE FROM baseline_pages WHERE url = :url",
    ],
    "postgresql": ["DELETE FROM baseline_pages WHERE url = :url"],
}
_INSERT = {
    "sqlite": [
        "INSERT INTO baseline_pages (url, text) VALUES (:url, :text)",
        "INSERT INTO baseline_search(rowid, text) SELECT id, text FROM baseline_pages WHERE url = :url",
    ],
    "postgresql": [
        f"INSERT INTO baseline_pages (url, text, search) VALUES (:url, :text, {search_vector(':words')})"
    ],
}
BASELINE_STORE = SearchTables(
    candidates={
        "sqlite": """
            SELECT p.id, p.url, '', ''
            FROM baseline_search JOIN baseline_pages AS p ON p.id = baseline_search.rowid
            WHERE baseline_search MATCH :query AND (:site = '' OR p.url LIKE '%//' || :site || '/%')
            ORDER BY length(p.text), p.id LIMIT :cap""",
        "postgresql": f"""
            SELECT id, url, '', '' FROM baseline_pages
            WHERE search @@ plainto_tsquery('{TS_CONFIG}', :terms)
                AND (:site = '' OR url LIKE '%//' || :site || '/%')
            ORDER BY length(text), id LIMIT :cap""",
    },
    texts="SELECT id, text FROM baseline_pages WHERE id IN ({ids})",
    frequencies={
        "sqlite": "SELECT term, doc FROM baseline_search_vocabulary WHERE term IN ({words})",
        "postgresql": f"SELECT count(*) FROM baseline_pages WHERE search @@ to_tsquery('{TS_CONFIG}', :word)",
    },
    total="SELECT count(*) FROM baseline_pages",
)
# The baseline's size as the clean store's is counted: SQLite, its whole file (a file of its own);
# PostgreSQL, its table with its indexes and TOAST data.
_SIZE = {
    "sqlite": "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
    "postgresql": "SELECT pg_total_relation_size('baseline_pages')",
}


class BaselineStore:
    """A baseline store at a database URL, created when missing."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self.dialect = self.engine.dialect.name
        self.written = 0
        with self.engine.begin() as connection:
            for statement in _SCHEMA[self.dialect]:
                connection.execute(text(statement))

    def write(self, pages: Sequence[tuple[str, str]]) -> None:
        """Store (URL, visible text) pairs in one transaction, a URL stored again replacing its row."""
        rows = [{"url": url, "text": visible, "words": index_text(visible)} for url, visible in pages]
        if not rows:
            return
        with self.engine.begin() as connection:
            for statement in (*_DELETE[self.dialect], *_INSERT[self.dialect]):
                connection.execute(text(statement), rows)
        self.written += len(rows)

    def close(self, compact_share: float = 0.0) -> None:
        """Compact as the clean store is compacted (when this process wrote at least `compact_share` of the
        pages, `pipelines.storage.db.compact`), give freed pages back and release the connections."""
        with self.engine.connect() as connection:
            stored = int(connection.execute(text("SELECT count(*) FROM baseline_pages")).scalar() or 0)
        if self.written and self.written >= compact_share * stored:
            compact(self.engine, ["baseline_search"], ["baseline_pages"])
        reclaim(self.engine)
        self.engine.dispose()


@dataclass(frozen=True, slots=True)
class BaselineSize:
    """The baseline store's tables and indexes on disk, in all and shared among the sites by their text."""

    total: int
    sites: dict[str, int]


def baseline_size(url: str) -> BaselineSize:
    """Measure an existing baseline store."""
    engine = _existing(url)
    try:
        reclaim(engine)
        with engine.connect() as connection:
            total = int(connection.execute(text(_SIZE[engine.dialect.name])).scalar() or 0)
            rows = connection.execute(text("SELECT url, length(text) FROM baseline_pages")).all()
    finally:
        engine.dispose()
    weights: dict[str, int] = defaultdict(int)
    for page_url, size in rows:
        weights[site_of(page_url)] += int(size)
    whole = sum(weights.values()) or 1
    return BaselineSize(total, {site: round(total * weight / whole) for site, weight in weights.items()})


def baseline_search(session: Session, terms: str, limit: int = 10) -> list[Hit]:
    """The baseline's pages that hold every word of `terms`, ranked as `search` ranks the clean store's."""
    return search_store(session, BASELINE_STORE, terms, "", limit)


def _existing(url: str) -> Engine:
    engine = make_engine(url)
    database = engine.url.database
    if engine.dialect.name == "sqlite" and not (database and Path(database).is_file()):
        engine.dispose()
        raise StoreMissingError(f"no such database: {database or url}")
    with engine.connect() as connection:
        exists = connection.execute(
            text(
                "SELECT count(*) FROM sqlite_master WHERE name = 'baseline_pages'"
                if engine.dialect.name == "sqlite"
                else "SELECT count(*) FROM information_schema.tables WHERE table_name = 'baseline_pages' "
                "AND table_schema = current_schema()"
            )
        ).scalar()
    if not exists:
        engine.dispose()
        raise StoreMissingError(f"{url} holds no baseline store (crawl with -s BASELINE_DATABASE_URL=...)")
    return engine
