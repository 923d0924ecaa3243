"""Settling a site's clusters at close: what is stored depends on the pages, not on the order they came in.

The pages are the first of the PostgreSQL 15 manual (Debian's postgresql-doc-15, which ``make docs-data``
installs): a DocBook book whose chapters, sections and reference pages share one thin template, so the
order a crawl meets them in decides which page founds which cluster.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from uuid import uuid4

import pytest
from sqlalchemy import select

from crawler.fleet import Fleet
from crawler.fleet_components import FleetClosing
from pipelines.storage import make_engine, session_factory
from pipelines.storage.models import ModelSignature, PageModel, clean_pages
from records import PageRecord
from records.signals import closing_share
from records.stats import CLUSTERS_SETTLED_PAGES
from tests.pipelines.databases import new_postgres_schema
from tests.pipelines.pages import item_from_file
from tests.pipelines.process import Process
from tests.redis_server import redis_server

MANUAL = Path("/usr/share/doc/postgresql-doc-15/html")
PAGES = 60

# What a store ends with: its clusters as sets of URLs, and each page's clean text.
Outcome = tuple[set[frozenset[str]], dict[str, str]]


def _manual_items(order: Sequence[int]) -> list[PageRecord]:
    """The manual's first pages, freshly extracted, in `order`."""
    if not MANUAL.is_dir():
        pytest.skip(f"{MANUAL} is missing (make docs-data installs postgresql-doc-15)")
    paths = sorted(MANUAL.glob("*.html"))[:PAGES]
    return [item_from_file(paths[index], f"http://127.0.0.1:8000/{paths[index].name}") for index in order]


def _orders() -> list[list[int]]:
    shuffled = list(range(PAGES))
    random.Random(7).shuffle(shuffled)
    return [list(range(PAGES)), list(reversed(range(PAGES))), shuffled]


def _outcome(database_url: str) -> Outcome:
    engine = make_engine(database_url)
    try:
        with session_factory(engine)() as session:
            rows = session.execute(select(clean_pages.c.url, clean_pages.c.cluster, clean_pages.c.text)).all()
    finally:
        engine.dispose()
    clusters: dict[str, set[str]] = defaultdict(set)
    for url, cluster, _ in rows:
        clusters[cluster].add(url)
    return {frozenset(urls) for urls in clusters.values()}, {url: text for url, _, text in rows}


def _moved(process: Process) -> int:
    return int(process.store.stats.get_value(CLUSTERS_SETTLED_PAGES, 0))


def test_pages_met_in_any_order_are_stored_alike(tmp_path: Path) -> None:
    outcomes, moved = [], []
    for number, order in enumerate(_orders()):
        url = f"sqlite:///{tmp_path / f'store-{number}.db'}"
        process = Process(url)
        for item in _manual_items(order):
            process.add(item)
        process.close()
        outcomes.append(_outcome(url))
        moved.append(_moved(process))
    assert outcomes[0][0] == outcomes[1][0] == outcomes[2][0]
    assert outcomes[0][1] == outcomes[1][1] == outcomes[2][1]
    # The orders grouped the pages otherwise as they came: settling moved pages.
    assert any(moved)
    assert len(outcomes[0][0]) > 1


def test_each_page_keeps_its_signature_once_per_site(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    process = Process(url)
    for item in _manual_items(range(PAGES)):
        process.add(item)
    process.close()
    engine = make_engine(url)
    try:
        with session_factory(engine)() as session:
            named = session.scalars(select(PageModel.signature_id)).all()
            signatures = session.scalars(select(ModelSignature.id)).all()
    finally:
        engine.dispose()
    assert len(named) == PAGES and None not in named
    assert set(named) == set(signatures)
    assert len(signatures) < PAGES / 2  # the pages share a few layouts


@pytest.mark.postgres
def test_a_fleet_sharing_a_store_keeps_what_one_process_does() -> None:
    # Two processes of a fleet (real Redis shares their closing): each meets every other page of a shuffled
    # order; one closes before the other.
    fleet = Fleet(redis_server(), f"cleancrawl-test:{uuid4().hex}", lease_seconds=60)
    with new_postgres_schema() as shared_url, new_postgres_schema() as single_url:
        one, two = _fleet_process(shared_url, fleet, "one"), _fleet_process(shared_url, fleet, "two")
        for index, item in enumerate(_manual_items(_orders()[2])):
            (one if index % 2 else two).add(item)
        one.close()
        two.close()
        assert [fleet.leave("one"), fleet.leave("two")] == [False, True]
        alone = Process(single_url)
        for item in _manual_items(range(PAGES)):
            alone.add(item)
        alone.close()
        assert _outcome(shared_url) == _outcome(single_url)


def _fleet_process(database_url: str, fleet: Fleet, worker: str) -> Process:
    """A process of `fleet` on a store it shares (no crawl lock), closing its share as a fleet's does."""
    process = Process(database_url, CRAWL_LOCK=False)
    fleet.join(worker)
    share = FleetClosing(fleet, worker)
    process.crawler.signals.connect(lambda: share, signal=closing_share, weak=False)
    return process
