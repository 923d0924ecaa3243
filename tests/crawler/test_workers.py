"""Extraction in worker processes (`crawler.workers`, ``CRAWL_EXTRACTION_WORKERS``): what a crawl stores is
the same with a worker as without, and a worker that dies costs no page."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from benchmarks.localserver import serve_directory
from records import stats
from tests.crawl_runner import REPO_ROOT, CrawlRun, clean_texts, crawl_command, ok, run_crawl
from tests.crawler.pages import article
from tests.extraction.site_models.pages import DEBIAN_HANDBOOK
from tests.servers import Route, page, serve_routes

pytestmark = pytest.mark.slow


def test_a_crawl_stores_the_same_pages_with_a_worker_as_without(tmp_path: Path) -> None:
    if not (DEBIAN_HANDBOOK / "index.html").is_file():
        pytest.skip(f"{DEBIAN_HANDBOOK} is missing (apt-get install debian-handbook, or `make docs-data`)")
    with serve_directory(DEBIAN_HANDBOOK) as base:
        runs = {
            workers: ok(
                run_crawl(
                    tmp_path,
                    f"{base}/index.html",
                    database=tmp_path / f"workers-{workers}.sqlite",
                    settings={"CRAWL_EXTRACTION_WORKERS": str(workers)},
                )
            )
            for workers in (0, 1)
        }
    inline, pooled = (clean_texts(tmp_path / f"workers-{workers}.sqlite") for workers in (0, 1))
    assert len(inline) >= 100
    assert pooled == inline
    assert runs[0].stat(stats.PAGES_EXTRACTED_IN_WORKERS) == 0
    # The first pages may come before the worker has started: those are extracted in the crawl process.
    assert runs[1].stat(stats.PAGES_EXTRACTED_IN_WORKERS) >= len(inline) // 2
    assert "in 1 worker process" in runs[1].log and "in the crawl process" in runs[0].log


PAGES = 40
FIRST = 10  # pages answered once the worker is up; the rest once it has been killed


def _held(route: Route, gate: threading.Event) -> Route:
    def held(handler: BaseHTTPRequestHandler) -> None:
        gate.wait(60)
        route(handler)

    return held


def _worker_pids(parent: int) -> list[int]:
    """The extraction workers among the children of `parent` (not multiprocessing's resource tracker)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == parent and b"spawn_main" in command:
            found.append(int(entry.name))
    return found


def _wait_for(condition: Callable[[], object], what: str, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while not condition():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"gave up waiting for {what}: {(process.communicate()[1] or '')[-3000:]}")
        time.sleep(0.05)


def _pages_stored(database: Path) -> int:
    if not database.exists():
        return 0
    try:
        with sqlite3.connect(database) as connection:
            return int(connection.execute("SELECT count(*) FROM pages").fetchone()[0])
    except sqlite3.OperationalError:  # the store is being created
        return 0


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the worker process through /proc")
def test_a_worker_killed_mid_crawl_loses_no_page(tmp_path: Path) -> None:
    worker_up, worker_killed = threading.Event(), threading.Event()
    paths = [f"/p/{n}" for n in range(PAGES)]
    routes = {"/": page(article("Home", paths))}
    for n, path in enumerate(paths):
        routes[path] = _held(page(article(f"Page {n}")), worker_up if n < FIRST else worker_killed)
    database = tmp_path / "db.sqlite"
    with serve_routes(routes) as site:
        settings = {"CRAWL_EXTRACTION_WORKERS": "1", "STORAGE_BATCH_SIZE": "1"}
        command, stats_path = crawl_command(tmp_path, f"{site.base}/", database=database, settings=settings)
        process = subprocess.Popen(command, cwd=REPO_ROOT, stderr=subprocess.PIPE, text=True)
        _wait_for(lambda: _worker_pids(process.pid), "the worker to start", process)
        time.sleep(2)  # its imports done: the next pages go to it
        worker_up.set()
        _wait_for(lambda: _pages_stored(database) > FIRST, "the first pages to be stored", process)
        for pid in _worker_pids(process.pid):
            os.kill(pid, signal.SIGKILL)
        worker_killed.set()
        _, log = process.communicate(timeout=120)
    run = CrawlRun(process.returncode, log, json.loads(stats_path.read_text("utf-8")))
    assert run.returncode == 0, log[-3000:]
    assert run.stat(stats.PAGES_KEPT) == _pages_stored(database) == PAGES + 1
    assert FIRST <= run.stat(stats.PAGES_EXTRACTED_IN_WORKERS) < PAGES
    assert "An extraction worker stopped" in log


def _running(pid: int) -> bool:
    """Whether the process exists and is not a zombie (an exited child nobody reaped yet)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the worker process through /proc")
def test_a_worker_ends_when_its_crawl_process_is_killed(tmp_path: Path) -> None:
    never = threading.Event()
    routes = {"/": page(article("Home", ["/held"])), "/held": _held(page(article("Held")), never)}
    with serve_routes(routes) as site:
        command, _ = crawl_command(tmp_path, f"{site.base}/", settings={"CRAWL_EXTRACTION_WORKERS": "1"})
        # The log to a file: a worker left running would hold a pipe open, and reading it would never end.
        with (tmp_path / "crawl.log").open("w") as log:
            process = subprocess.Popen(command, cwd=REPO_ROOT, stderr=log, text=True)
        _wait_for(lambda: _worker_pids(process.pid), "the worker to start", process)
        workers = _worker_pids(process.pid)
        _wait_for(lambda: "/held" in site.requested, "the crawl to wait on a page", process)
        process.kill()
        process.wait()
        deadline = time.monotonic() + 10
        while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        never.set()
    assert not any(_running(pid) for pid in workers)
