"""`StoragePipeline` with a real Scrapy crawler object, and in a real crawl, on SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from sqlalchemy import func, select

from pipelines.storage import make_engine
from pipelines.storage.models import Page, page_blocks
from pipelines.storage.sql import SqlStore
from pipelines.store import StoragePipeline
from records import PageRecord
from records.stats import BYTES_RAW, BYTES_STORED, PAGES_STORE_FAILED, PAGES_STORED
from tests.addon import addon_crawler
from tests.pipelines.items import fixture_items, make_item

REPO_ROOT = Path(__file__).resolve().parents[2]


def open_pipeline(settings: dict[str, object]) -> StoragePipeline:
    return StoragePipeline.from_crawler(addon_crawler(settings))


def stored_urls(database_url: str) -> list[str]:
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            return list(connection.scalars(select(Page.url).order_by(Page.url)))
    finally:
        engine.dispose()


def shop_items(count: int) -> list[PageRecord]:
    return [
        make_item(f"https://shop.test/{index}", [("Menu", "noise"), (f"Page {index}.", "content")])
        for index in range(count)
    ]


def test_an_empty_database_url_switches_storage_off() -> None:
    with pytest.raises(NotConfigured, match="DATABASE_URL is empty"):
        StoragePipeline.from_crawler(addon_crawler({"DATABASE_URL": ""}))


def test_the_batch_size_setting_reaches_the_pipeline(tmp_path: Path) -> None:
    settings = {"DATABASE_URL": f"sqlite:///{tmp_path / 'other.db'}", "STORAGE_BATCH_SIZE": "7"}
    assert StoragePipeline.from_crawler(addon_crawler(settings)).batch_size == 7


def test_the_known_blocks_setting_bounds_what_the_store_remembers(tmp_path: Path) -> None:
    settings = {"DATABASE_URL": f"sqlite:///{tmp_path / 'other.db'}", "STORAGE_KNOWN_BLOCKS": "9"}
    store = StoragePipeline.from_crawler(addon_crawler(settings)).store
    assert isinstance(store, SqlStore)
    assert store.known.capacity == 9


def test_a_batch_is_written_every_batch_size_pages_and_the_rest_on_close(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="pipelines.store")
    pipeline = open_pipeline({"DATABASE_URL": database_url, "STORAGE_BATCH_SIZE": 2})
    items = shop_items(5)
    written = []
    for item in items:
        assert pipeline.process_item(item) is item
        written.append(len(stored_urls(database_url)))
    assert written == [0, 2, 2, 4, 4]
    pipeline.close_spider()
    assert len(stored_urls(database_url)) == 5
    stats = pipeline.stats.get_stats()
    assert stats[PAGES_STORED] == 5
    assert stats[BYTES_RAW] == sum(item.raw_html_bytes for item in items)
    assert stats[BYTES_STORED] == sum(len(item.content_text.encode()) for item in items)
    logged = [record.getMessage() for record in caplog.records if record.getMessage().startswith("Stored ")]
    assert len(logged) == 3
    assert logged[-1].startswith("Stored 1 pages (1 new, 0 changed, 0 unchanged); 5 so far")


def test_a_bad_page_costs_only_itself(database_url: str) -> None:
    pipeline = open_pipeline({"DATABASE_URL": database_url, "STORAGE_BATCH_SIZE": 3})
    good, bad, after = shop_items(3)
    bad = dataclasses.replace(bad, title=None)  # breaks a NOT NULL column
    for item in (good, bad, after):
        pipeline.process_item(item)
    pipeline.close_spider()
    assert stored_urls(database_url) == [good.url, after.url]
    stats = pipeline.stats.get_stats()
    assert (stats[PAGES_STORED], stats[PAGES_STORE_FAILED]) == (2, 1)


def test_other_items_pass_through(database_url: str) -> None:
    pipeline = open_pipeline({"DATABASE_URL": database_url})
    other = {"url": "https://shop.test/"}
    assert pipeline.process_item(other) is other
    pipeline.close_spider()
    assert stored_urls(database_url) == []


def test_pages_are_stored_in_a_real_crawl(database_url: str, tmp_path: Path, fixtures_dir: Path) -> None:
    # Run outside the project directory: only the add-on, the spider's settings and Scrapy's defaults apply.
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    spider = REPO_ROOT / "tests" / "pipelines" / "store_spider.py"
    settings = {
        "ADDONS": json.dumps({"crawler.addon.CleancrawlAddon": 0}),
        "CLUSTER_ENABLED": "False",
        "NOISE_ENABLED": "False",
        "SITE_MODELS_ENABLED": "False",
        "STORAGE_BATCH_SIZE": "3",
        "DATABASE_URL": database_url,
    }
    command = [sys.executable, "-m", "scrapy", "runspider", str(spider)]
    for name, value in settings.items():
        command += ["-s", f"{name}={value}"]
    proc = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    items = fixture_items(fixtures_dir)
    assert stored_urls(database_url) == sorted(item.url for item in items)
    assert re.search(rf"'{PAGES_STORED}': {len(items)}\b", proc.stderr), proc.stderr
    assert "Stored 3 pages (3 new" in proc.stderr
    assert "Deprecat" not in proc.stderr
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            blocks = connection.scalar(select(func.count()).select_from(page_blocks))
    finally:
        engine.dispose()
    assert blocks == sum(len(item.blocks) for item in items)
