"""`store_pages` and the views on a real SQLite file and a real PostgreSQL schema (fixture `database_url`)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from extraction import RULE_TEXT, Rule, text_hash
from pipelines.storage import store_pages
from pipelines.storage.codec import CONTENT_BIT, hash_to_int, inline, int_to_hash
from pipelines.storage.known import KnownIds
from pipelines.storage.models import (
    Block,
    Cluster,
    Page,
    PageModel,
    PendingText,
    Site,
    clean_pages,
    page_blocks,
)
from records import PageRecord
from tests.pipelines.databases import search_index_mismatches
from tests.pipelines.items import fixture_items, make_item, whizzy_items

Sessions = sessionmaker[Session]

HOME = "https://shop.test/"
ABOUT = "https://shop.test/about"
NAV = ("Home | About | Contact", "noise")
FOOTER = ("Copyright 2026 Shop", "noise")


def store(
    sessions: Sessions, items: list[PageRecord], known: KnownIds | None = None, **options: bool
) -> None:
    with sessions.begin() as session:
        store_pages(session, items, known=known, **options)
    if known is not None:
        known.commit()


def row_counts(sessions: Sessions) -> dict[str, int]:
    with sessions() as session:
        return {
            model.__tablename__: session.scalar(select(func.count()).select_from(model)) or 0
            for model in (Site, Cluster, Page, Block, PageModel, PendingText)
        }


def dictionary(sessions: Sessions) -> dict[str, tuple[str | None, int]]:
    """Each dictionary block by its text's hash: its stored text and how many pages hold it as content."""
    with sessions() as session:
        rows = session.execute(select(Block.hash, Block.text, Block.content_pages)).all()
    return {int_to_hash(value): (text, count) for value, text, count in rows}


def page_block_rows(sessions: Sessions, url: str) -> list[tuple[object, ...]]:
    with sessions() as session:
        query = (
            select(page_blocks.c.position, page_blocks.c.block_hash, page_blocks.c.label)
            .add_columns(page_blocks.c.rule, page_blocks.c.reason, page_blocks.c.text)
            .join(Page, Page.id == page_blocks.c.page_id)
            .where(Page.url == url)
            .order_by(page_blocks.c.position)
        )
        return [tuple(row) for row in session.execute(query)]


def expected_rows(item: PageRecord, shared: set[str] = frozenset()) -> list[tuple[object, ...]]:
    """The page's `page_blocks` rows: a content block held by this page alone shows no hash (it is its
    text's), one in `shared` (the dictionary) does."""
    return [
        (
            position,
            block.hash if block.label == "noise" or block.hash in shared else None,
            block.label,
            Rule(block.rule).name,
            RULE_TEXT[Rule(block.rule)],
            block.text if block.label == "content" else None,
        )
        for position, block in enumerate(item.blocks)
    ]


def stored_array(sessions: Sessions, url: str) -> list[int | str]:
    with sessions() as session:
        return list(session.scalars(select(Page.blocks).where(Page.url == url)).one())


def raw_arrays(sessions: Sessions) -> list[object]:
    """Every element of every page as stored, runs packed (read past the column type)."""
    with sessions() as session:
        stored = session.execute(text("SELECT blocks FROM pages")).scalars()
        return [
            value for array in stored for value in (json.loads(array) if isinstance(array, str) else array)
        ]


def clean_text(sessions: Sessions, url: str) -> str | None:
    with sessions() as session:
        return session.scalar(select(clean_pages.c.text).where(clean_pages.c.url == url))


# A content block long enough to be kept once when two pages hold it, and one too short for that.
LONG = ("Open every day from 8 in the morning to 6 in the evening, Sundays too.", "content")
SHORT = ("Welcome.", "content")


def test_page_row_and_its_blocks(sessions: Sessions) -> None:
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
    assert page.content_hash == hash_to_int(text_hash("Welcome to the shop.\nFresh bread daily."))
    assert site is not None and site.host == "shop.test"
    assert cluster is not None and (cluster.name, cluster.page_count) == ("template", 1)
    assert page_block_rows(sessions, HOME) == expected_rows(item)


def test_text_is_stored_as_utf8_not_escaped(sessions: Sessions) -> None:
    store(sessions, [make_item(HOME, [NAV, ("Crème brûlée, 焦糖布丁.", "content"), FOOTER])])
    with sessions() as session:
        stored = session.execute(text("SELECT CAST(blocks AS TEXT) FROM pages")).scalar_one()
    assert "Crème brûlée, 焦糖布丁." in stored
    assert clean_text(sessions, HOME) == "Crème brûlée, 焦糖布丁."


def test_a_page_alone_keeps_its_content_text_and_its_noise_hashes_only(sessions: Sessions) -> None:
    store(sessions, [make_item(HOME, [NAV, ("Welcome to the shop.", "content"), FOOTER])])
    array = stored_array(sessions, HOME)
    assert row_counts(sessions)["blocks"] == 0  # nothing repeats: no dictionary entry
    assert array[1] == inline(CONTENT_BIT | Rule.CONTENT_AREA, "Welcome to the shop.", "")
    assert array[0] == inline(Rule.NOISE_SCORE, "", text_hash(NAV[0]))
    assert NAV[0] not in str(array) and FOOTER[0] not in str(array)
    assert row_counts(sessions)["pending_texts"] == 0


def test_noise_text_waits_apart_when_asked(sessions: Sessions) -> None:
    store(sessions, [make_item(HOME, [NAV, ("Welcome.", "content")])], keep_noise_text=True)
    with sessions() as session:
        pending = session.execute(select(PendingText.hash, PendingText.text)).all()
    assert [tuple(row) for row in pending] == [(hash_to_int(text_hash(NAV[0])), NAV[0])]


def test_blocks_that_pages_share_are_stored_once_when_that_is_smaller(sessions: Sessions) -> None:
    pages = [
        make_item(f"https://shop.test/{index}", [NAV, LONG, SHORT, (f"Page {index}.", "content")])
        for index in range(3)
    ]
    known = KnownIds()
    store(sessions, pages[:2], known)
    blocks = dictionary(sessions)
    # Two pages: the long text is kept once and both refer to it; the short one and the noise line cost
    # less inline than as an entry of the dictionary.
    assert blocks == {text_hash(LONG[0]): (LONG[0], 2)}
    store(sessions, pages[2:], known)
    # A third page with the noise line: its hash is worth an entry now (the text of noise is never kept).
    assert dictionary(sessions)[text_hash(NAV[0])] == (None, 0)
    for page in pages:
        assert clean_text(sessions, page.url) == page.content_text
    assert page_block_rows(sessions, pages[2].url) == expected_rows(
        pages[2], {text_hash(LONG[0]), text_hash(NAV[0])}
    )


def test_a_block_moves_to_the_dictionary_when_a_later_batch_repeats_it(sessions: Sessions) -> None:
    known = KnownIds()
    store(sessions, [make_item(HOME, [NAV, LONG])], known)
    assert isinstance(stored_array(sessions, HOME)[1], str)  # inline: no other page holds it yet
    store(sessions, [make_item(ABOUT, [LONG])], known)
    assert dictionary(sessions) == {text_hash(LONG[0]): (LONG[0], 2)}
    assert isinstance(stored_array(sessions, HOME)[1], int)  # the first page refers to it now
    assert clean_text(sessions, HOME) == clean_text(sessions, ABOUT) == LONG[0]


def test_another_process_stores_a_repeated_block_inline_again(sessions: Sessions) -> None:
    store(sessions, [make_item(HOME, [LONG])], KnownIds())
    store(sessions, [make_item(ABOUT, [LONG])], KnownIds())  # knows nothing of the first page
    assert row_counts(sessions)["blocks"] == 0
    assert clean_text(sessions, HOME) == clean_text(sessions, ABOUT) == LONG[0]


@pytest.mark.parametrize("same_process", [True, False], ids=["known ids", "fresh ids"])
def test_a_noise_block_gets_its_text_when_a_page_holds_it_as_content(
    sessions: Sessions, same_process: bool
) -> None:
    known = KnownIds()
    hours = ("Opening hours", "noise")
    store(sessions, [make_item(f"https://shop.test/{index}", [hours, SHORT]) for index in range(3)], known)
    assert dictionary(sessions)[text_hash(hours[0])] == (None, 0)
    store(sessions, [make_item(ABOUT, [(hours[0], "content")])], known if same_process else None)
    assert dictionary(sessions)[text_hash(hours[0])] == (hours[0], 1)
    assert clean_text(sessions, ABOUT) == hours[0]


def test_storing_the_same_pages_again_adds_no_rows(sessions: Sessions, fixtures_dir: Path) -> None:
    items = fixture_items(fixtures_dir)
    store(sessions, items, model_state=True)
    before = row_counts(sessions)
    blocks_before = dictionary(sessions)
    with sessions.begin() as session:
        summary = store_pages(session, items, model_state=True)
    assert (summary.new, summary.changed, summary.unchanged) == (0, 0, len(items))
    assert row_counts(sessions) == before
    assert dictionary(sessions) == blocks_before
    assert before["pages"] == before["page_models"] == len(items)


def test_a_changed_page_replaces_its_blocks_and_moves_the_counts(sessions: Sessions) -> None:
    store(sessions, [make_item(HOME, [NAV, LONG, FOOTER]), make_item(ABOUT, [LONG])])
    changed = make_item(HOME, [NAV, ("Fresh news.", "content"), ("More news.", "content")], title="New title")
    with sessions.begin() as session:
        summary = store_pages(session, [changed])
    assert (summary.new, summary.changed, summary.unchanged) == (0, 1, 0)
    with sessions() as session:
        page = session.scalars(select(Page).where(Page.url == HOME)).one()
    assert (page.title, page.stored_bytes) == ("New title", len(b"Fresh news.\nMore news."))
    assert page_block_rows(sessions, HOME) == expected_rows(changed)
    assert clean_text(sessions, HOME) == "Fresh news.\nMore news."
    assert dictionary(sessions)[text_hash(LONG[0])] == (LONG[0], 1)  # ABOUT still holds it


def test_a_batch_that_fails_midway_leaves_no_page_of_it(sessions: Sessions) -> None:
    store(sessions, [make_item(HOME, [NAV, ("Welcome.", "content")])])
    committed = row_counts(sessions)
    good = make_item("https://shop.test/a", [NAV, ("Page A.", "content")])
    bad = dataclasses.replace(make_item("https://shop.test/b", [NAV, ("Page B.", "content")]), title=None)
    after = make_item("https://shop.test/c", [NAV, ("Page C.", "content")])
    with pytest.raises(IntegrityError), sessions.begin() as session:
        store_pages(session, [good, bad, after])  # a page without a title breaks a NOT NULL column
    assert row_counts(sessions) == committed
    with sessions() as session:
        assert session.scalars(select(Page.url)).all() == [HOME]


def test_known_ids_of_a_failed_batch_are_forgotten(sessions: Sessions) -> None:
    known = KnownIds()
    good = make_item("https://shop.test/a", [LONG])
    bad = dataclasses.replace(make_item("https://shop.test/b", [LONG]), title=None)
    with pytest.raises(IntegrityError), sessions.begin() as session:
        store_pages(session, [good, bad], known=known)  # adds LONG to the dictionary, then fails
    known.rollback()
    store(sessions, [make_item(HOME, [LONG]), make_item(ABOUT, [LONG])], known)
    assert clean_text(sessions, HOME) == clean_text(sessions, ABOUT) == LONG[0]
    assert dictionary(sessions)[text_hash(LONG[0])] == (LONG[0], 2)


def test_page_counts_per_cluster_follow_a_page_that_moves(sessions: Sessions) -> None:
    store(sessions, [make_item(HOME, [NAV]), make_item(ABOUT, [NAV])])
    store(sessions, [make_item(ABOUT, [NAV], cluster="about template")])
    with sessions() as session:
        page_counts = dict(session.execute(select(Cluster.name, Cluster.page_count)).all())
    assert page_counts == {"template": 1, "about template": 1}


def test_a_page_without_cluster_is_stored_without_model_state(sessions: Sessions) -> None:
    store(sessions, [make_item(HOME, [NAV, ("Welcome.", "content")], cluster="")], model_state=True)
    with sessions() as session:
        assert session.scalar(select(Page.cluster_id)) is None
    assert row_counts(sessions)["page_models"] == 0
    assert clean_text(sessions, HOME) == "Welcome."


def test_the_last_fetch_of_a_url_in_a_batch_wins(sessions: Sessions) -> None:
    first = make_item(HOME, [("First version.", "content")])
    second = make_item(HOME, [("Second version.", "content")])
    store(sessions, [first, second])
    assert clean_text(sessions, HOME) == "Second version."
    assert row_counts(sessions)["pages"] == 1


def test_texts_that_differ_only_in_spacing_keep_their_spacing(sessions: Sessions) -> None:
    spaced = (LONG[0].replace(" ", "  ", 1), "content")  # the same hash: whitespace is folded
    store(sessions, [make_item(HOME, [LONG]), make_item(ABOUT, [spaced])])
    assert clean_text(sessions, HOME) == LONG[0]
    assert clean_text(sessions, ABOUT) == spaced[0]


def test_clean_pages_gives_the_content_blocks_in_page_order(sessions: Sessions, fixtures_dir: Path) -> None:
    ordered = make_item(HOME, [("First.", "content"), NAV, ("Second.", "content"), ("Third.", "content")])
    items = [ordered, *fixture_items(fixtures_dir)]
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
    known = KnownIds()
    for start in range(0, len(items), 15):
        store(sessions, items[start : start + 15], known, model_state=True)
    assert dictionary(sessions)  # the template's lines, at least
    assert search_index_mismatches(sessions) == []
    assert any(isinstance(value, list) for value in raw_arrays(sessions))  # the template's runs, packed
    for item in items:
        assert clean_text(sessions, item.url) == item.content_text
        rows = page_block_rows(sessions, item.url)
        # A content block is inline (no hash shown) or in the dictionary, by its own hash.
        assert [row[1] in (None, block.hash) for row, block in zip(rows, item.blocks, strict=True)]
        assert [row[2:] for row in rows] == [row[2:] for row in expected_rows(item)]
