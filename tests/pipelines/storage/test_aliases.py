"""Aliases on a real SQLite file and PostgreSQL schema: a page that repeats a stored page of its path under
another query string is not stored again; other pages with the same text are."""

from __future__ import annotations

import dataclasses

from sqlalchemy.orm import Session, sessionmaker

from pipelines.storage import store_pages
from pipelines.storage.aliases import split_aliases
from records import PageRecord
from records.urls import UrlState
from tests.pipelines.items import make_item

POST = "https://news.test/2026/11/post/"
TEXT = "The council clears the valley road twice a day when the snow comes."


def page(url: str, text: str) -> PageRecord:
    item = make_item(url, [("Menu " + url, "noise"), (text, "content")])
    return dataclasses.replace(item, content_hash="")


def test_a_query_string_variant_with_the_same_text_is_an_alias(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as session:
        store_pages(session, [page(POST, TEXT)])
    batch = [
        page(POST + "?sid=3f2a", TEXT),  # a session id: the stored page again
        page(POST + "?replytocom=7", TEXT + " A reply."),  # other content: a page of its own
        page(POST + "?sid=9c1b", TEXT),
        page("https://news.test/2026/11/", TEXT),  # an archive holding the post: another path
        page("https://news.test/empty?a=1", ""),
        page("https://news.test/empty?a=2", ""),  # an empty text aliases nothing
    ]
    with sessions.begin() as session:
        kept, aliases = split_aliases(session, batch)
    assert [p.url for p in kept] == [batch[1].url, batch[3].url, batch[4].url, batch[5].url]
    assert [(a.url, a.state, a.target, a.reason) for a in aliases] == [
        (POST + "?sid=3f2a", UrlState.ALIAS, POST, "same_content"),
        (POST + "?sid=9c1b", UrlState.ALIAS, POST, "same_content"),
    ]


def test_variants_met_in_one_batch_keep_the_first(sessions: sessionmaker[Session]) -> None:
    batch = [page(POST + "?sort=new", TEXT), page(POST + "?sort=old", TEXT), page(POST, TEXT)]
    with sessions.begin() as session:
        kept, aliases = split_aliases(session, batch)
    assert [p.url for p in kept] == [POST + "?sort=new", POST]
    assert [(a.url, a.target) for a in aliases] == [(POST + "?sort=old", POST + "?sort=new")]


def test_a_variant_labelled_after_its_clusters_model_was_ready_is_still_an_alias(
    sessions: sessionmaker[Session],
) -> None:
    # The first page had single-page labels only; by the variant, the cluster's model restored its
    # headline, which the single page had set aside.
    first = make_item(POST, [("Menu", "noise"), ("Snow", "noise"), (TEXT, "content")])
    variant = make_item(POST + "?sid=3f2a", [("Menu", "noise"), ("Snow", "content"), (TEXT, "content")])
    variant.blocks[1].page_label = "noise"
    batch = [dataclasses.replace(first, content_hash=""), dataclasses.replace(variant, content_hash="")]
    with sessions.begin() as session:
        kept, aliases = split_aliases(session, batch)
    assert [p.url for p in kept] == [POST]
    assert [(a.url, a.target) for a in aliases] == [(POST + "?sid=3f2a", POST)]


def test_a_page_naming_a_stored_page_of_the_same_text_as_canonical_is_an_alias(
    sessions: sessionmaker[Session],
) -> None:
    with sessions.begin() as session:
        store_pages(session, [page(POST, TEXT), page("https://news.test/page/1/", "Ten posts.")])
    amp = dataclasses.replace(page("https://news.test/amp/post/", TEXT), canonical=POST)
    # A theme's mistake: the second page of a listing names the first as canonical, with other posts.
    second = dataclasses.replace(
        page("https://news.test/page/2/", "Ten older posts."), canonical="https://news.test/page/1/"
    )
    with sessions.begin() as session:
        kept, aliases = split_aliases(session, [amp, second])
    assert [p.url for p in kept] == [second.url]
    assert [(a.url, a.target) for a in aliases] == [(amp.url, POST)]


def test_a_stored_page_stays_a_page(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as session:
        store_pages(session, [page(POST, TEXT), page(POST + "?print=1", TEXT + " Printed.")])
    again = page(POST + "?print=1", TEXT)  # fetched again, now the same text as the post
    with sessions.begin() as session:
        kept, aliases = split_aliases(session, [again])
    assert (kept, aliases) == ([again], [])
