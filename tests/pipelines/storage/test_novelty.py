"""Which changes bring the store something new (`pipelines.storage.novelty`), on a real SQLite file and
PostgreSQL schema: a listing whose excerpts shift when a post arrives on its first page."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from sqlalchemy.orm import Session, sessionmaker

from pipelines.storage import store_pages
from pipelines.storage.known import KnownIds
from pipelines.storage.repository import BatchSummary
from records import PageRecord
from tests.pipelines.items import FETCHED_AT, make_item

Sessions = sessionmaker[Session]
HOME, PAGE_2, CATEGORY = "https://blog.test/", "https://blog.test/page/2/", "https://blog.test/category/all/"
MENU = ("Home | Archive | About", "noise")
POSTS = [
    f"{title}: a short excerpt of the post, as the listing shows it, with a link to read on."
    for title in ("Arrival", "Beacon", "Cinder", "Dunes", "Embers", "Fjord", "New moon")
]
A, B, C, D, E, F, NEW = POSTS


def listing(url: str, excerpts: list[str], day: int = 0) -> PageRecord:
    item = make_item(url, [MENU, *[(text, "content") for text in excerpts]], title="Posts")
    return dataclasses.replace(item, fetched_at=FETCHED_AT + timedelta(days=day))


def store(sessions: Sessions, pages: list[PageRecord], known: KnownIds) -> BatchSummary:
    with sessions.begin() as session:
        summary = store_pages(session, pages, known=known)
    known.commit()
    return summary


def test_excerpts_that_shift_are_a_new_version_and_no_informative_change(sessions: Sessions) -> None:
    known = KnownIds()
    store(
        sessions, [listing(HOME, [A, B, C]), listing(PAGE_2, [D, E, F]), listing(CATEGORY, POSTS[:6])], known
    )
    # A new post: its excerpt tops the first page, and every other excerpt moves down one place.
    summary = store(sessions, [listing(HOME, [NEW, A, B], day=1), listing(PAGE_2, [C, D, E], day=1)], known)
    assert summary.versions == 2  # both pages show something else, and the store keeps what they show
    assert summary.revised == {HOME}  # only the first page brought the store something it did not hold


def test_a_block_no_other_page_holds_as_content_is_an_informative_change(sessions: Sessions) -> None:
    known = KnownIds()
    store(sessions, [listing(HOME, [A, B]), listing(PAGE_2, [C, D]), listing(CATEGORY, [A, B, C, D])], known)
    summary = store(sessions, [listing(HOME, [B], day=1)], known)
    assert summary.revised == set()  # A went, and the category page still holds it
    summary = store(sessions, [listing(CATEGORY, [B, C, D], day=2)], known)
    assert summary.revised == {CATEGORY}  # the last page that held A lost it
    summary = store(sessions, [listing(PAGE_2, [A, C, D], day=3)], known)
    assert summary.revised == {PAGE_2}  # A came back, and no page held it
    summary = store(sessions, [listing(PAGE_2, [C, D, NEW], day=4)], known)
    assert summary.revised == {PAGE_2}  # a post new to the store
