"""The crawl state on a real SQLite file and PostgreSQL schema: what a batch's fetches record, how the revisit
interval moves with informative change, and which URLs a crawl starts with."""

from __future__ import annotations

import dataclasses
import math
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from extraction import text_hash
from pipelines.revisit import RevisitPolicy, freshness_reach
from pipelines.storage import store_pages
from pipelines.storage.crawl_state import StateSummary, due_urls, known_urls, record_fetches
from pipelines.storage.models import CrawlUrl, clean_pages, clean_pages_all
from records import PageRecord
from records.urls import UrlRecord, UrlState
from tests.pipelines.items import make_item

Sessions = sessionmaker[Session]
START = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
POLICY = RevisitPolicy(interval=timedelta(days=1))
HOME = "https://news.test/"
POST = "https://news.test/post"


def fetch(
    sessions: Sessions,
    at: datetime,
    pages: list[PageRecord] = (),
    outcomes: list[UrlRecord] = (),  # type: ignore[assignment]
    policy: RevisitPolicy = POLICY,
) -> StateSummary:
    with sessions.begin() as session:
        written = store_pages(session, pages)
        return record_fetches(session, pages, written, outcomes, policy, at)


def row(sessions: Sessions, url: str) -> CrawlUrl:
    with sessions() as session:
        return session.scalars(select(CrawlUrl).where(CrawlUrl.url == url)).one()


def page(url: str, text: str, noise: str = "Menu", **fields: object) -> PageRecord:
    item = make_item(url, [(noise, "noise"), (text, "content")])
    return dataclasses.replace(item, **fields)  # type: ignore[arg-type]


def test_a_fetch_records_its_page_and_queues_its_links(sessions: Sessions) -> None:
    home = page(
        HOME,
        "News.",
        links=[POST, "https://news.test/about"],
        etag='"v1"',
        last_modified="Sun, 01 Nov 2026 10:00:00 GMT",
    )
    summary = fetch(sessions, START, [home])
    assert summary.queued == 2
    stored = row(sessions, HOME)
    assert (stored.state, stored.fetches, stored.changes) == (UrlState.STORED, 1, 0)
    assert (stored.etag, stored.last_modified) == ('"v1"', "Sun, 01 Nov 2026 10:00:00 GMT")
    assert stored.interval == 86400 and stored.due_at == int(START.timestamp()) + 86400
    queued = row(sessions, POST)
    assert (queued.state, queued.depth, queued.referrer_id, queued.due_at) == (
        UrlState.QUEUED,
        1,
        stored.id,
        int(START.timestamp()),
    )


@pytest.mark.parametrize("schedule", ["adaptive", "estimate"])
def test_the_interval_grows_after_no_change_and_shrinks_after_one(sessions: Sessions, schedule: str) -> None:
    policy = RevisitPolicy(interval=timedelta(days=1), schedule=schedule)  # type: ignore[arg-type]
    fetch(sessions, START, [page(POST, "First version.")], policy=policy)
    later = START + timedelta(days=1)
    template = page(POST, "First version.", noise="Menu | Ad of the day")
    summary = fetch(sessions, later, [template], policy=policy)
    assert (summary.changed, summary.unchanged) == (0, 1)  # a template change is no change
    # No change seen yet: both grow as Nutch's AdaptiveFetchSchedule.
    assert row(sessions, POST).interval == round(86400 * 1.4)
    summary = fetch(sessions, later + timedelta(days=2), [page(POST, "Second version.")], policy=policy)
    assert (summary.changed, summary.unchanged) == (1, 0)
    changed = row(sessions, POST)
    assert (changed.changes, changed.fetches) == (1, 3)
    if schedule == "adaptive":
        assert changed.interval == round(86400 * 1.4 * 0.8)
    else:
        # One change in two visits over three days: Cho and Garcia-Molina's rate, and the interval at which
        # such a page is fresh 95% of the time.
        rate = -math.log(1.5 / 2.5) / (3 * 86400 / 2)
        assert changed.interval == pytest.approx(freshness_reach(0.95) / rate, abs=1)


def test_a_policy_on_the_html_counts_template_changes(sessions: Sessions) -> None:
    html = RevisitPolicy(interval=timedelta(days=1), change="html")
    fetch(sessions, START, [page(POST, "Same.", html_hash=text_hash("a"))], policy=html)
    summary = fetch(
        sessions, START + timedelta(days=1), [page(POST, "Same.", html_hash=text_hash("b"))], policy=html
    )
    assert summary.changed == 1


def test_outcomes_without_a_page(sessions: Sessions) -> None:
    fetch(sessions, START, [page(POST, "Here today.")])
    site = "news.test"
    not_modified = UrlRecord(POST, site, UrlState.STORED, not_modified=True)
    summary = fetch(sessions, START + timedelta(days=1), outcomes=[not_modified])
    assert summary.unchanged == 1 and row(sessions, POST).fetches == 2
    redirect = UrlRecord("https://news.test/old", site, UrlState.REDIRECTED, target=POST)
    gone = UrlRecord(POST, site, UrlState.GONE, reason="http_410")
    summary = fetch(sessions, START + timedelta(days=2), outcomes=[redirect, gone])
    assert summary.gone == 1
    assert row(sessions, "https://news.test/old").target_id == row(sessions, POST).id
    with sessions() as session:
        assert session.scalars(select(clean_pages.c.url)).all() == []  # gone: out of clean_pages
        kept = session.execute(select(clean_pages_all.c.url, clean_pages_all.c.gone_at)).one()
    assert kept.url == POST and kept.gone_at is not None


def test_a_crawl_starts_with_the_queued_and_the_due(sessions: Sessions) -> None:
    fetch(sessions, START, [page(HOME, "News.", links=[POST])])
    assert [due.url for due in _due(sessions, START)] == [POST]  # queued: due at once
    fetch(sessions, START, [page(POST, "A post.", referrer=HOME, depth=1)])
    assert _due(sessions, START + timedelta(hours=1)) == []
    due = _due(sessions, START + timedelta(days=1, seconds=1))
    assert [(url.url, url.depth) for url in due] == [(HOME, 0), (POST, 1)]
    with sessions() as session:
        assert known_urls(session, ["news.test"]) == {HOME, POST}
        assert known_urls(session, ["other.test"]) == set()


def _due(sessions: Sessions, at: datetime) -> list:  # type: ignore[type-arg]
    with sessions() as session:
        return due_urls(session, ["news.test"], at)
