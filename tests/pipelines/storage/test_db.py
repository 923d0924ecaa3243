"""The SQLite file gives back what the store forgets: freed pages at once (incremental vacuum), the room
rows leave as they change when the crawl ends (`compact`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import delete

from pipelines.storage import make_engine, migrate, session_factory, store_pages
from pipelines.storage.db import compact, reclaim
from pipelines.storage.models import SEARCH_INDEX, PendingText
from tests.pipelines.items import make_item


def on_disk(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, path.with_name(path.name + "-wal")) if p.exists())


def filled(path: Path, pages: int, keep_noise_text: bool = False) -> None:
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    items = [
        make_item(
            f"https://shop.test/{index}",
            [(f"Noise line {index} " * 40, "noise"), (f"Text {index}.", "content")],
        )
        for index in range(pages)
    ]
    with session_factory(engine).begin() as session:
        store_pages(session, items, keep_noise_text=keep_noise_text)
    engine.dispose()


def test_a_new_store_gives_freed_pages_back(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    filled(path, 300, keep_noise_text=True)
    engine = make_engine(f"sqlite:///{path}")
    reclaim(engine)
    before = on_disk(path)
    with session_factory(engine).begin() as session:
        session.execute(delete(PendingText))  # what the crawl's last re-clean forgets
    reclaim(engine)
    engine.dispose()
    assert on_disk(path) < before - 300 * 40 * 10  # the noise texts' pages went back to the file system


def test_a_store_made_before_incremental_vacuum_is_converted(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE t (x)")  # a file made without auto_vacuum
    connection.close()
    migrate(f"sqlite:///{path}")
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA auto_vacuum").fetchone()[0] == 2  # incremental
    connection.close()


def test_compacting_gives_back_the_room_rewritten_rows_left(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    filled(path, 2000)
    engine = make_engine(f"sqlite:///{path}")
    # Rewrite every other page with a shorter text: the rows leave holes in their pages.
    items = [make_item(f"https://shop.test/{index}", [("Short.", "content")]) for index in range(0, 2000, 2)]
    with session_factory(engine).begin() as session:
        store_pages(session, items)
    reclaim(engine)
    before = on_disk(path)
    assert compact(engine, [SEARCH_INDEX])
    engine.dispose()
    assert on_disk(path) < 0.95 * before
