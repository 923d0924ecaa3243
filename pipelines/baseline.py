"""`BaselinePipeline`: every page's visible text, whole, in a store of its own with the same full-text index.

It is what the clean store is measured against (`scrapy savings --baseline URL`, `make bench-store`): an
indexer that drops markup but keeps every line of the page, template included. It runs before
`NoisePipeline`, which forgets the text of noise blocks, and writes in batches of ``STORAGE_BATCH_SIZE``.

Settings:
- ``BASELINE_DATABASE_URL`` (default empty: off): the SQLAlchemy URL of the baseline store, created when
  missing; a SQLite file or a PostgreSQL database (or schema) apart from ``DATABASE_URL``'s.
"""

from __future__ import annotations

import logging
from typing import Any, Self

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from sqlalchemy.exc import SQLAlchemyError

from pipelines.storage.baseline import BaselineStore
from records import PageRecord

logger = logging.getLogger(__name__)


class BaselinePipeline:
    """Write each page's visible text to the baseline store, a batch per transaction."""

    def __init__(self, store: BaselineStore, batch_size: int, compact_share: float) -> None:
        self.store = store
        self.batch_size = max(1, batch_size)
        self.compact_share = compact_share
        self.pending: list[tuple[str, str]] = []

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """NotConfigured unless ``BASELINE_DATABASE_URL`` is set (off by default: no warning)."""
        url = crawler.settings.get("BASELINE_DATABASE_URL")
        if not url:
            raise NotConfigured
        if url == crawler.settings.get("DATABASE_URL"):
            raise NotConfigured("BASELINE_DATABASE_URL must differ from DATABASE_URL")
        logger.info("Writing every page's visible text to the baseline store too")
        settings = crawler.settings
        share = settings.getfloat("STORAGE_COMPACT_SHARE")
        return cls(BaselineStore(url), settings.getint("STORAGE_BATCH_SIZE"), share)

    def process_item(self, item: Any) -> Any:
        """Queue the page's visible text (all its blocks, one per line); pass the item on."""
        if isinstance(item, PageRecord):
            self.pending.append((item.url, "\n".join(block.text for block in item.blocks)))
            if len(self.pending) >= self.batch_size:
                self._flush()
        return item

    def close_spider(self) -> None:
        """Write the last batch and close the store, compacted as the clean store is."""
        self._flush()
        self.store.close(self.compact_share)

    def _flush(self) -> None:
        pages, self.pending = self.pending, []
        try:
            self.store.write(pages)
        except SQLAlchemyError:
            # The baseline is a yardstick: a failed batch is logged, the crawl and its own store go on.
            logger.exception("Writing %d pages to the baseline store failed", len(pages))
