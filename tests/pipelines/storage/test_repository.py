"""`store_pages` and the views on a real SQLite file and a real PostgreSQL schema (fixture `database_url`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from extraction import text_hash
from pipelines.storage import savings_by_site, store_pages
from pipelines.storage.models import Block, Cluster, ClusterBlockCount, Page, PageBlock, Site, clean_pages
from records import PageRecord
from tests.pipelines.items import fixture_items, make_item, whizzy_items

Sessions = sessionmaker[Session]

HOME = "https://shop.test/"
ABOUT = "https://shop.test/about"
NAV = ("Home | About | Contact", "noise")
FOOTER = ("Copyright 2026 Shop", "noise")


def store(sessions: Sessions, items: list[PageRecord]) -> None:
    with sessions.begin() as session:
        store_pages(session, items)


def row_counts(sessions: Sessions) -> dict[str, int]:
    with sessions() as session:
        return {
            model.__tablename__: session.scalar(select(func.count()).select_from(model)) or 0
            for model in (Site, Cluster, Page, Block, PageBlock, ClusterBlockCount)
        }


def block_texts(sessions: Sessions) -> dict[str, str | None]:
    with sessions() as session:
        return dict(session.execute(select(Block.hash, Block.text)).all())


def page_block_rows(sessions: Sessions, url: str) -> list[tuple[int, str, str, str]]:
    with sessions() as session:
        rows = session.execute(
            select(PageBlock.position, PageBlock.block_hash, PageBlock.label, PageBlock.reason)
            .join(Page, Page.id == PageBlock.page_id)
            .where(Page.url == url)
            .order_by(PageBlock.position)
        )
        return list(rows)


def clean_text(sessions: Sessions, url: str) -> str | None:
    with sessions() as session:
        return session.scalar(select(clean_pages.c.text).where(clean_pages.c.url == url))


def cluster_counts(sessions: Sessions) -> dict[str, int]:
    with sessions() as session:
        rows = session.execute(select(ClusterBlockCount.block_hash, ClusterBlockCount.pages))
        return dict(rows.all())


def test_page_row_and_its_block_rows(sessions: Sessions) -> None:
    item = make_item(
        HOME, [NAV, ("Welcome to the shop.", "content"), ("Fresh bread daily.", "content"), FOOTER]
    )
    store(sessions, [item])
    with sessions() as session:
        page = session.scalars(select(Page)).one()
        site = session.get(Site, page.site_id)
        cluster = session.get(Cluster, page.cluster_id)
    assert (page.url, page.status, page.title) == (HOME, 200, "A page")
    assert page.fetched_at.replace(tzinfo=None) == item.fetched_at.replace(tzinfo=None)
    assert page.raw_html_bytes == item.raw_html_bytes
    assert page.visible_text_bytes == item.visible_text_bytes
    assert page.stored_bytes == len(b"Welcome to the shop.\nFresh bread daily.")
    assert page.content_hash == text_hash("Welcome to the shop.\nFresh bread daily.")
    assert site is not None and site.host == "shop.test"
    assert cluster is not None and (cluster.signature, cluster.page_count) == ("template", 1)
    assert page_block_rows(sessions, HOME) == [
        (block.position, block.hash, block.label, block.reason) for block in item.blocks
    ]


def test_text_is_kept_for_content_only(sessions: Sessions) -> None:
    store(sessions, [make_item(HOME, [NAV, ("Welcome to the shop.", "content"), FOOTER])])
    assert block_texts(sessions) == {
        text_hash(NAV[0]): None,
        text_hash("Welcome to the shop."): "Welcome to the shop.",
        text_hash(FOOTER[0]): None,
    }


def test_a_block_on_two_pages_is_stored_once(sessions: Sessions) -> None:
    shared = ("Open every day from 8 to 18.", "content")
    store(
        sessions, [make_item(HOME, [NAV, shared]), make_item(ABOUT, [NAV, ("About us.", "content"), shared])]
    )
    counts = row_counts(sessions)
    assert counts["blocks"] == 3
    assert counts["page_blocks"] == 5
    assert block_texts(sessions)[text_hash(shared[0])] == shared[0]


def test_a_noise_hash_gets_its_text_when_a_page_holds_it_as_content(sessions: Sessions) -> None:
    store(sessions, [make_item(HOME, [("Opening hours", "noise"), ("Welcome.", "content")])])
    assert block_texts(sessions)[text_hash("Opening hours")] is None
    store(sessions, [make_item(ABOUT, [("Opening hours", "content")])])
    assert block_texts(sessions)[text_hash("Opening hours")] == "Opening hours"


def test_storing_the_same_pages_again_adds_no_rows(sessions: Sessions, fixtures_dir: Path) -> None:
    items = fixture_items(fixtures_dir)
    store(sessions, items)
    before = row_counts(sessions)
    counts_before = cluster_counts(sessions)
    with sessions.begin() as session:
        summary = store_pages(session, items)
    assert (summary.new, summary.changed, summary.unchanged) == (0, 0, len(items))
    assert row_counts(sessions) == before
    assert cluster_counts(sessions) == counts_before
    assert before["pages"] == len(items)
    assert before["page_blocks"] == sum(len(item.blocks) for item in items)


def test_a_changed_page_replaces_its_blocks_and_updates_its_row(sessions: Sessions) -> None:
    store(
        sessions, [make_item(HOME, [NAV, ("Old news.", "content"), FOOTER]), make_item(ABOUT, [NAV, FOOTER])]
    )
    changed = make_item(HOME, [NAV, ("Fresh news.", "content"), ("More news.", "content")], title="New title")
    with sessions.begin() as session:
        summary = store_pages(session, [changed])
    assert (summary.new, summary.changed, summary.unchanged) == (0, 1, 0)
    with sessions() as session:
        page = session.scalars(select(Page).where(Page.url == HOME)).one()
    assert (page.title, page.stored_bytes) == ("New title", len(b"Fresh news.\nMore news."))
    assert page_block_rows(sessions, HOME) == [
        (block.position, block.hash, block.label, block.reason) for block in changed.blocks
    ]
    assert row_counts(sessions)["pages"] == 2
    assert clean_text(sessions, HOME) == "Fresh news.\nMore news."
    counts = cluster_counts(sessions)
    assert counts[text_hash(NAV[0])] == 2
    assert counts[text_hash(FOOTER[0])] == 1  # only ABOUT still holds it
    assert text_hash("Old news.") not in counts


def test_a_batch_that_fails_midway_leaves_no_page_of_it(sessions: Sessions) -> None:
    store(sessions, [make_item(HOME, [NAV, ("Welcome.", "content")])])
    committed = row_counts(sessions)
    good = make_item("https://shop.test/a", [NAV, ("Page A.", "content")])
    bad = make_item("https://shop.test/b", [NAV, ("Page B.", "content")])
    # Two blocks at one position: the page row is written, then its block rows violate the primary key.
    bad.blocks[1] = dataclasses.replace(bad.blocks[1], position=0)
    after = make_item("https://shop.test/c", [NAV, ("Page C.", "content")])
    with pytest.raises(IntegrityError), sessions.begin() as session:
        store_pages(session, [good, bad, after])
    assert row_counts(sessions) == committed
    with sessions() as session:
        assert session.scalars(select(Page.url)).all() == [HOME]


def test_cluster_block_counts_count_pages_per_hash(sessions: Sessions) -> None:
    repeated = ("Read more", "noise")
    pages = [
        make_item(HOME, [NAV, ("Home text.", "content"), repeated, repeated]),
        make_item(ABOUT, [NAV, ("About text.", "content")]),
        make_item("https://shop.test/other", [NAV], cluster="other template"),
    ]
    store(sessions, pages)
    with sessions() as session:
        rows = session.execute(
            select(Cluster.signature, ClusterBlockCount.block_hash, ClusterBlockCount.pages).join(
                Cluster, Cluster.id == ClusterBlockCount.cluster_id
            )
        )
        counts = {(signature, block_hash): count for signature, block_hash, count in rows}
        page_counts = dict(session.execute(select(Cluster.signature, Cluster.page_count)).all())
    assert counts == {
        ("template", text_hash(NAV[0])): 2,
        ("template", text_hash("Home text.")): 1,
        ("template", text_hash(repeated[0])): 1,  # twice on one page: one page
        ("template", text_hash("About text.")): 1,
        ("other template", text_hash(NAV[0])): 1,
    }
    assert page_counts == {"template": 2, "other template": 1}


def test_a_page_moving_to_another_cluster_moves_its_counts(sessions: Sessions) -> None:
    store(sessions, [make_item(HOME, [NAV]), make_item(ABOUT, [NAV])])
    store(sessions, [make_item(ABOUT, [NAV], cluster="about template")])
    with sessions() as session:
        page_counts = dict(session.execute(select(Cluster.signature, Cluster.page_count)).all())
        rows = session.execute(
            select(Cluster.signature, ClusterBlockCount.pages).join(
                Cluster, Cluster.id == ClusterBlockCount.cluster_id
            )
        )
        counts = dict(rows.all())
    assert page_counts == {"template": 1, "about template": 1}
    assert counts == {"template": 1, "about template": 1}


def test_a_page_without_cluster_is_stored_without_counts(sessions: Sessions) -> None:
    store(sessions, [make_item(HOME, [NAV, ("Welcome.", "content")], cluster="")])
    with sessions() as session:
        assert session.scalar(select(Page.cluster_id)) is None
    assert row_counts(sessions)["cluster_block_counts"] == 0
    assert clean_text(sessions, HOME) == "Welcome."


def test_the_last_fetch_of_a_url_in_a_batch_wins(sessions: Sessions) -> None:
    first = make_item(HOME, [("First version.", "content")])
    second = make_item(HOME, [("Second version.", "content")])
    store(sessions, [first, second])
    assert clean_text(sessions, HOME) == "Second version."
    assert row_counts(sessions)["pages"] == 1


def test_clean_pages_gives_the_content_blocks_in_page_order(sessions: Sessions, fixtures_dir: Path) -> None:
    shuffled = make_item(HOME, [("First.", "content"), NAV, ("Second.", "content"), ("Third.", "content")])
    shuffled.blocks.reverse()  # the item lists its blocks backwards; positions decide the order
    items = [shuffled, *fixture_items(fixtures_dir)]
    store(sessions, items)
    assert clean_text(sessions, HOME) == "First.\nSecond.\nThird."
    for item in items[1:]:
        assert clean_text(sessions, item.url) == item.content_text
    with sessions() as session:
        row = session.execute(select(clean_pages).where(clean_pages.c.url == HOME)).one()
    assert (row.site, row.cluster, row.title) == ("shop.test", "template", "A page")


def test_clean_pages_gives_an_empty_text_for_a_page_without_content(sessions: Sessions) -> None:
    store(sessions, [make_item(HOME, [NAV, FOOTER])])
    assert clean_text(sessions, HOME) == ""


def test_whizzy_pages_round_trip(sessions: Sessions, shared_dir: Path) -> None:
    items = whizzy_items(shared_dir, 40)
    for start in range(0, len(items), 15):
        store(sessions, items[start : start + 15])
    for item in items:
        assert clean_text(sessions, item.url) == item.content_text
    assert row_counts(sessions)["page_blocks"] == sum(len(item.blocks) for item in items)


def expected_savings(items: list[PageRecord]) -> dict[str, tuple[int, int, int, int]]:
    """Per site, computed in Python: pages, raw HTML bytes, visible text bytes, stored bytes (the distinct
    content texts of the site + 8 bytes per block row)."""
    sites: dict[str, list[PageRecord]] = {}
    for item in items:
        sites.setdefault(item.site, []).append(item)
    expected = {}
    for site, pages in sites.items():
        texts: dict[str, str] = {}
        for block in (block for page in pages for block in page.blocks if block.label == "content"):
            texts.setdefault(block.hash, block.text)  # the store keeps the first text of a hash
        stored = sum(len(text.encode("utf-8")) for text in texts.values())
        stored += 8 * sum(len(page.blocks) for page in pages)
        raw = sum(page.raw_html_bytes for page in pages)
        visible = sum(page.visible_text_bytes for page in pages)
        expected[site] = (len(pages), raw, visible, stored)
    return expected


def test_index_savings_adds_up(sessions: Sessions, fixtures_dir: Path, shared_dir: Path) -> None:
    items = fixture_items(fixtures_dir) + whizzy_items(shared_dir, 30)
    items.append(make_item(HOME, [NAV, ("Crème brûlée, 5 €.", "content")]))  # multi-byte UTF-8
    store(sessions, items)
    with sessions() as session:
        rows = savings_by_site(session)
    assert {
        row.site: (row.pages, row.raw_html_bytes, row.visible_text_bytes, row.stored_bytes) for row in rows
    } == (expected_savings(items))
    for row in rows:
        assert row.stored_vs_html == pytest.approx(row.stored_bytes / row.raw_html_bytes)
        assert row.stored_vs_text == pytest.approx(row.stored_bytes / row.visible_text_bytes)
