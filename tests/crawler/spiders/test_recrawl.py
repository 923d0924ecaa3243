"""Recurring crawls of an evolving site on a simulated clock (`benchmarks.evolving`): the second crawl asks
with the validators the first one stored, a change is a change of the informative content only, and pages
that are gone leave `clean_pages` but keep their history.

Every response of the evolving site changes its template (a "latest posts" box, an ad, a date, a view
counter, a CSRF token), so the HTML of every page differs between two fetches. Each crawl runs with
``RECRAWL_NOW`` set to the site's clock.
"""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

from benchmarks.evolving import ChangeClass, EvolvingConfig, EvolvingSite, serve_evolving
from records import stats
from tests.crawl_runner import CrawlRun, run_crawl

ARTICLES = 40
STATIC = (ChangeClass("static", 1.0, None),)


def _crawl(tmp_path: Path, base: str, site: EvolvingSite, args: dict[str, str] | None = None) -> CrawlRun:
    run = run_crawl(tmp_path, f"{base}/", args=args or {}, settings={"RECRAWL_NOW": site.now.isoformat()})
    assert run.returncode == 0, run.log[-3000:]
    return run


def _rows(tmp_path: Path, query: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(tmp_path / "db.sqlite") as connection:
        return connection.execute(query).fetchall()


def _path(url: object, base: str) -> str:
    return str(url).removeprefix(base)


def test_a_second_crawl_of_an_unchanged_site_records_no_change(tmp_path: Path) -> None:
    site = EvolvingSite(1, ARTICLES, config=EvolvingConfig(classes=STATIC, growth=0, removal=0))
    with serve_evolving(site) as base:
        first = _crawl(tmp_path, base, site)
        texts = dict(_rows(tmp_path, "SELECT url, text FROM clean_pages"))
        site.advance(timedelta(days=3))
        second = _crawl(tmp_path, base, site)

    stored = first.stat(stats.PAGES_STORED)
    assert stored >= ARTICLES
    second_fetches = [f for f in site.fetches if f.at == site.now and f.path != "/robots.txt"]
    assert len(second_fetches) == stored  # every page was due; nothing else was fetched
    # Nothing changed: every request with validators got a 304.
    assert all(fetch.not_modified == fetch.conditional for fetch in second_fetches)
    not_modified = sum(fetch.not_modified for fetch in second_fetches)
    # Pages without validators came back whole, with another template: unchanged all the same.
    assert 0 < not_modified < stored
    assert second.stat("downloader/response_status_count/304") == not_modified
    assert second.stat(stats.RECRAWL_UNCHANGED) == stored
    assert second.stat(stats.RECRAWL_CHANGED) == second.stat(stats.PAGE_VERSIONS) == 0
    assert _rows(tmp_path, "SELECT count(*) FROM page_history") == [(0,)]
    assert dict(_rows(tmp_path, "SELECT url, text FROM clean_pages")) == texts


def test_a_changed_article_records_exactly_one_change(tmp_path: Path) -> None:
    site = EvolvingSite(2, ARTICLES, days=10, config=EvolvingConfig(growth=0, removal=0))
    start = site.now
    with serve_evolving(site) as base:
        _crawl(tmp_path, base, site)
        before = dict(_rows(tmp_path, "SELECT url, text FROM clean_pages"))
        site.advance(timedelta(days=5))
        second = _crawl(tmp_path, base, site)
        after = dict(_rows(tmp_path, "SELECT url, text FROM clean_pages"))
        changes = _rows(tmp_path, "SELECT url, version, blocks_added, blocks_removed FROM page_changes")

    edited = {a.path for a in site.articles if a.version(site.now) != a.version(start)}
    assert edited, "the seed gives no edit in the span: pick another"
    assert second.stat(stats.RECRAWL_CHANGED) == len(edited)
    assert {_path(url, base) for url, *_ in changes} == edited
    assert all(version == 2 and added + removed > 0 for _, version, added, removed in changes)
    assert {_path(url, base) for url in after if after[url] != before[url]} == edited
    for path in edited:
        assert after[base + path] == site.live_text(path, site.now)  # the informative content, as live
    versions = _rows(tmp_path, "SELECT url, count(*) FROM page_versions GROUP BY url")
    assert {_path(url, base): count for url, count in versions} == dict.fromkeys(edited, 2)


def test_a_gone_page_leaves_clean_pages_and_keeps_its_row(tmp_path: Path) -> None:
    config = EvolvingConfig(classes=STATIC, growth=0, removal=0.3)
    site = EvolvingSite(3, ARTICLES, days=10, config=config)
    with serve_evolving(site) as base:
        first = _crawl(tmp_path, base, site)
        site.now = site.end
        second = _crawl(tmp_path, base, site)
        current = {_path(url, base) for (url,) in _rows(tmp_path, "SELECT url FROM clean_pages")}
        every = dict(_rows(tmp_path, "SELECT url, gone_at FROM clean_pages_all"))

    gone = {_path(url, base) for url, gone_at in every.items() if gone_at is not None}
    removed = {a.path for a in site.articles if a.removed is not None and a.removed <= site.now}
    assert removed and removed <= gone
    assert all(site.live_text(path, site.now) is None for path in gone)
    assert second.stat(stats.RECRAWL_GONE) == len(gone)
    assert current == {_path(url, base) for url in every} - gone
    assert len(every) == first.stat(stats.PAGES_STORED)


def test_a_crawl_cut_short_goes_on_with_the_same_command(tmp_path: Path) -> None:
    site = EvolvingSite(4, ARTICLES, config=EvolvingConfig(classes=STATIC, growth=0, removal=0))
    limit = {"max_pages": "15"}
    with serve_evolving(site) as base:
        runs = [_crawl(tmp_path, base, site, limit)]
        while runs[-1].stat(stats.PAGES_STORED) and len(runs) < 10:
            runs.append(_crawl(tmp_path, base, site, limit))
        stored = {_path(url, base) for (url,) in _rows(tmp_path, "SELECT url FROM clean_pages")}

    live = {*site.paths_at(site.now), *site.listing_paths_at(site.now), "/about/"}
    assert stored == live
    assert all(run.stat(stats.PAGES_STORED) <= 15 for run in runs)
    assert runs[-1].stat(stats.RECRAWL_DUE) == 0 and runs[-1].stat(stats.PAGES_CRAWLED) == 0
    fetched = [fetch.path for fetch in site.fetches if fetch.path != "/robots.txt"]
    # Fetched twice: only what was in flight when a run reached its limit.
    assert len(fetched) - len(set(fetched)) <= 16 * (len(runs) - 1)
