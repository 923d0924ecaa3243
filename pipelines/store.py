"""`StoragePipeline`: store each page's row, block hashes and informative text in SQL, batch by batch.

Settings:
- ``DATABASE_URL`` (default ``sqlite:///cleancrawl.db``, in the working directory): where pages are stored;
  ``postgresql+psycopg://user@host:5432/db`` works the same. Empty switches the pipeline off.
- ``STORAGE_BATCH_SIZE`` (default 50): pages written per transaction. A crash loses at most the pages of
  the batch being filled; larger batches cost fewer commits. When a batch fails, its pages are retried one
  per transaction: a page that cannot be stored is logged and counted, the others are kept.

Stats (of committed pages): ``cleancrawl/pages_stored``, ``cleancrawl/pages_store_failed``,
``cleancrawl/bytes_raw`` (their HTML bytes), ``cleancrawl/bytes_stored`` (their clean text, UTF-8 bytes).
Block counts are `NoisePipeline`'s (``cleancrawl/blocks_content``, ``cleancrawl/blocks_noise``).

The schema is created or upgraded (Alembic) when the spider opens. Batches are written in the reactor
thread, whatever the reactor: storing 272 whizzy pages (~115 blocks each) costs ~2 ms a page on SQLite
(WAL) and ~6 ms on PostgreSQL (~1 ms when re-stored unchanged), so a batch of 50 holds the reactor for
~0.1 s (SQLite) or ~0.4 s (PostgreSQL). A writer thread made the crawl no faster (the work is mostly
Python, holding the GIL) and only halved that pause; on PostgreSQL a batch of 10 costs the same per page.
"""

from __future__ import annotations

import logging
from typing import Any, Self

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.statscollectors import StatsCollector
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from crawler.items import PageItem
from pipelines.storage import (
    DEFAULT_DATABASE_URL,
    BatchSummary,
    make_engine,
    migrate,
    session_factory,
    store_pages,
)

logger = logging.getLogger(__name__)

PAGES_STORED = "cleancrawl/pages_stored"
PAGES_STORE_FAILED = "cleancrawl/pages_store_failed"
BYTES_RAW = "cleancrawl/bytes_raw"
BYTES_STORED = "cleancrawl/bytes_stored"
DEFAULT_BATCH_SIZE = 50


class StoragePipeline:
    """Queue each `PageItem`; write a batch per transaction; flush the rest when the spider closes."""

    def __init__(self, database_url: str, batch_size: int, stats: StatsCollector) -> None:
        self.database_url = database_url
        self.batch_size = max(1, batch_size)
        self.stats = stats
        self.pending: list[PageItem] = []
        self._engine: Engine | None = None
        self._sessions: sessionmaker[Session] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Read ``DATABASE_URL`` and ``STORAGE_BATCH_SIZE``; NotConfigured when the URL is empty."""
        url = crawler.settings.get("DATABASE_URL", DEFAULT_DATABASE_URL)
        if not url:
            raise NotConfigured("DATABASE_URL is empty: pages are not stored")
        assert crawler.stats is not None
        return cls(url, crawler.settings.getint("STORAGE_BATCH_SIZE", DEFAULT_BATCH_SIZE), crawler.stats)

    def open_spider(self) -> None:
        """Connect and bring the schema up to date before the first page arrives."""
        self._engine = make_engine(self.database_url)
        migrate(self._engine)
        self._sessions = session_factory(self._engine)
        logger.info("Storing pages in %s, %d per transaction", self._engine.url, self.batch_size)

    def process_item(self, item: Any) -> Any:
        """Queue a page; write the queue when it holds a batch. Other items pass through."""
        if isinstance(item, PageItem):
            self.pending.append(item)
            if len(self.pending) >= self.batch_size:
                self.flush()
        return item

    def close_spider(self) -> None:
        """Write what is left and release the connections."""
        self.flush()
        if self._engine is not None:
            self._engine.dispose()

    def flush(self) -> None:
        """Write the queued pages in one transaction, or page by page when the batch as a whole fails."""
        batch, self.pending = self.pending, []
        if not batch:
            return
        try:
            summary = self._write(batch)
        except SQLAlchemyError:
            logger.exception("Writing a batch of %d pages failed; retrying page by page", len(batch))
            batch, summary = self._write_one_by_one(batch)
        self._count(batch)
        self._log(summary)

    def _write(self, batch: list[PageItem]) -> BatchSummary:
        assert self._sessions is not None, "open_spider() was not called"
        with self._sessions.begin() as session:
            return store_pages(session, batch)

    def _write_one_by_one(self, batch: list[PageItem]) -> tuple[list[PageItem], BatchSummary]:
        """Store each page in its own transaction (a bad page costs only itself); return the stored ones."""
        stored: list[PageItem] = []
        summary = BatchSummary()
        for item in batch:
            try:
                one = self._write([item])
            except SQLAlchemyError:
                logger.exception("Could not store %s", item.url)
                self.stats.inc_value(PAGES_STORE_FAILED)
                continue
            stored.append(item)
            summary.new += one.new
            summary.changed += one.changed
            summary.unchanged += one.unchanged
        return stored, summary

    def _count(self, batch: list[PageItem]) -> None:
        raw = sum(item.raw_html_bytes for item in batch)
        clean = sum(len(item.content_text.encode("utf-8")) for item in batch)
        self.stats.inc_value(PAGES_STORED, len(batch))
        self.stats.inc_value(BYTES_RAW, raw)
        self.stats.inc_value(BYTES_STORED, clean)

    def _log(self, summary: BatchSummary) -> None:
        pages, raw, clean = (self.stats.get_value(key, 0) for key in (PAGES_STORED, BYTES_RAW, BYTES_STORED))
        saved = raw - clean
        logger.info(
            "Stored %d pages (%d new, %d changed, %d unchanged); %d so far: %.1f MB of HTML kept as "
            "%.2f MB of clean text, %.1f MB (%.1f%%) saved",
            summary.new + summary.changed + summary.unchanged,
            summary.new,
            summary.changed,
            summary.unchanged,
            pages,
            raw / 1e6,
            clean / 1e6,
            saved / 1e6,
            100 * saved / raw if raw else 0.0,
        )
