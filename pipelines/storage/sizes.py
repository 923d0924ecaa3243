"""What the store costs on disk, measured by the engine: per part, per site, and the whole file or database.

The parts are those of `store_size` (SQLite's `dbstat`, PostgreSQL's relation sizes): clean text, page
structure and hashes, search index, model state, crawl state, the schema, SQLite's free pages and
PostgreSQL's system catalog rows that describe the store. A site's
share is `index_savings`' (each part shared among the sites by their rows in it). The whole store is the
file on disk (SQLite, with its write-ahead log) or the database (PostgreSQL, `pg_database_size`); an empty
store's size, measured the same way on a new one, is what the schema costs before any page.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Connection, Engine, delete, insert, select, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from pipelines.storage.db import existing_engine, make_engine, migrate, reclaim, session_factory
from pipelines.storage.models import SEARCH_GIN_INDEX, SEARCH_INDEX, StoreMeasure, index_savings

# PostgreSQL's part for the catalog rows that describe the store (SQLite keeps them in its file's schema).
CATALOG = "system catalog"
PARTS = (
    "page text and structure",
    "block dictionary",
    "search index",
    "model state",
    "crawl state",
    "schema",
    "free pages",
    CATALOG,
)


@dataclass(frozen=True, slots=True)
class SiteSavings:
    """One row of the `index_savings` view: what the store holds for a site against what was fetched."""

    site: str
    pages: int
    raw_html_bytes: int
    visible_text_bytes: int
    clean_text_bytes: int
    stored_bytes: int
    stored_vs_html: float | None
    stored_vs_text: float | None


@dataclass(frozen=True, slots=True)
class StoreSize:
    """The store on disk: bytes per part, their sum, and the whole file or database as the system sees it."""

    parts: dict[str, int]
    on_disk: int
    dialect: str = "sqlite"

    @property
    def total(self) -> int:
        """The sum of the parts."""
        return sum(self.parts.values())

    @property
    def store_bytes(self) -> int:
        """The store's size: SQLite's file as `ls -l` shows it; PostgreSQL's tables and indexes (its
        database may hold other schemas, and always holds the catalog)."""
        return self.on_disk if self.dialect == "sqlite" else self.total - self.parts.get(CATALOG, 0)


def savings_by_site(session: Session) -> list[SiteSavings]:
    """The `index_savings` view, one row per site, by site name."""
    rows = session.execute(select(index_savings).order_by(index_savings.c.site))
    return [SiteSavings(*row) for row in rows]


def measure(engine: Engine) -> StoreSize:
    """Measure the store's relations on disk and record them (`store_measures`, the view `store_size`);
    its parts and its size on disk, after giving freed pages back (`reclaim`).

    The record itself takes room in the store: it is written first, then measured again, so that the
    figures include it.
    """
    reclaim(engine)
    with engine.begin() as connection:
        _record(connection, _relations(connection))
    reclaim(engine)
    with engine.begin() as connection:
        relations = _relations(connection)
        _record(connection, relations)
        on_disk = _on_disk(engine, connection.execute(text(_DATABASE_SIZE[engine.dialect.name])).scalar())
    parts = dict.fromkeys(PARTS, 0)
    for relation, size in relations.items():
        parts[part_of(relation)] += size
    if engine.dialect.name == "postgresql" and not _other_schemas(engine):
        parts[CATALOG] = _catalog_growth(engine)
    return StoreSize(parts, on_disk, engine.dialect.name)


def _catalog_growth(engine: Engine) -> int:
    """PostgreSQL: what the store's schema adds to the database's own catalog (the rows describing its
    tables, columns, indexes, views and constraints): the catalog's relations here less an empty
    database's (template1's), measured alike; 0 when template1 cannot be read."""
    here = _catalog_bytes(engine)
    empty = make_engine(engine.url.set(database="template1").render_as_string(hide_password=False))
    try:
        there = _catalog_bytes(empty)
    except SQLAlchemyError:
        return 0
    finally:
        empty.dispose()
    return max(0, here - there)


def _catalog_bytes(engine: Engine) -> int:
    # Shared catalogs (pg_database, pg_authid, ...) belong to the server, not to a database.
    query = (
        "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class AS c "
        "JOIN pg_namespace AS n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'm') "
        "AND NOT c.relisshared AND n.nspname IN ('pg_catalog', 'information_schema')"
    )
    with engine.connect() as connection:
        return int(connection.execute(text(query)).scalar() or 0)


def part_of(relation: str) -> str:
    """The part of the store a table or index holds: its table's (an index is named after its table)."""
    if relation == "freelist":
        return "free pages"
    if relation == SEARCH_GIN_INDEX:
        return "search index"
    name = _INDEX_PREFIX.sub("", relation)
    tables = [table for table in _PART_OF_TABLE if name == table or name.startswith(table + "_")]
    return _PART_OF_TABLE[max(tables, key=len)] if tables else "page text and structure"


# Index names: the naming convention's prefixes (`models.Base`), and SQLite's for a UNIQUE or PRIMARY KEY.
_INDEX_PREFIX = re.compile(r"^(?:pk_|uq_|ix_|sqlite_autoindex_)")
# The part each table holds (FTS5's shadow tables are named after page_search); any other table (pages,
# sites, clusters) holds the pages' text and structure.
_PART_OF_TABLE = {
    "pages.search": "search index",
    SEARCH_INDEX: "search index",
    "page_models": "model state",
    "model_places": "model state",
    "model_signatures": "model state",
    "pending_texts": "model state",
    "blocks": "block dictionary",
    "crawl_urls": "crawl state",
    "page_history": "crawl state",
    "sqlite_schema": "schema",
    "alembic_version": "schema",
    "rules": "schema",
    "store_measures": "schema",
}
_RELATIONS = {
    # dbstat cannot be read in a view (it is a direct-only virtual table): hence this query and the record.
    "sqlite": "SELECT name, sum(pgsize) FROM dbstat GROUP BY name "
    "UNION ALL SELECT 'freelist', freelist_count * page_size "
    "FROM pragma_freelist_count(), pragma_page_size()",
    # Tables with their TOAST data, and indexes apart (every fork: an index's free space map too); the
    # search words kept in pages.search apart too.
    "postgresql": "SELECT c.relname, CASE WHEN c.relkind = 'i' THEN pg_total_relation_size(c.oid) "
    "ELSE pg_table_size(c.oid) END FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace "
    "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i')",
}


def _relations(connection: Connection) -> dict[str, int]:
    dialect = connection.dialect.name
    sizes = {name: int(size or 0) for name, size in connection.execute(text(_RELATIONS[dialect]))}
    if dialect == "postgresql":
        query = text("SELECT coalesce(sum(pg_column_size(search)), 0) FROM pages")
        words = int(connection.execute(query).scalar() or 0)
        sizes["pages"] -= words
        sizes["pages.search"] = words
    return sizes


def _record(connection: Connection, relations: dict[str, int]) -> None:
    now = datetime.now(UTC)
    if connection.dialect.name == "postgresql":
        # Processes that share a store measure it as they stop, at once: one replaces the rows at a time
        # (SQLite's writer lock already does so).
        connection.execute(text("LOCK TABLE store_measures IN SHARE ROW EXCLUSIVE MODE"))
    connection.execute(delete(StoreMeasure))
    rows = [
        {"relation": name, "part": part_of(name), "bytes": size, "measured_at": now}
        for name, size in sorted(relations.items())
    ]
    connection.execute(insert(StoreMeasure), rows)


def empty_store_size(engine: Engine) -> int:
    """What a store takes before any page: SQLite, a new migrated file; PostgreSQL, an empty database (the
    server's template1: the catalog every database carries)."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            return int(connection.execute(text("SELECT pg_database_size('template1')")).scalar() or 0)
    with tempfile.TemporaryDirectory() as tmp:
        empty = make_engine(f"sqlite:///{Path(tmp) / 'empty.db'}")
        try:
            migrate(empty)
            return measure(empty).on_disk
        finally:
            empty.dispose()


_DATABASE_SIZE = {
    "sqlite": "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
    "postgresql": "SELECT pg_database_size(current_database())",
}


def _on_disk(engine: Engine, reported: object) -> int:
    """SQLite: the database file and its write-ahead log as `ls -l` lists them; else what the server says."""
    database = engine.url.database
    if engine.dialect.name == "sqlite" and database:
        files = [Path(database), Path(database + "-wal")]
        return sum(path.stat().st_size for path in files if path.exists())
    return int(str(reported))


@dataclass(frozen=True, slots=True)
class SavingsReport:
    """A store measured: its sites, its size by part and on disk, what an empty store takes, and whether
    its database holds other schemas' tables too (PostgreSQL: its size is then not the store's)."""

    url: str
    dialect: str
    sites: list[SiteSavings]
    size: StoreSize
    empty: int
    shared_database: bool = False


def savings_report(url: str) -> SavingsReport:
    """Measure the store at `url`, which must exist (`StoreMissingError` otherwise)."""
    engine = existing_engine(url)
    try:
        size = measure(engine)
        with session_factory(engine)() as session:
            sites = savings_by_site(session)
        dialect = engine.dialect.name
        shown = engine.url.render_as_string(hide_password=True)
        empty, shared = empty_store_size(engine), _other_schemas(engine)
    finally:
        engine.dispose()
    return SavingsReport(shown, dialect, sites, size, empty, shared)


def _other_schemas(engine: Engine) -> bool:
    """PostgreSQL: whether tables of other schemas share the store's database."""
    if engine.dialect.name != "postgresql":
        return False
    query = (
        "SELECT count(*) FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace "
        "WHERE c.relkind = 'r' AND n.nspname <> current_schema() AND n.nspname NOT IN "
        "('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_%'"
    )
    with engine.connect() as connection:
        return bool(connection.execute(text(query)).scalar())
