"""A focused crawl served for real: the link in the article that matches the topic is fetched before the
menu's links, each page's relevance is stored, and without a topic nothing of this happens."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.crawl_runner import run_crawl
from tests.crawler.pages import article
from tests.servers import page, serve_routes

MENU = [f"/menu/{n}" for n in range(8)]
NAV = "".join(f"<li><a href='{path}'>Page {path}</a></li>" for path in MENU)
HOME = (
    "<!DOCTYPE html><html><head><title>Garden notes</title></head><body>"
    "<article><h1>Garden notes for May</h1><p>May is the month to plant out tomatoes, once the last frost "
    "has gone and the soil is warm. Our guide on <a href='/guide'>growing tomatoes</a> has the details, "
    "with the varieties that did best here and how to pinch out their side shoots.</p></article>"
    f"<nav class='menu'><ul>{NAV}</ul></nav>"
    "<footer><p>Copyright the Garden Club</p></footer></body></html>"
)
SLOW = {"CONCURRENT_REQUESTS": "1", "CONCURRENT_REQUESTS_PER_DOMAIN": "1"}


def _routes() -> dict[str, object]:
    routes = {"/": page(HOME), "/guide": page(article("Growing tomatoes from seed"))}
    routes.update({path: page(article(f"Notes {path}")) for path in MENU})
    return routes


def _relevance(tmp_path: Path) -> dict[str, float | None]:
    with sqlite3.connect(tmp_path / "db.sqlite") as connection:
        return dict(connection.execute("SELECT url, relevance FROM clean_pages").fetchall())


def test_the_topic_link_in_content_is_fetched_first_and_relevance_is_stored(tmp_path: Path) -> None:
    with serve_routes(_routes()) as server:  # type: ignore[arg-type]
        run = run_crawl(tmp_path, f"{server.base}/", args={"topic": "growing tomatoes"}, settings=SLOW)
    assert run.returncode == 0, run.log[-3000:]
    pages = [path for path in server.requested if path != "/robots.txt"]
    assert pages[:2] == ["/", "/guide"]
    relevance = _relevance(tmp_path)
    assert relevance[f"{server.base}/guide"] > relevance[f"{server.base}/menu/0"] >= 0.0  # type: ignore[operator]


def test_without_a_topic_the_crawl_is_breadth_first_and_stores_no_relevance(tmp_path: Path) -> None:
    with serve_routes(_routes()) as server:  # type: ignore[arg-type]
        run = run_crawl(tmp_path, f"{server.base}/", settings=SLOW)
    assert run.returncode == 0, run.log[-3000:]
    pages = [path for path in server.requested if path != "/robots.txt"]
    assert pages[1] != "/guide"  # Scrapy's own order: the last link met first
    assert set(_relevance(tmp_path).values()) == {None}


def test_a_saturated_topic_stops_the_crawl_with_its_reason(tmp_path: Path) -> None:
    # Forty pages that say the same about tomatoes, each linking to the next ones.
    text = "Growing tomatoes from seed: sow in March, pinch out the side shoots, water deeply."
    routes = {
        f"/t/{n}": page(
            article(f"Tomatoes {n}", [f"/t/{n + 1}", f"/t/{n + 2}"]).replace(
                "</article>", f"<p>{text}</p></article>"
            )
        )
        for n in range(40)
    }
    settings = {**SLOW, "FOCUS_SATURATION_PAGES": "5", "FOCUS_MIN_RELEVANCE": "0.1"}
    with serve_routes(routes) as server:  # type: ignore[arg-type]
        run = run_crawl(tmp_path, f"{server.base}/t/0", args={"topic": "growing tomatoes"}, settings=settings)
    assert run.returncode == 0, run.log[-3000:]
    assert run.stats["finish_reason"] == "topic_saturated"
    assert "Stopping: the topic is saturated" in run.log
    assert 5 <= run.stat("cleancrawl/pages_stored") < 15


def test_a_queued_link_met_again_in_content_is_fetched_with_its_higher_priority(tmp_path: Path) -> None:
    # The home page's menu links to /guide under a dull anchor, below its links about tomatoes; /notes,
    # fetched first, links to /guide from its article with the topic's words: /guide then comes before the
    # menu's other links, and the request it supersedes is never fetched.
    tomatoes = [f"/tomatoes/{n}" for n in range(4)]
    menu = "".join(f"<li><a href='{path}'>Growing tomatoes {path}</a></li>" for path in tomatoes)
    menu += "".join(f"<li><a href='{path}'>Page {path}</a></li>" for path in [*MENU, "/guide"])
    home = (
        "<!DOCTYPE html><html><head><title>Garden</title></head><body><article><h1>Garden</h1><p>May notes "
        "on planting out tomatoes: read <a href='/notes'>our notes on growing tomatoes</a> first.</p>"
        f"</article><nav class='menu'><ul>{menu}</ul></nav></body></html>"
    )
    notes = (
        "<!DOCTYPE html><html><head><title>Notes</title></head><body><article><h1>Notes</h1><p>Tomatoes need "
        "warm soil. Our <a href='/guide'>guide to growing tomatoes</a> has the varieties and the side shoots."
        "</p></article></body></html>"
    )
    routes = {**_routes(), "/": page(home), "/notes": page(notes)}
    routes.update({path: page(article(f"Tomatoes {path}")) for path in tomatoes})
    with serve_routes(routes) as server:  # type: ignore[arg-type]
        run = run_crawl(tmp_path, f"{server.base}/", args={"topic": "growing tomatoes"}, settings=SLOW)
    assert run.returncode == 0, run.log[-3000:]
    pages = [path for path in server.requested if path != "/robots.txt"]
    assert pages[:2] == ["/", "/notes"] and pages.count("/guide") == 1
    # Before /guide: at most the one tomato page already handed to the downloader when /notes was parsed.
    assert sum(path in tomatoes for path in pages[: pages.index("/guide")]) <= 1
    assert run.stat("cleancrawl/links_reprioritised") == 1


def test_a_topic_of_example_pages_is_read_from_them_before_the_seeds(tmp_path: Path) -> None:
    # The example, off the crawl's path, is about tomatoes: the crawl then goes for the guide first.
    example = article("Sowing tomatoes").replace(
        "</article>",
        "<p>Tomatoes: sow the seed in March, pinch out the side shoots, water deeply.</p></article>",
    )
    routes = {**_routes(), "/example": page(example)}
    with serve_routes(routes) as server:  # type: ignore[arg-type]
        topic_file = tmp_path / "examples.txt"
        topic_file.write_text(f"{server.base}/example\n{server.base}/missing\n", encoding="utf-8")
        run = run_crawl(tmp_path, f"{server.base}/", args={"topic_file": str(topic_file)}, settings=SLOW)
    assert run.returncode == 0, run.log[-3000:]
    pages = [path for path in server.requested if path != "/robots.txt"]
    assert pages[:4] == ["/example", "/missing", "/", "/guide"]
    assert "Topic example" in run.log and "/missing left out: HTTP 404" in run.log
    assert "to the topic of 1 example pages (terms: sow, tomato" in run.log
    assert f"{server.base}/example" not in _relevance(tmp_path)


def test_a_topic_whose_example_pages_cannot_be_read_crawls_nothing(tmp_path: Path) -> None:
    with serve_routes(_routes()) as server:  # type: ignore[arg-type]
        topic_file = tmp_path / "examples.txt"
        topic_file.write_text(f"{server.base}/missing\n", encoding="utf-8")
        run = run_crawl(tmp_path, f"{server.base}/", args={"topic_file": str(topic_file)}, settings=SLOW)
    assert "None of the topic's 1 example pages could be read" in run.log
    assert [path for path in server.requested if path != "/robots.txt"] == ["/missing"]
