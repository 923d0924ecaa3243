"""The crawl lock on a real SQLite file and PostgreSQL schema: one holder at a time, gone with its process."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from pipelines.lock import CrawlLock, CrawlLockHeldError
from pipelines.storage import make_engine

HOLDER = """
import sys, time
from pipelines.lock import CrawlLock
from pipelines.storage import make_engine
lock = CrawlLock.acquire(make_engine(sys.argv[1]))
print("held", flush=True)
time.sleep(60)
"""


def test_one_holder_at_a_time(database_url: str) -> None:
    engine = make_engine(database_url)
    lock = CrawlLock.acquire(engine)
    with pytest.raises(CrawlLockHeldError, match="another crawl is running"):
        CrawlLock.acquire(engine)
    lock.release()
    CrawlLock.acquire(engine).release()
    engine.dispose()


def test_a_killed_holder_leaves_no_lock(database_url: str) -> None:
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, database_url], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        engine = make_engine(database_url)
        with pytest.raises(CrawlLockHeldError):
            CrawlLock.acquire(engine)
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=10)
        deadline = time.monotonic() + 10
        while True:  # PostgreSQL notices the dropped connection a moment later
            try:
                CrawlLock.acquire(engine).release()
                break
            except CrawlLockHeldError:
                assert time.monotonic() < deadline, "the lock outlived its killed holder"
                time.sleep(0.1)
        engine.dispose()
    finally:
        holder.kill()
