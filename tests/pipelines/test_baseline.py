"""`BaselinePipeline` with a real crawler: every page's visible text, whole, in a store apart."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from sqlalchemy import text

from pipelines.baseline import BaselinePipeline
from pipelines.storage import make_engine
from tests.addon import addon_crawler
from tests.pipelines.items import make_item


def test_off_unless_a_baseline_store_is_named(tmp_path: Path) -> None:
    with pytest.raises(NotConfigured):
        BaselinePipeline.from_crawler(addon_crawler({}))
    same = f"sqlite:///{tmp_path / 'store.db'}"
    with pytest.raises(NotConfigured, match="must differ from DATABASE_URL"):
        BaselinePipeline.from_crawler(addon_crawler({"DATABASE_URL": same, "BASELINE_DATABASE_URL": same}))


def test_every_page_is_written_whole_noise_included(database_url: str) -> None:
    pipeline = BaselinePipeline.from_crawler(
        addon_crawler({"BASELINE_DATABASE_URL": database_url, "STORAGE_BATCH_SIZE": 2})
    )
    items = [
        make_item(f"https://shop.test/{index}", [("Home | Shop", "noise"), (f"Page {index}.", "content")])
        for index in range(3)
    ]
    for item in items:
        assert pipeline.process_item(item) is item
    pipeline.process_item(
        make_item("https://shop.test/0", [("Home | Shop", "noise"), ("Fetched again.", "content")])
    )
    pipeline.close_spider()
    engine = make_engine(database_url)
    with engine.connect() as connection:
        rows = dict(connection.execute(text("SELECT url, text FROM baseline_pages")).all())
    engine.dispose()
    assert rows == {
        "https://shop.test/0": "Home | Shop\nFetched again.",  # a URL stored again replaces its row
        "https://shop.test/1": "Home | Shop\nPage 1.",
        "https://shop.test/2": "Home | Shop\nPage 2.",
    }
