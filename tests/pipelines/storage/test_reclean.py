"""Re-cleaning with the clusters' models: after the threshold, at the end, and across crawler processes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from extraction import Rule, text_hash
from extraction.site_models import SiteModelConfig
from pipelines.storage import make_engine, reclean, session_factory
from pipelines.storage.codec import code_label, decode_state, element_code, hash_to_int
from pipelines.storage.model_state import StatePlaces
from pipelines.storage.models import Block, Page, PageModel, PendingText, clean_pages, page_blocks
from pipelines.storage.reclean import reclean_cluster
from records.stats import RECLEAN_BORROWED, RECLEAN_REBUILT
from tests.extraction.site_models.pages import DEBIAN_HANDBOOK
from tests.pipelines.databases import new_postgres_schema, search_index_mismatches
from tests.pipelines.pages import item_from_file, whizzy_post_files
from tests.pipelines.process import MIN_PAGES, Process


def _crawl_posts(shared_dir: Path, database_url: str, count: int) -> Process:
    """One process crawls the first `count` whizzy posts and closes."""
    process = Process(database_url)
    for post in whizzy_post_files(shared_dir, count):
        process.crawl(shared_dir, post)
    process.close()
    return process


@contextmanager
def _sessions(database_url: str) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(database_url)
    try:
        yield session_factory(engine)
    finally:
        engine.dispose()


def _labels(database_url: str) -> dict[tuple[str, int], tuple[str, str]]:
    """(url, position) -> (label, rule) of every stored block."""
    with _sessions(database_url) as sessions, sessions() as session:
        rows = session.execute(
            select(Page.url, page_blocks.c.position, page_blocks.c.label, page_blocks.c.rule).join(
                page_blocks, page_blocks.c.page_id == Page.id
            )
        )
        return {(url, position): (label, rule) for url, position, label, rule in rows}


def _h1(session: Session, url_part: str) -> tuple[int, str, str]:
    """The first h1 block of the stored page whose URL holds `url_part`: its position, its single-page
    label (from the page's model state) and its label."""
    cluster_id, elements, state = session.execute(
        select(Page.cluster_id, Page.blocks, PageModel.state)
        .join(PageModel, PageModel.page_id == Page.id)
        .where(Page.url.endswith(url_part))
    ).one()
    assert cluster_id is not None
    places = StatePlaces.of(session, cluster_id).places
    decoded = decode_state(state)
    position = next(index for index, key_id in enumerate(decoded.key_ids) if places[key_id][1] == "h1")
    label = code_label(element_code(elements[position]))
    return position, code_label(decoded.page_codes[position]), label


def _headline(database_url: str, url_part: str) -> tuple[str, str]:
    """The (single-page label, label) of the h1 block of the stored page whose URL holds `url_part`."""
    with _sessions(database_url) as sessions, sessions() as session:
        _, page_label, label = _h1(session, url_part)
        return page_label, label


def test_pages_stored_before_the_threshold_are_recleaned(shared_dir: Path, database_url: str) -> None:
    posts = whizzy_post_files(shared_dir, MIN_PAGES + 1)
    first = posts[0].removesuffix("index.html")
    process = Process(database_url)
    for post in posts[: MIN_PAGES - 1]:
        process.crawl(shared_dir, post)
    # The first pages keep their single-page labels: the post's headline is set aside as the title.
    assert _headline(database_url, first) == ("noise", "noise")
    process.crawl(shared_dir, posts[MIN_PAGES - 1])
    # The cluster's model is ready: the pages stored before are re-cleaned, the headline is content.
    assert _headline(database_url, first) == ("noise", "content")
    process.crawl(shared_dir, posts[MIN_PAGES])
    process.close()
    # At the end every page, before the threshold or after it, has its headline and no template line.
    for post in posts:
        assert _headline(database_url, post.removesuffix("index.html")) == ("noise", "content")
    with _sessions(database_url) as sessions, sessions() as session:
        texts = session.scalars(select(clean_pages.c.text)).all()
    assert len(texts) == len(posts)
    assert not any("Comments have moved" in (text or "") for text in texts)
    with _sessions(database_url) as sessions:
        assert search_index_mismatches(sessions) == []  # re-cleaning kept the search index in step


def test_a_site_override_reaches_the_models_of_that_site(shared_dir: Path, database_url: str) -> None:
    # whizzy is served as 127.0.0.1:8000 here: its model needs more pages than the crawl has.
    overrides = {"127.0.0.1": {"EXTRACTION_SITE_MIN_PAGES": 2 * MIN_PAGES}}
    process = Process(database_url, EXTRACTION_SITE_OVERRIDES=overrides)
    posts = whizzy_post_files(shared_dir, MIN_PAGES + 1)
    for post in posts:
        process.crawl(shared_dir, post)
    process.close()
    # Without the override the cluster's model restores every headline (the test above).
    for post in posts:
        assert _headline(database_url, post.removesuffix("index.html")) == ("noise", "noise")


def test_recleaned_pages_keep_the_size_and_hash_of_their_clean_text(
    shared_dir: Path, database_url: str
) -> None:
    _crawl_posts(shared_dir, database_url, MIN_PAGES + 1)
    with _sessions(database_url) as sessions, sessions() as session:
        texts = dict(session.execute(select(clean_pages.c.url, clean_pages.c.text)).all())
        pages = session.execute(select(Page.url, Page.stored_bytes, Page.content_hash)).all()
    # Re-cleaning restored each post's headline: the stored figures were computed again, from the rows.
    assert len(pages) == MIN_PAGES + 1
    for url, stored_bytes, content_hash in pages:
        assert _headline_text(database_url, url) in texts[url]
        expected = (len(texts[url].encode("utf-8")), hash_to_int(text_hash(texts[url])))
        assert (stored_bytes, content_hash) == expected


def _headline_text(database_url: str, url: str) -> str:
    with _sessions(database_url) as sessions, sessions() as session:
        position, _, label = _h1(session, url)
        text = session.scalar(
            select(page_blocks.c.text)
            .join(Page, Page.id == page_blocks.c.page_id)
            .where(Page.url == url, page_blocks.c.position == position)
        )
        assert label == "content" and text
        return text


def test_noise_text_is_forgotten_when_the_crawl_ends(shared_dir: Path, database_url: str) -> None:
    process = Process(database_url)
    for post in whizzy_post_files(shared_dir, MIN_PAGES + 1):
        process.crawl(shared_dir, post)
    with _sessions(database_url) as sessions, sessions() as session:
        waiting = select(PendingText.hash).where(PendingText.text.contains("On code and gadgets."))
        assert session.scalar(waiting) is not None
    process.close()
    with _sessions(database_url) as sessions, sessions() as session:
        kept = session.scalars(select(Block.text).where(Block.text.is_not(None))).all()
        referred = select(page_blocks.c.block_id).where(page_blocks.c.label == "content")
        content = set(session.scalars(referred.where(page_blocks.c.block_id.is_not(None))))
        all_text = session.scalars(select(Block.id).where(Block.text.is_not(None))).all()
        pending = session.scalar(select(func.count()).select_from(PendingText))
    assert not any("On code and gadgets." in text for text in kept)
    assert set(all_text) <= content
    assert pending == 0


@pytest.mark.postgres
def test_two_processes_sharing_postgresql_decide_as_one(shared_dir: Path) -> None:
    posts = whizzy_post_files(shared_dir, 12)
    with new_postgres_schema() as shared_url, new_postgres_schema() as single_url:
        # Two crawler processes meant to share the store: no crawl lock.
        one, two = Process(shared_url, CRAWL_LOCK=False), Process(shared_url, CRAWL_LOCK=False)
        for index, post in enumerate(posts):
            (one if index % 2 else two).crawl(shared_dir, post)
        one.close()
        two.close()
        alone = Process(single_url)
        for post in posts:
            alone.crawl(shared_dir, post)
        alone.close()
        shared, single = _labels(shared_url), _labels(single_url)
    assert shared == single
    assert any(label == "content" and rule == Rule.HEADLINE.name for label, rule in shared.values())
    # The lone process re-cleaned with the model it fed; each of the pair saw half the pages and rebuilt.
    assert _rebuilt(alone) == 0
    assert _rebuilt(one) > 0 and _rebuilt(two) > 0


# A rebuilt model revises the pages read to rebuild it when they are few enough to hold, and reads them again
# when they are not: the same labels either way.
@pytest.mark.parametrize("held", [1_000, 2])
def test_the_crawls_model_labels_as_a_model_rebuilt_from_the_store(
    shared_dir: Path, database_url: str, held: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reclean, "_PAGES_HELD", held)
    process = _crawl_posts(shared_dir, database_url, MIN_PAGES + 3)
    assert _rebuilt(process) == 0
    with _sessions(database_url) as sessions, sessions.begin() as session:
        cluster_id = session.scalars(select(Page.cluster_id)).first()
        assert cluster_id is not None
        again = reclean_cluster(session, cluster_id, SiteModelConfig(min_pages=MIN_PAGES))
    assert again.pages == MIN_PAGES + 3
    assert again.pages_changed == 0


def _rebuilt(process: Process) -> int:
    return int(process.store.stats.get_value(RECLEAN_REBUILT, 0))


@pytest.mark.parametrize("threshold", [0.3, 0.0])
def test_a_cluster_too_small_for_a_model_borrows_its_nearest_sibling_s(
    database_url: str, threshold: float
) -> None:
    # The handbook's section on source packages sets its side notes ("CAUTION", "CULTURE") aside, so its
    # layout founds a cluster of its own, one page. At the end it is revised with the model of the sections'
    # cluster, whose region holds the notes: they are the section's text. A threshold of 0 switches it off.
    if not DEBIAN_HANDBOOK.is_dir():
        pytest.skip(f"{DEBIAN_HANDBOOK} is missing (make docs-data installs debian-handbook)")
    names = [path.name for path in sorted(DEBIAN_HANDBOOK.glob("sect.*.html"))[:12]]
    process = Process(database_url, EXTRACTION_SITE_BORROW_THRESHOLD=threshold)
    for name in [*names, "sect.source-package-structure.html"]:
        process.add(item_from_file(DEBIAN_HANDBOOK / name, f"http://127.0.0.1:8000/{name}"))
    process.close()
    with _sessions(database_url) as sessions, sessions() as session:
        sizes = session.execute(select(func.count()).select_from(Page).group_by(Page.cluster_id)).scalars()
        assert sorted(sizes) == [1, len(names)]
        query = select(clean_pages.c.text).where(
            clean_pages.c.url.like("%sect.source-package-structure.html")
        )
        text = session.scalars(query).one()
    assert ("no required correspondence between the name of the source package" in text) is bool(threshold)
    assert process.crawler.stats.get_value(RECLEAN_BORROWED, 0) == (1 if threshold else 0)
