"""Engine and session factory of the store, and the Alembic upgrade that creates or updates its schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
# Any constant will do: it only has to be the same in every crawler process sharing one PostgreSQL database.
_MIGRATION_LOCK_ID = 0x636C65616E  # "clean"


def make_engine(url: str) -> Engine:
    """An engine for `url` (sqlite:///... or postgresql+psycopg://...), set up for batched crawl writes."""
    engine = create_engine(url, pool_pre_ping=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: object) -> None:
    # The sqlite3 module opens transactions only before DML, so a batch's leading SELECTs and a migration's
    # DDL would run outside them; switching its handling off lets `_sqlite_begin` start every transaction.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    # WAL: readers (`scrapy savings`, ad-hoc queries) never block the crawl's writer, and a commit costs one
    # append instead of a journal rewrite. NORMAL sync is crash-safe in WAL mode (a power cut may lose only
    # the last commits, never corrupt the file). SQLite enforces foreign keys only when asked.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN")


def session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions bound to `engine`; use `with factory.begin() as session:` for one transaction."""
    return sessionmaker(engine, expire_on_commit=False)


def migrate(target: Engine | str) -> None:
    """Create the schema or upgrade it to the latest migration (a no-op when it is up to date)."""
    engine = make_engine(target) if isinstance(target, str) else target
    try:
        with engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # Two crawler processes starting together must not both create the tables.
                connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": _MIGRATION_LOCK_ID})
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS_DIR))
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    finally:
        if isinstance(target, str):
            engine.dispose()
