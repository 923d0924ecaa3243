"""Page history on a real SQLite file and PostgreSQL schema: a version for every informative change, none
for a template change, and the views that list and diff them."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from extraction import text_hash
from pipelines.storage import store_pages
from pipelines.storage.models import PageHistory, page_changes, page_versions
from records import PageRecord
from tests.pipelines.items import make_item

Sessions = sessionmaker[Session]
URL = "https://news.test/post"
START = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def version(day: int, paragraphs: list[str], ad: str = "Ad: shoes") -> PageRecord:
    item = make_item(URL, [("Menu", "noise"), *[(text, "content") for text in paragraphs], (ad, "noise")])
    return dataclasses.replace(item, fetched_at=START + timedelta(days=day))


def store(sessions: Sessions, page: PageRecord) -> int:
    with sessions.begin() as session:
        return store_pages(session, [page]).versions


def history_rows(sessions: Sessions) -> int:
    with sessions() as session:
        return session.scalar(select(func.count()).select_from(PageHistory)) or 0


def test_no_version_without_an_informative_change(sessions: Sessions) -> None:
    store(sessions, version(0, ["Lede.", "Body."]))
    assert store(sessions, version(1, ["Lede.", "Body."])) == 0  # fetched again, unchanged
    assert store(sessions, version(2, ["Lede.", "Body."], ad="Ad: hats")) == 0  # the template changed
    assert history_rows(sessions) == 0


def test_each_change_is_a_version_and_a_diff(sessions: Sessions) -> None:
    store(sessions, version(0, ["Lede.", "Body."]))
    assert store(sessions, version(1, ["Lede.", "Body, rewritten.", "A new paragraph."])) == 1
    assert store(sessions, version(2, ["Lede.", "A new paragraph."])) == 1
    with sessions() as session:
        versions = session.execute(
            select(page_versions.c.version, page_versions.c.blocks).order_by(page_versions.c.version)
        ).all()
        changes = session.execute(
            select(
                page_changes.c.version, page_changes.c.blocks_added, page_changes.c.blocks_removed
            ).order_by(page_changes.c.version)
        ).all()
        added = session.scalars(select(PageHistory.added).order_by(PageHistory.id)).all()
    assert [tuple(row) for row in versions] == [(1, 2), (2, 3), (3, 2)]
    assert [tuple(row) for row in changes] == [(2, 2, 1), (3, 0, 1)]
    # The first version keeps every text, each later one the texts it added.
    assert added[0] == {text_hash("Lede."): "Lede.", text_hash("Body."): "Body."}
    assert added[1] == {
        text_hash("Body, rewritten."): "Body, rewritten.",
        text_hash("A new paragraph."): "A new paragraph.",
    }
    assert added[2] == {}
