"""Processes sharing one store (``CRAWL_LOCK = False``): migrations of a new file at once, writers of one
SQLite file, two batches storing the same new URL, and races tried again (issue 15, rows 3, 4 and 12)."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from pipelines.storage import make_engine, migrate, session_factory, store_pages
from pipelines.storage.db import is_race, retry_races
from pipelines.storage.models import Page
from tests.pipelines.items import make_item

_PROCESSES = 4


def _migrate_at(url: str, start: float) -> None:
    time.sleep(max(0.0, start - time.time()))
    migrate(url)


def test_processes_migrating_a_new_file_at_once_all_succeed(tmp_path: Path) -> None:
    # Before BEGIN IMMEDIATE, one or more of them died with "database is locked" most times.
    url = f"sqlite:///{tmp_path / 'store.db'}"
    context = multiprocessing.get_context("spawn")
    start = time.time() + 4  # after every process has imported the store's modules
    processes = [context.Process(target=_migrate_at, args=(url, start)) for _ in range(_PROCESSES)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(120)
    assert [process.exitcode for process in processes] == [0] * _PROCESSES
    with sqlite3.connect(tmp_path / "store.db") as connection:
        assert connection.execute("SELECT count(*) FROM alembic_version").fetchone() == (1,)


def test_a_connection_waits_to_turn_a_file_another_process_writes_to_wal(tmp_path: Path) -> None:
    # A file still in rollback mode (another process creating it) refuses the change to WAL at once,
    # whatever busy_timeout says: before the wait, one of several processes starting on a new store died.
    path = tmp_path / "store.db"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("CREATE TABLE t (x INTEGER)")
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO t VALUES (1)")
    release = threading.Timer(0.5, holder.execute, ["COMMIT"])
    engine = make_engine(f"sqlite:///{path}")
    release.start()
    try:
        with engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar_one() == "wal"
    finally:
        release.join()
        holder.close()
        engine.dispose()


def test_a_sqlite_transaction_takes_the_write_lock_as_it_begins(tmp_path: Path) -> None:
    # A deferred transaction that read first could not wait for the lock when it came to write.
    path = tmp_path / "store.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with session_factory(engine)() as session:
            session.scalar(select(func.count()).select_from(Page))  # a transaction that has only read
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        other.execute("BEGIN IMMEDIATE")  # free again once it ended
        other.execute("ROLLBACK")
    finally:
        other.close()
        engine.dispose()


def test_a_race_is_tried_again_and_other_errors_are_not(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("CREATE TABLE t (x INTEGER)")
    holder.execute("BEGIN IMMEDIATE")  # another process writing, for half a second
    release = threading.Timer(0.5, holder.execute, ["COMMIT"])
    engine = create_engine(f"sqlite:///{path}", connect_args={"timeout": 0, "check_same_thread": False})
    attempts: list[float] = []

    def write() -> int:
        attempts.append(time.perf_counter())
        with engine.begin() as connection:
            connection.execute(text("INSERT INTO t VALUES (1)"))
            return int(connection.execute(text("SELECT count(*) FROM t")).scalar_one())

    release.start()
    try:
        assert retry_races(write, "Writing", delay=0.2) == 1
        assert len(attempts) >= 2  # the first met the lock
        with pytest.raises(OperationalError, match="no such table"):
            retry_races(lambda: engine.connect().execute(text("SELECT * FROM missing")), "Reading")
    finally:
        release.join()
        holder.close()
        engine.dispose()


def test_races_are_told_from_other_errors(sessions: sessionmaker[Session]) -> None:
    with sessions() as session, pytest.raises(DBAPIError) as missing:
        session.execute(text("SELECT * FROM no_such_table"))
    assert not is_race(missing.value)
    assert not is_race(ValueError("database is locked"))


def test_two_batches_storing_one_new_url_at_once_both_succeed(sessions: sessionmaker[Session]) -> None:
    # Issue 15 row 12: on PostgreSQL the second insert of the URL failed on uq_pages_url (UniqueViolation,
    # logged as an ERROR), then its batch was retried page by page.
    # The site and both clusters are stored already, so the batches race on the URL alone (each page's
    # cluster is its own: a batch that changed a cluster's row would make the other wait for it).
    homes = [
        make_item(f"https://shop.test/{name}", [(f"Home {name}.", "content")], cluster=name) for name in "ab"
    ]
    with sessions.begin() as session:
        store_pages(session, homes)
    first = make_item(
        "https://shop.test/new", [("First fetch of the page, long enough.", "content")], cluster="a"
    )
    second = make_item(
        "https://shop.test/new", [("Second fetch of the page, long enough.", "content")], cluster="b"
    )
    errors: list[BaseException] = []

    def store_second() -> None:
        try:
            with sessions.begin() as session:
                store_pages(session, [second])
        except IntegrityError as error:
            errors.append(error)

    with sessions.begin() as session:
        store_pages(session, [first])  # not committed yet: the other writer must wait for it
        racer = threading.Thread(target=store_second)
        racer.start()
        racer.join(1.0)
        assert racer.is_alive()  # waiting for this transaction
    racer.join(120)
    assert not errors, errors
    with sessions() as session:
        query = select(Page.stored_bytes).where(Page.url == "https://shop.test/new")
        rows = session.execute(query).scalars().all()
        clean = session.execute(text("SELECT text FROM clean_pages WHERE url LIKE '%/new'")).scalars().all()
    assert rows == [len(second.content_text.encode("utf-8"))]
    assert clean == [second.content_text]
