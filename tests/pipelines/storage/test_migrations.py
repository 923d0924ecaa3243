"""The Alembic history: creates the schema the models describe, views included; a no-op when current."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, event, inspect, text

from pipelines.storage import make_engine, migrate
from pipelines.storage.db import MIGRATIONS_DIR
from pipelines.storage.models import Base

TABLES = {"alembic_version", "sites", "clusters", "pages", "blocks", "page_blocks", "cluster_block_counts"}
VIEWS = {"clean_pages", "index_savings"}


def test_migrating_twice_is_a_noop(database_url: str) -> None:
    migrate(database_url)
    engine = make_engine(database_url)
    statements: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    try:
        migrate(engine)
        with engine.connect() as connection:
            version = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    finally:
        engine.dispose()
    assert version == ["0003"]  # the latest migration: 0003_no_final_url
    changes = [sql for sql in statements if sql.lstrip().split()[0].upper() in {"CREATE", "ALTER", "DROP"}]
    assert changes == []


def test_the_models_match_the_migrations(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        migrate(engine)
        with engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    finally:
        engine.dispose()
    assert differences == []


def test_tables_and_views_land_in_the_database_schema(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        migrate(engine)
        with engine.connect() as connection:
            inspector = inspect(connection)
            tables, views = set(inspector.get_table_names()), set(inspector.get_view_names())
            schema = _current_schema(connection)
    finally:
        engine.dispose()
    assert tables == TABLES
    assert views == VIEWS
    assert schema is None or schema.startswith("cc_")  # PostgreSQL: the test's own schema


def test_index_savings_documents_stored_bytes(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        migrate(engine)
        with engine.connect() as connection:
            documentation = _view_documentation(connection, "index_savings")
    finally:
        engine.dispose()
    assert "stored_bytes = UTF-8 bytes of the distinct informative (content) block texts" in documentation
    assert "8 bytes (one 64-bit block hash) per page_blocks row" in documentation


def _current_schema(connection: Connection) -> str | None:
    if connection.dialect.name != "postgresql":
        return None
    return str(connection.scalar(text("SELECT current_schema()")))


def _view_documentation(connection: Connection, view: str) -> str:
    """The view's SQL with its comments (SQLite keeps them) or its catalog comment (PostgreSQL)."""
    if connection.dialect.name == "postgresql":
        query = text("SELECT obj_description(CAST(:view AS regclass), 'pg_class')")
    else:
        query = text("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = :view")
    return connection.scalar(query, {"view": view}) or ""


def _upgrade(connection: Connection, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def test_pages_stored_under_0002_keep_their_rows_and_lose_only_final_url(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        with engine.begin() as connection:
            _upgrade(connection, "0002")
            connection.execute(text("INSERT INTO sites (id, host) VALUES (1, 'a.example')"))
            connection.execute(
                text(
                    "INSERT INTO pages (id, url, final_url, status, fetched_at, title, site_id, "
                    "raw_html_bytes, visible_text_bytes, stored_bytes, content_hash) VALUES (1, "
                    "'http://a.example/', 'http://a.example/', 200, '2026-11-22 12:00:00+00', 'A page', 1, "
                    "100, 10, 5, 'abc')"
                )
            )
        migrate(engine)
        with engine.connect() as connection:
            columns = {column["name"] for column in inspect(connection).get_columns("pages")}
            row = connection.execute(text("SELECT url, title, site FROM clean_pages")).one()
    finally:
        engine.dispose()
    assert "final_url" not in columns
    assert tuple(row) == ("http://a.example/", "A page", "a.example")
