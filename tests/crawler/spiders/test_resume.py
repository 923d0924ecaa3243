"""Resume: `kill -9` a crawl at several points, run the same command again, and the crawl goes on.

The crawl state is written with each batch of pages, so the second run loses no stored page, stores no
page twice, crawls every URL the first one queued, and fetches again only what the first one had in
flight or in its unflushed batch. On a real SQLite file and a real PostgreSQL schema; the site is an
evolving site frozen in time (`benchmarks.evolving`) whose fetch log counts every request.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from sqlalchemy import text

from benchmarks.evolving import ChangeClass, EvolvingConfig, EvolvingSite, Fetch, serve_evolving
from pipelines.storage import make_engine
from tests.crawl_runner import REPO_ROOT, crawl_command, run_crawl

ARTICLES = 100
BATCH = 10
CONCURRENCY = 4
# Fetches answered when the crawl is killed: before its first batch is written, midway, near its end.
KILL_AFTER = (3, 45, 110)


def _wait_for(condition: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def _settled(site: EvolvingSite) -> list[Fetch]:
    """The fetch log once the server has answered what the killed crawl had asked (its threads may still be
    writing when the process is gone)."""
    before = -1
    while before != len(site.fetches):
        before = len(site.fetches)
        time.sleep(0.3)
    return list(site.fetches)


def _rows(database_url: str, query: str) -> list[tuple[object, ...]]:
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(query))]
    finally:
        engine.dispose()


@pytest.mark.parametrize("kill_after", KILL_AFTER)
def test_kill_9_then_the_same_command_goes_on(tmp_path: Path, database_url: str, kill_after: int) -> None:
    config = EvolvingConfig(classes=(ChangeClass("static", 1.0, None),), growth=0, removal=0)
    site = EvolvingSite(5, ARTICLES, config=config)
    settings = {
        "DATABASE_URL": database_url,
        "STORAGE_BATCH_SIZE": str(BATCH),
        "CONCURRENT_REQUESTS_PER_DOMAIN": str(CONCURRENCY),
        "RECRAWL_NOW": site.now.isoformat(),
    }
    with serve_evolving(site) as base:
        command, _ = crawl_command(tmp_path, f"{base}/", settings=settings)
        crawl = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_for(lambda: len(site.fetches) >= kill_after or crawl.poll() is not None, timeout=120)
        crawl.kill()
        assert crawl.wait() == -9, "the crawl ended before it could be killed"
        first = _settled(site)
        killed = _paths(first)
        stored_at_kill = {str(url).removeprefix(base) for (url,) in _rows(database_url, STORED)}
        rerun = run_crawl(tmp_path, f"{base}/", settings=settings)
        stored = [str(url).removeprefix(base) for (url,) in _rows(database_url, STORED)]
        resumed = _paths(site.fetches[len(first) :])

    assert rerun.returncode == 0, rerun.log[-3000:]
    live = {*site.paths_at(site.now), *site.listing_paths_at(site.now), "/about/"}
    assert sorted(stored) == sorted(live)  # each page once, none lost
    assert _rows(database_url, "SELECT count(*) FROM page_history") == [(0,)]
    assert len(resumed) == len(set(resumed)) and set(killed) | set(resumed) == live
    # Fetched again: exactly the pages the killed crawl had fetched and not written yet (in flight, waiting
    # for extraction, or in the batch being filled); never a stored one.
    assert set(killed) & set(resumed) == set(killed) - stored_at_kill


STORED = "SELECT url FROM clean_pages"


def _paths(fetches: Sequence[Fetch]) -> list[str]:
    return [fetch.path for fetch in fetches if fetch.path != "/robots.txt"]
