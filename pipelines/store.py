"""`StoragePipeline`: store each page's row, block hashes and informative text in SQL, batch by batch.

Settings:
- ``DATABASE_URL`` (default ``sqlite:///cleancrawl.db``, in the working directory): where pages are stored;
  ``postgresql+psycopg://user@host:5432/db`` works the same. Empty switches the pipeline off.
- ``STORAGE_BATCH_SIZE`` (default 50): pages written per transaction. A crash loses at most the pages of
  the batch being filled; larger batches cost fewer commits. When a batch fails, its pages are retried one
  per transaction: a page that cannot be stored is logged and counted, the others are kept.

- ``SITE_MODELS_ENABLED`` (default True): re-clean with the clusters' models. When a cluster's model
  matures (``EXTRACTION_SITE_MIN_PAGES`` pages) and when the spider closes, every stored page of the
  cluster is re-cleaned from the database (`pipelines.storage.reclean`), so no page keeps a decision made
  before its cluster's template was known; then the text of blocks no page holds as content is forgotten.
  The model is the one `NoisePipeline` fed (`pipelines.cluster_models`) when it has seen exactly the
  cluster's stored pages, else it is rebuilt from the stored blocks (``cleancrawl/reclean_models_rebuilt``).
  Until then noise text is stored too (a crawl cut short leaves it; the next crawl's close removes it).

Stats (of committed pages): ``cleancrawl/pages_stored``, ``cleancrawl/pages_store_failed``,
``cleancrawl/bytes_raw`` (their HTML bytes), ``cleancrawl/bytes_stored`` (their clean text, UTF-8 bytes);
re-cleaning: ``cleancrawl/reclean_pages``, ``cleancrawl/reclean_pages_changed``,
``cleancrawl/reclean_blocks_relabelled``, ``cleancrawl/reclean_seconds``. Block counts are
`NoisePipeline`'s (``cleancrawl/blocks_content``, ``cleancrawl/blocks_noise``).

The schema is created or upgraded (Alembic) when the spider opens. Batches are written in the reactor
thread, whatever the reactor: storing 272 whizzy pages (~115 blocks each) costs ~2 ms a page on SQLite
(WAL) and ~6 ms on PostgreSQL (~1 ms when re-stored unchanged), so a batch of 50 holds the reactor for
~0.1 s (SQLite) or ~0.4 s (PostgreSQL). A writer thread made the crawl no faster (the work is mostly
Python, holding the GIL) and only halved that pause; on PostgreSQL a batch of 10 costs the same per page.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Self

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.statscollectors import StatsCollector
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from crawler.items import PageItem
from crawler.stats import add_seconds
from extraction.site_models import SiteModel
from pipelines.cluster_models import CrawlModels
from pipelines.config import SiteConfigs, site_configs
from pipelines.method import site_models_enabled
from pipelines.storage import (
    DEFAULT_DATABASE_URL,
    BatchSummary,
    make_engine,
    migrate,
    session_factory,
    store_pages,
)
from pipelines.storage.reclean import RecleanSummary, purge_noise_text, reclean_cluster, stored_urls
from pipelines.storage.repository import cluster_ids, site_of

logger = logging.getLogger(__name__)

PAGES_STORED = "cleancrawl/pages_stored"
PAGES_STORE_FAILED = "cleancrawl/pages_store_failed"
BYTES_RAW = "cleancrawl/bytes_raw"
BYTES_STORED = "cleancrawl/bytes_stored"
RECLEAN_PAGES = "cleancrawl/reclean_pages"
RECLEAN_PAGES_CHANGED = "cleancrawl/reclean_pages_changed"
RECLEAN_BLOCKS = "cleancrawl/reclean_blocks_relabelled"
RECLEAN_SECONDS = "cleancrawl/reclean_seconds"
RECLEAN_REBUILT = "cleancrawl/reclean_models_rebuilt"
DEFAULT_BATCH_SIZE = 50


class StoragePipeline:
    """Queue each `PageItem`; write a batch per transaction; flush the rest when the spider closes."""

    def __init__(
        self,
        database_url: str,
        batch_size: int,
        stats: StatsCollector,
        configs: SiteConfigs | None = None,
        site_models: CrawlModels | None = None,
    ) -> None:
        self.database_url = database_url
        self.batch_size = max(1, batch_size)
        self.stats = stats
        self.configs = configs or SiteConfigs()
        self.site_models = site_models
        self.pending: list[PageItem] = []
        # The (site, cluster) of every page this process stored: re-cleaned when the spider closes.
        self.clusters: set[tuple[str, str]] = set()
        self._engine: Engine | None = None
        self._sessions: sessionmaker[Session] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Read ``DATABASE_URL`` and ``STORAGE_BATCH_SIZE``; NotConfigured when the URL is empty."""
        url = crawler.settings.get("DATABASE_URL", DEFAULT_DATABASE_URL)
        if not url:
            raise NotConfigured("DATABASE_URL is empty: pages are not stored")
        assert crawler.stats is not None
        settings = crawler.settings
        batch_size = settings.getint("STORAGE_BATCH_SIZE", DEFAULT_BATCH_SIZE)
        configs = site_configs(settings)
        site_models = CrawlModels.of(crawler) if site_models_enabled(settings, configs.default) else None
        return cls(url, batch_size, crawler.stats, configs, site_models)

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
        """Write what is left, re-clean the clusters this process stored pages of, release the connections."""
        self.flush()
        if self.site_models is not None and self._sessions is not None:
            self.reclean(self.clusters, purge=True)
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
        if self.site_models is not None:
            stored = {(site_of(item), item.cluster) for item in batch if item.cluster}
            self.clusters |= stored
            matured = {
                (site_of(item), item.cluster)
                for item in batch
                if item.cluster and item.model_pages == self.configs.of(site_of(item)).site_min_pages
            }
            if matured:
                self.reclean(matured, purge=False)

    def reclean(self, clusters: set[tuple[str, str]], purge: bool) -> RecleanSummary:
        """Re-clean every stored page of the given (site, cluster) pairs; then forget noise text if asked."""
        assert self._sessions is not None, "open_spider() was not called"
        started = time.perf_counter()
        summary = RecleanSummary()
        try:
            with _crawl_heap_frozen(), self._sessions.begin() as session:
                for (site, cluster), cluster_id in cluster_ids(session, clusters).items():
                    model = self._learned_model(session, site, cluster, cluster_id)
                    config = self.configs.of(site)
                    summary.add(reclean_cluster(session, cluster_id, config, model))
                purged = purge_noise_text(session) if purge else 0
        except SQLAlchemyError:
            logger.exception("Re-cleaning %d clusters failed; their pages keep their labels", len(clusters))
            return summary
        seconds = time.perf_counter() - started
        self._count_reclean(summary, seconds)
        logger.info(
            "Re-cleaned %d pages of %d clusters in %.2f s: %d pages changed, %d blocks relabelled%s",
            summary.pages,
            len(clusters),
            seconds,
            summary.pages_changed,
            summary.blocks_relabelled,
            f"; forgot the text of {purged} noise blocks" if purge else "",
        )
        return summary

    def _learned_model(self, session: Session, site: str, cluster: str, cluster_id: int) -> SiteModel | None:
        """This crawl's model of the cluster when it has seen exactly its stored pages; None to rebuild it."""
        learned = self.site_models.get(site, cluster) if self.site_models is not None else None
        if learned is not None and learned.mirrors(stored_urls(session, cluster_id)):
            return learned.model
        self.stats.inc_value(RECLEAN_REBUILT)
        return None

    def _count_reclean(self, summary: RecleanSummary, seconds: float) -> None:
        self.stats.inc_value(RECLEAN_PAGES, summary.pages)
        self.stats.inc_value(RECLEAN_PAGES_CHANGED, summary.pages_changed)
        self.stats.inc_value(RECLEAN_BLOCKS, summary.blocks_relabelled)
        add_seconds(self.stats, RECLEAN_SECONDS, seconds)

    def _write(self, batch: list[PageItem]) -> BatchSummary:
        assert self._sessions is not None, "open_spider() was not called"
        with self._sessions.begin() as session:
            return store_pages(session, batch, keep_noise_text=self.site_models is not None)

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


@contextmanager
def _crawl_heap_frozen() -> Iterator[None]:
    """Keep the crawl's own objects out of the garbage collections a re-clean sets off (`gc.freeze`).

    Re-cleaning makes and drops several objects per stored block, and each full collection it triggers
    would walk the whole crawl's heap as well: 0.6 s of a 4 s re-clean of the Python docs.
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
