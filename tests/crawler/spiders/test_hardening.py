"""Hostile pages and careless arguments met by the spider (issue 15): a page of thousands of links, a body
cut by a reset with no Content-Length, a page past the parser's nesting limit, an invalid UTF-8 byte, a
seed longer than any request may be. Real servers on 127.0.0.1, real crawls in a subprocess."""

from __future__ import annotations

import socket
import sqlite3
import struct
from http.server import BaseHTTPRequestHandler
from pathlib import Path

from pipelines.storage import migrate
from records import stats
from tests.crawl_runner import run_crawl
from tests.crawler.pages import article
from tests.servers import Route, page, serve_routes


def _cut_without_length(handler: BaseHTTPRequestHandler) -> None:
    """Part of a page, no Content-Length, then a TCP reset."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.end_headers()
    handler.wfile.write(article("Cut short").encode()[:400])
    handler.wfile.flush()
    handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    handler.connection.close()
    handler.close_connection = True


def _stored(tmp_path: Path) -> list[str]:
    with sqlite3.connect(tmp_path / "db.sqlite") as connection:
        return [url for (url,) in connection.execute("SELECT url FROM clean_pages")]


def test_links_per_page_are_capped(tmp_path: Path) -> None:
    links = [f"/l/{n}" for n in range(3000)]
    with serve_routes({"/": page(article("Many links", links))}) as server:
        run = run_crawl(tmp_path, f"{server.base}/", settings={"CRAWL_MAX_LINKS_PER_PAGE": "50"})
    assert run.returncode == 0, run.log[-3000:]
    assert run.stat(stats.LINKS_SCHEDULED) == 50
    assert run.stat(stats.LINKS_CAPPED) == 2950
    assert len(server.requested) <= 52  # robots.txt, the page and its first 50 links


def test_a_body_cut_without_content_length_is_retried_then_skipped(tmp_path: Path) -> None:
    routes: dict[str, Route] = {"/": page(article("Home", ["/cut"])), "/cut": _cut_without_length}
    with serve_routes(routes) as server:
        run = run_crawl(tmp_path, f"{server.base}/")
    assert run.returncode == 0, run.log[-3000:]
    assert server.requested.count("/cut") == 3  # RETRY_TIMES = 2
    assert run.stat(stats.skipped("data_loss")) == 1
    assert _stored(tmp_path) == [f"{server.base}/"]


def test_a_page_past_the_nesting_limit_says_why_in_the_log(tmp_path: Path) -> None:
    deep = "<html><body>" + "<div>" * 5000 + "<p>Deep text.</p>" + "</div>" * 5000 + "</body></html>"
    with serve_routes({"/": page(article("Home", ["/deep"])), "/deep": page(deep)}) as server:
        run = run_crawl(tmp_path, f"{server.base}/")
    assert run.returncode == 0, run.log[-3000:]
    assert "elements nest deeper than the parser's limit" in run.log
    assert run.stat(stats.skipped("no_blocks")) == 1


def test_an_invalid_utf8_byte_is_replaced_and_counted(tmp_path: Path) -> None:
    body = article("Café crème").encode().replace("crème".encode(), b"cr\xe8me", 1)
    with serve_routes({"/": page(body)}) as server:
        run = run_crawl(tmp_path, f"{server.base}/")
    assert run.returncode == 0, run.log[-3000:]
    assert run.stat(stats.DECODE_REPLACEMENTS) == 1
    with sqlite3.connect(tmp_path / "db.sqlite") as connection:
        (title,) = connection.execute("SELECT title FROM clean_pages").fetchone()
    assert title == "Café cr\ufffdme"  # the one bad byte; the rest of the page read as UTF-8


def test_a_seed_too_long_to_request_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    seed = "http://127.0.0.1:9/" + "a" * 2100
    run = run_crawl(tmp_path, seed)
    assert run.returncode == 2
    assert run.log.strip().count("\n") == 0 and "URLLENGTH_LIMIT (2083 characters)" in run.log


def test_a_page_the_store_refuses_ends_the_crawl_with_one_line_and_exit_code_1(tmp_path: Path) -> None:
    # Issue 15 row 4: a page that could not be stored after its retries must not end the crawl with exit 0.
    database = tmp_path / "db.sqlite"
    migrate(f"sqlite:///{database}")
    with sqlite3.connect(database) as connection:
        connection.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON pages WHEN NEW.url LIKE '%/refused'"
            " BEGIN SELECT RAISE(ABORT, 'this store refuses the page'); END"
        )
    routes = {
        "/": page(article("Home", ["/kept", "/refused"])),
        "/kept": page(article("Kept")),
        "/refused": page(article("Refused")),
    }
    with serve_routes(routes) as site:
        run = run_crawl(tmp_path, f"{site.base}/")
    assert run.returncode == 1, run.log[-3000:]
    assert run.log.strip().splitlines()[-1] == "scrapy crawl: 1 pages not stored; see the log"
    assert run.stat(stats.PAGES_STORE_FAILED) == 1
    assert sorted(url.removeprefix(site.base) for url in _stored(tmp_path)) == ["/", "/kept"]
