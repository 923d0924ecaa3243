"""`scrapy schedule`: runs a crawl on a timetable, each run in its own process; a run whose store another
crawl holds is skipped; bad arguments end it with one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pipelines.lock import CrawlLock
from pipelines.storage import make_engine
from tests.crawl_runner import FAST_SETTINGS, REPO_ROOT
from tests.crawler.pages import article
from tests.servers import page, serve_routes

PAGES = ["/", "/one", "/two"]


def _schedule(tmp_path: Path, seed: str, *options: str) -> subprocess.CompletedProcess[str]:
    settings = {**FAST_SETTINGS, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"}
    command = [sys.executable, "-m", "scrapy", "schedule", "site", "-a", f"seeds={seed}", *options]
    for name, value in settings.items():
        command += ["-s", f"{name}={value}"]
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False)


def test_each_run_is_an_incremental_recrawl_summed_up_in_one_line(tmp_path: Path) -> None:
    routes = {path: page(article(f"Page {path}", PAGES)) for path in PAGES}
    with serve_routes(routes) as server:
        done = _schedule(tmp_path, f"{server.base}/", "--every", "1s", "--runs", "2")

    assert done.returncode == 0, done.stderr[-3000:]
    assert (
        "Run 1 done: 0 due, 4 fetched, 0 not modified, 0 unchanged, 0 changed, 3 new, 0 gone" in done.stderr
    )
    # Nothing is due a second later: the second run fetches nothing.
    assert "Run 2 done: 3 due" not in done.stderr and "Run 2 done: 0 due, 0 fetched" in done.stderr
    assert server.requested.count("/one") == 1


def test_a_run_whose_store_another_crawl_holds_is_skipped(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    lock = CrawlLock.acquire(engine)
    try:
        with serve_routes({"/": page(article("Home"))}) as server:
            done = _schedule(tmp_path, f"{server.base}/", "--every", "1s", "--runs", "1")
    finally:
        lock.release()
        engine.dispose()
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Run 1 skipped: another crawl holds the store" in done.stderr
    assert server.requested == []


def test_a_bad_interval_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    done = _schedule(tmp_path, "http://127.0.0.1:9/", "--every", "soon")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith("scrapy schedule: --every soon")
