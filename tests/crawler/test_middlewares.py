"""The downloader middlewares the add-on installs: Retry-After honoured per site, up to a cap."""

from __future__ import annotations

import time
from email.utils import formatdate
from pathlib import Path

from crawler.middlewares import retry_after_seconds
from records import stats
from tests.crawl_runner import run_crawl
from tests.crawler.pages import article
from tests.servers import BusyUntil, page, serve_routes


def test_retry_after_is_seconds_or_an_http_date() -> None:
    now = time.time()
    assert retry_after_seconds("3") == 3.0
    assert retry_after_seconds(" 120 ") == 120.0
    assert abs(retry_after_seconds(formatdate(now + 30, usegmt=True), now) - 30) <= 1  # type: ignore[operator]
    assert retry_after_seconds(formatdate(now - 30, usegmt=True), now) == 0.0
    for bad in ("", "-1", "1.5", "soon", "Wed, 99 Foo 2024"):
        assert retry_after_seconds(bad) is None


def test_a_429_with_retry_after_is_retried_after_the_wait(tmp_path: Path) -> None:
    # Issue 15 row 7: the server asks for 3 s; Scrapy alone tried three times in 1.4 s and skipped the page.
    busy = BusyUntil(3.0, page(article("Busy page")), retry_after="3")
    routes = {"/": page(article("Home", ["/busy"])), "/busy": busy}
    with serve_routes(routes) as server:
        run = run_crawl(tmp_path, f"{server.base}/")
    assert run.returncode == 0, run.log[-3000:]
    assert run.stat(stats.PAGES_KEPT) == 2
    assert run.stat(stats.skipped("http_429")) == 0
    assert len(busy.times) == 2 and busy.times[1] - busy.times[0] >= 2.9
    assert "answered 429 with Retry-After: 3; its requests wait 3.0 s" in run.log


def test_the_wait_is_capped(tmp_path: Path) -> None:
    busy = BusyUntil(1.5, page(article("Busy page")), retry_after="3600", status=503)
    routes = {"/": page(article("Home", ["/busy"])), "/busy": busy}
    with serve_routes(routes) as server:
        run = run_crawl(tmp_path, f"{server.base}/", settings={"RETRY_AFTER_MAX": "1"})
    assert run.returncode == 0, run.log[-3000:]
    assert run.stat(stats.PAGES_KEPT) == 2  # retried after 1 s, not an hour
    gaps = [later - earlier for earlier, later in zip(busy.times, busy.times[1:], strict=False)]
    assert gaps and all(0.9 <= gap < 5 for gap in gaps)
