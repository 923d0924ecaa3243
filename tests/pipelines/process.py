"""The pipelines of one crawler process, run on items without a crawl: as the spider's items pass them."""

from __future__ import annotations

from pathlib import Path

from pipelines.cluster import ClusterPipeline
from pipelines.context import CrawlContext
from pipelines.noise import NoisePipeline
from pipelines.store import StoragePipeline
from records import PageRecord
from tests.addon import addon_crawler
from tests.pipelines.pages import whizzy_item

MIN_PAGES = 5


class Process:
    """The clustering, noise and storage pipelines of one crawler process, on one database."""

    def __init__(self, database_url: str, **extra: object) -> None:
        settings = {
            "DATABASE_URL": database_url,
            "STORAGE_BATCH_SIZE": 1,
            "EXTRACTION_SITE_MIN_PAGES": MIN_PAGES,
            **extra,
        }
        self.crawler = crawler = addon_crawler(settings)
        self.context = CrawlContext.of(crawler)
        self.cluster = ClusterPipeline.from_crawler(crawler)
        self.noise = NoisePipeline.from_crawler(crawler)
        self.store = StoragePipeline.from_crawler(crawler)

    def add(self, item: PageRecord) -> None:
        """Pass one page through the pipelines, as the spider's item."""
        self.store.process_item(self.noise.process_item(self.cluster.process_item(item)))

    def crawl(self, shared_dir: Path, post: str) -> None:
        """Pass one whizzy post through the pipelines."""
        self.add(whizzy_item(shared_dir, post))

    def close(self) -> None:
        """Close the spider: the storage pipeline's last batch, settling and re-cleaning."""
        self.store.close_spider()
        self.context.close()
