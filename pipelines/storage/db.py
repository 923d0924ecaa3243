"""Engine and session factory of the store, and the Alembic upgrade that creates or updates its schema."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

if TYPE_CHECKING:
    from alembic.config import Config

logger = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
# Any constant will do: it only has to be the same in every crawler process sharing one PostgreSQL database.
_MIGRATION_LOCK_ID = 0x636C65616E  # "clean"
# PRAGMA auto_vacuum's value for incremental vacuum.
_INCREMENTAL = 2
# How long a SQLite writer waits for another process's write transaction before it gives up.
_BUSY_TIMEOUT_MS = 60_000
# A transaction the database aborted for a race with another process (SQLite busy past the timeout,
# PostgreSQL deadlock or serialization failure) is tried again this many times, after 1, 2, 4, ... s.
_RETRIES = 5
# PostgreSQL's SQLSTATEs of a transaction aborted by a race: serialization_failure, deadlock_detected,
# lock_not_available.
_RACE_SQLSTATES = frozenset({"40001", "40P01", "55P03"})

T = TypeVar("T")


class StoreError(Exception):
    """A store that cannot be used: a bad URL, a file or server that cannot be opened, no store there."""


class StoreMissingError(StoreError):
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
                raise StoreMissingError(f"{_shown(engine)} holds no cleancrawl store (run a crawl first)")
        migrate(engine)
    except SQLAlchemyError as error:
        engine.dispose()
        raise StoreMissingError(f"cannot open {_shown(engine)}: {describe(error)}") from None
    except StoreMissingError:
        engine.dispose()
        raise
    return engine


def check_store(url: str) -> None:
    """Open the store a crawl will write, creating it as the crawl would, or raise `StoreError` saying why
    it cannot be (a bad URL, a directory that does not exist, a file or server that cannot be opened)."""
    engine = make_engine(url)
    try:
        database = engine.url.database
        if engine.dialect.name == "sqlite" and database and not Path(database).parent.is_dir():
            raise StoreError(f"cannot open {_shown(engine)}: no such directory: {Path(database).parent}")
        with engine.connect():
            pass
    except SQLAlchemyError as error:
        raise StoreError(f"cannot open {_shown(engine)}: {describe(error)}") from None
    finally:
        engine.dispose()


def describe(error: BaseException) -> str:
    """An exception as one line: its class and the first line of its message (the driver's, if any)."""
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    return f"{cause.__class__.__name__}: {lines[0] if lines else ''}".rstrip(": ")


def _shown(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=True)


def make_engine(url: str) -> Engine:
    """An engine for `url` (sqlite:///... or postgresql+psycopg://...), set up for batched crawl writes;
    `StoreError` when the URL names no database SQLAlchemy can open."""
    try:
        # JSON without spaces: a page's block array is one of the larger things the store keeps.
        engine = create_engine(url, pool_pre_ping=True, json_serializer=_compact_json)
    except (ArgumentError, NoSuchModuleError, ImportError, ValueError) as error:
        # ImportError: a driver that is not installed; ValueError: a port that is not a number.
        reason = f"{error.__class__.__name__}: {error}"
        raise StoreError(
            f"bad database URL {url!r} ({reason}); expected sqlite:///PATH or "
            "postgresql+psycopg://USER@HOST:PORT/DB"
        ) from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: object) -> None:
    # The sqlite3 module opens transactions only before DML, so a batch's leading SELECTs and a migration's
    # DDL would run outside them; switching its handling off lets `_sqlite_begin` start every transaction.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    # First: the pragmas below wait for another process creating or migrating the same new file.
    cursor.execute(f"PRAGMA busy_timeout={_BUSY_TIMEOUT_MS}")
    # Pages freed (noise text forgotten, a page rewritten) go back to the file by `reclaim`; this takes
    # effect in a new database only (`migrate` converts an older one once).
    cursor.execute("PRAGMA auto_vacuum=INCREMENTAL")
    # WAL: readers (`scrapy savings`, ad-hoc queries) never block the crawl's writer, and a commit costs one
    # append instead of a journal rewrite. NORMAL sync is crash-safe in WAL mode (a power cut may lose only
    # the last commits, never corrupt the file). SQLite enforces foreign keys only when asked.
    _set_wal(cursor)
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _set_wal(cursor: sqlite3.Cursor) -> None:
    """Put the file in WAL mode, waiting for another process that does so at the same moment: writing a new
    file's first header takes an exclusive lock SQLite does not wait for (busy_timeout does not apply)."""
    deadline = time.monotonic() + _BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _sqlite_begin(connection: Connection) -> None:
    # IMMEDIATE: a transaction takes the write lock as it starts, waiting for another process's writer
    # (busy_timeout). A deferred one that reads first and writes later fails at once with "database is
    # locked" when another process wrote in between (SQLite cannot wait there without risking a deadlock):
    # two crawls sharing a file, two migrations of a new file. Readers are not blocked (WAL).
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def is_race(error: BaseException) -> bool:
    """True when the database aborted the statement for a race with another process, so that the same
    transaction may well succeed when tried again: SQLite busy or locked, a PostgreSQL deadlock,
    serialization failure or lock timeout."""
    if not isinstance(error, DBAPIError):
        return False
    original = error.orig
    if isinstance(original, sqlite3.OperationalError):
        return "locked" in str(original) or "busy" in str(original)
    return getattr(original, "sqlstate", None) in _RACE_SQLSTATES


def retry_races(work: Callable[[], T], what: str, retries: int = _RETRIES, delay: float = 1.0) -> T:
    """`work()`, tried again after a race with another process (`is_race`), up to `retries` times with a
    doubling pause; any other error, or the last race, is raised. `what` names the work in the warnings."""
    for attempt in range(retries):
        try:
            return work()
        except DBAPIError as error:
            if not is_race(error):
                raise
            pause = delay * 2**attempt
            logger.warning("%s: %s; trying again in %.0f s", what, describe(error), pause)
            time.sleep(pause)
    return work()


def _compact_json(value: object) -> str:
    # Text as UTF-8, not \u escapes: an escape takes 6 bytes for a character UTF-8 writes in 2 or 3.
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


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
        # One transaction (SQLite: BEGIN IMMEDIATE), so that processes starting together on a new store
        # create it once: the others wait, then find it up to date.
        with engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # Two crawler processes starting together must not both create the tables.
                connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": _MIGRATION_LOCK_ID})
            if _revision(connection) != head_revision():
                _upgrade(connection)
        _incremental_vacuum(engine)
    finally:
        if isinstance(target, str):
            engine.dispose()


def head_revision() -> str:
    """The newest migration's revision: each migration's file is named after its revision
    (`0010_veiled_rule.py` is revision "0010"), one after the other."""
    return max(path.name[:4] for path in (MIGRATIONS_DIR / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))


def _revision(connection: Connection) -> str | None:
    """The store's revision (None: no store yet)."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _upgrade(connection: Connection) -> None:
    from alembic import command

    command.upgrade(alembic_config(connection), "head")


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration of the store's migrations, run on `connection` when one is given."""
    # Alembic is imported here, not with this module: most crawls open a store that is up to date, and
    # importing it is a third of a second that every crawl's start would pay.
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


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
