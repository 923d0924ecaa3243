"""Crawler traps served for real: an endless calendar, a session id in every link and relative links that
nest a path in itself. The guards (`crawler.traps`) end the crawl, count what they refused and say so
once in the log; a recrawl keeps the traps shut."""

from __future__ import annotations

import itertools
import sqlite3
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from benchmarks.localserver import LocalServer, running
from records import stats
from tests.crawl_runner import run_crawl
from tests.crawler.pages import article

LIMITS = {"TRAP_MAX_PATTERN_URLS": "15", "TRAP_MAX_QUERY_VARIANTS": "4", "TRAP_MAX_SEGMENT_REPEATS": "3"}


def _links(path: str, session: int) -> list[str]:
    """Every page links on: the next day of the calendar, itself under a new session id, a nested folder."""
    last = path.rsplit("/", 1)[1]
    day = int(last) if last.isdigit() else 0
    return [f"/calendar/day/{day + 1}", f"{path}?sid={session:08x}", "more/"]


@pytest.fixture
def endless_site() -> Iterator[tuple[str, list[str]]]:
    requested: list[str] = []
    sessions = itertools.count(1)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requested.append(self.path)
            path = self.path.partition("?")[0]
            body = article(f"Page {path}", _links(path, next(sessions))).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet."""

    with running(LocalServer(("127.0.0.1", 0), Handler)) as base:
        yield base, requested


def test_the_guards_end_an_endless_site_and_keep_it_shut(
    tmp_path: Path, endless_site: tuple[str, list[str]]
) -> None:
    base, requested = endless_site
    run = run_crawl(tmp_path, f"{base}/calendar/day/0", settings=LIMITS, timeout=120)
    first = len(requested)
    again = run_crawl(tmp_path, f"{base}/calendar/day/0", settings=LIMITS, timeout=120)

    assert run.returncode == 0, run.log[-3000:]
    days = {path for path in requested if path.startswith("/calendar/day/") and "?" not in path}
    assert len(days) <= 15
    for guard in ("path_pattern", "query_variants", "repeated_segment"):
        assert run.stat(stats.trapped(guard)) > 0, guard
        assert run.log.count(f"Trap guard {guard} refused") == 1
    assert not any(path.count("/more") > 3 for path in requested)
    variants = Counter(path.partition("?")[0] for path in requested)
    assert max(variants.values()) <= 4
    assert first <= 100
    # A session id changes no page's content: each page is stored once, under its path.
    assert run.stat(stats.PAGES_ALIASED) > 0
    with sqlite3.connect(tmp_path / "db.sqlite") as connection:
        stored = [url for (url,) in connection.execute("SELECT url FROM clean_pages")]
    assert not any("?" in url for url in stored)
    assert again.returncode == 0 and len(requested) == first  # nothing was due, no trap reopened
