"""Engine and session factory of the store, and the Alembic upgrade that creates or updates its schema."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

logger = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
# Any constant will do: it only has to be the same in every crawler process sharing one PostgreSQL database.
_MIGRATION_LOCK_ID = 0x636C65616E  # "clean"
# PRAGMA auto_vacuum's value for incremental vacuum.
_INCREMENTAL = 2


class StoreMissingError(Exception):
    """There is no store at a URL a command was given (it must not be created by reading it)."""


def existing_engine(url: str) -> Engine:
    """An engine on a store that exists (a SQLite file, a PostgreSQL database holding a store), migrated to
    the latest schema; `StoreMissingError` says what is missing otherwise."""
    engine = make_engine(url)
    try:
        if engine.dialect.name == "sqlite":
            database = engine.url.database
            if not database or not Path(database).is_file():
                raise StoreMissingError(f"no such database: {database or url} (run a crawl first)")
        with engine.connect() as connection:
            if not inspect(connection).has_table("alembic_version"):
                raise StoreMissingError(f"{engine.url} holds no cleancrawl store (run a crawl first)")
        migrate(engine)
    except SQLAlchemyError as error:
        engine.dispose()
        reason = f"{error.__class__.__name__}: {_first_line(error)}"
        raise StoreMissingError(f"cannot open {engine.url}: {reason}") from None
    except StoreMissingError:
        engine.dispose()
        raise
    return engine


def _first_line(error: SQLAlchemyError) -> str:
    return str(getattr(error, "orig", None) or error).strip().splitlines()[0]


def make_engine(url: str) -> Engine:
    """An engine for `url` (sqlite:///... or postgresql+psycopg://...), set up for batched crawl writes."""
    # JSON without spaces: a page's block array is one of the larger things the store keeps.
    engine = create_engine(url, pool_pre_ping=True, json_serializer=_compact_json)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: object) -> None:
    # The sqlite3 module opens transactions only before DML, so a batch's leading SELECTs and a migration's
    # DDL would run outside them; switching its handling off lets `_sqlite_begin` start every transaction.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    # Pages freed (noise text forgotten, a page rewritten) go back to the file by `reclaim`; this takes
    # effect in a new database only (`migrate` converts an older one once).
    cursor.execute("PRAGMA auto_vacuum=INCREMENTAL")
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


def _compact_json(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def reclaim(engine: Engine) -> None:
    """Give the space of freed pages back to the file system (SQLite; PostgreSQL's autovacuum does it)."""
    if engine.dialect.name != "sqlite":
        return
    # On the driver's connection, outside a transaction (neither pragma runs within one), and as a script:
    # incremental_vacuum frees one page per step, and the sqlite3 module's execute() steps once.
    connection = engine.raw_connection()
    try:
        connection.driver_connection.executescript(  # type: ignore[union-attr]
            "PRAGMA incremental_vacuum; PRAGMA wal_checkpoint(TRUNCATE);"
        )
    finally:
        connection.close()


def compact(engine: Engine, full_text_tables: Sequence[str], tables: Sequence[str] = ()) -> bool:
    """Rewrite the store so that it holds no room that rows and index entries left as they changed; True
    when it did. SQLite: merge each full-text index into one segment, then VACUUM the file. PostgreSQL:
    VACUUM FULL each of `tables` (a row rewritten leaves its old version behind until then; each table is
    locked while it is rewritten). It takes about as long as copying the store, and needs room for the
    copy (without it the store is left as it was)."""
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            for table in tables:
                connection.exec_driver_sql(f"VACUUM FULL {table}")
        return bool(tables)
    with engine.begin() as connection:
        for table in full_text_tables:
            connection.exec_driver_sql(f"INSERT INTO {table}({table}) VALUES ('optimize')")
    raw = engine.raw_connection()
    try:
        # VACUUM runs outside a transaction, on the driver's connection.
        raw.driver_connection.execute("VACUUM")  # type: ignore[union-attr]
    except sqlite3.OperationalError as error:
        logger.warning("Could not compact the store (%s); it keeps its unused space", error)
        return False
    finally:
        raw.close()
    reclaim(engine)
    return True


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
        _incremental_vacuum(engine)
    finally:
        if isinstance(target, str):
            engine.dispose()


def _incremental_vacuum(engine: Engine) -> None:
    """Turn a SQLite store made before incremental vacuum on (it takes one VACUUM, outside a transaction)."""
    if engine.dialect.name != "sqlite":
        return
    raw = engine.raw_connection()
    try:
        # On the driver's connection: VACUUM runs outside a transaction.
        driver = raw.driver_connection
        if driver.execute("PRAGMA auto_vacuum").fetchone()[0] != _INCREMENTAL:  # type: ignore[union-attr]
            driver.executescript("PRAGMA auto_vacuum=INCREMENTAL; VACUUM;")  # type: ignore[union-attr]
    finally:
        raw.close()
