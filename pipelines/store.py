"""`StoragePipeline`: store each page's row, block hashes and informative text, batch by batch.

The pipeline batches and counts; a `PageStore` writes (`pipelines.storage.sql.SqlStore`, on the crawl's
database), as Scrapy's files pipeline hands files to a store it knows only by its protocol.

Settings:
- ``DATABASE_URL`` (default ``sqlite:///cleancrawl.db``, in the working directory): where pages are stored;
  ``postgresql+psycopg://user@host:5432/db`` works the same. Empty switches the pipeline off.
- ``STORAGE_BATCH_SIZE`` (default 50): pages written per transaction. A crash loses at most the pages of
  the batch being filled; larger batches cost fewer commits. When a batch fails, its pages are retried one
  per transaction: a page that cannot be stored is logged and counted, the others are kept.
- ``STORAGE_KNOWN_BLOCKS`` (default 65,536): blocks remembered by hash (`pipelines.storage.known`), so a
  batch asks the database only about new ones. More costs memory (~200 bytes a block); fewer, a block met
  again after it was forgotten is stored inline once more.
- ``SITE_MODELS_ENABLED`` (default True): re-clean with the clusters' models. When a cluster's model
  matures (``EXTRACTION_SITE_MIN_PAGES`` pages) and when the spider closes, every stored page of the
  cluster is re-cleaned from the database (`pipelines.storage.reclean`), so no page keeps a decision made
  before its cluster's template was known; then the text of blocks no page holds as content is forgotten.
  The model is the one `NoisePipeline` fed (`pipelines.cluster_models`) when it has seen exactly the
  cluster's stored pages, else it is rebuilt from the stored blocks (``cleancrawl/reclean_models_rebuilt``).
  Until then noise text is stored too (a crawl cut short leaves it; the next crawl's close removes it).
  When the crawl ends, a cluster with too few pages for a model of its own is re-cleaned with the model of
  its site's most similar cluster that has one (``EXTRACTION_SITE_BORROW_THRESHOLD``,
  ``cleancrawl/reclean_models_borrowed``).

Stats (`records.stats`): pages stored and failed, their HTML and clean-text bytes; re-cleaning's pages,
changed pages, relabelled blocks, seconds, rebuilt and borrowed models. Block counts are `NoisePipeline`'s.

Batches are written in the reactor thread, whatever the reactor: storing 272 whizzy pages (~115 blocks
each) costs ~2 ms a page on SQLite (WAL) and ~6 ms on PostgreSQL (~1 ms when re-stored unchanged), so a
batch of 50 holds the reactor for ~0.1 s (SQLite) or ~0.4 s (PostgreSQL). A writer thread made the crawl no
faster (the work is mostly Python, holding the GIL) and only halved that pause; on PostgreSQL a batch of 10
costs the same per page.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, Self

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.signalmanager import SignalManager
from scrapy.statscollectors import StatsCollector
from sqlalchemy.exc import SQLAlchemyError

from pipelines.config import CrawlConfig
from pipelines.context import CrawlContext
from pipelines.storage.known import KnownIds
from pipelines.storage.reclean import RecleanSummary
from pipelines.storage.repository import BatchSummary
from pipelines.storage.settle import SettleSummary
from pipelines.storage.sizes import StoreSize
from pipelines.storage.sql import Item, SqlStore, WriteSummary
from records import PageRecord, stats
from records.closing import ALONE, ClosingShare, Members
from records.signals import batch_written, closing_share
from records.urls import UrlRecord, UrlState

logger = logging.getLogger(__name__)

# A dropped page's reason as the crawl state keeps it: the pipeline's message, cut short.
_REASON_CHARS = 200


class PageStore(Protocol):
    """Where a crawl's pages and crawl state go: written batch by batch, re-cleaned by cluster."""

    def persist(self, items: Sequence[Item]) -> tuple[list[Item], WriteSummary]:
        """Write pages and outcomes; return those written (one that cannot be is left out), a summary."""

    def reclean(self, clusters: Iterable[tuple[str, str]], purge: bool) -> RecleanSummary:
        """Re-clean the stored pages of the (site, cluster) pairs; with `purge`, forget unused noise text."""

    def cluster_pages(self, clusters: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Members]:
        """The stored pages of each (site, cluster) pair."""

    def settle(self, site: str) -> SettleSummary:
        """Group the site's stored pages into clusters again, whatever order they came in."""

    def finish(self) -> StoreSize:
        """Give freed space back and measure the store on disk, by part."""


class StoragePipeline:
    """Queue each page; write a batch per transaction; flush the rest and re-clean when the spider closes."""

    def __init__(
        self,
        store: PageStore,
        batch_size: int,
        stats_collector: StatsCollector,
        config: CrawlConfig,
        recleans: bool,
    ) -> None:
        self.store = store
        self.batch_size = max(1, batch_size)
        self.stats = stats_collector
        self.config = config
        self.recleans = recleans
        self.pending: list[Item] = []
        # The (site, cluster) of every page this process stored: re-cleaned when the spider closes.
        self.clusters: set[tuple[str, str]] = set()
        # Where `records.signals.batch_written` goes (the crawler's signals; none outside a crawl).
        self.signals: SignalManager | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """NotConfigured when ``DATABASE_URL`` is empty."""
        context = CrawlContext.of(crawler)
        sessions = context.sessions
        if sessions is None:
            raise NotConfigured("DATABASE_URL is empty: pages are not stored")
        assert crawler.stats is not None
        compact_share = crawler.settings.getfloat("STORAGE_COMPACT_SHARE")
        known = KnownIds(crawler.settings.getint("STORAGE_KNOWN_BLOCKS"))
        store = SqlStore(
            sessions, context.config, context.models, compact_share, context.revisit, context.now, known
        )
        batch_size = crawler.settings.getint("STORAGE_BATCH_SIZE")
        logger.info("Storing pages %d per transaction", batch_size)
        pipeline = cls(store, batch_size, crawler.stats, context.config, context.site_models)
        pipeline.signals = crawler.signals
        crawler.signals.connect(pipeline.item_dropped, signal=signals.item_dropped)
        crawler.signals.connect(pipeline.flush, signal=signals.spider_idle)
        return pipeline

    def process_item(self, item: Any) -> Any:
        """Queue a page or a request's outcome; write the queue when it holds a batch. Other items pass
        through."""
        if isinstance(item, (PageRecord, UrlRecord)):
            self.pending.append(item)
            if len(self.pending) >= self.batch_size:
                self.flush()
        return item

    def item_dropped(self, item: Any, exception: BaseException) -> None:
        """A page an earlier pipeline dropped is skipped in the crawl state, with the pipeline's reason: not
        fetched again as if never tried."""
        if isinstance(item, PageRecord):
            reason = str(exception)[:_REASON_CHARS]
            outcome = UrlRecord(
                item.url,
                item.site,
                UrlState.SKIPPED,
                reason,
                "",
                item.fetched_at,
                item.depth,
                lease=item.lease,
            )
            self.process_item(outcome)

    def close_spider(self) -> None:
        """Write what is left and re-clean the clusters this process stored pages of; then, the last process
        of a fleet to close, forget unused noise text and measure the store (`records.closing`)."""
        self.flush()
        if self.recleans:
            self._settle()
        share = self._closing_share()
        share.begin()
        try:
            if self.recleans:
                self._reclean_claimed(share)
        finally:
            last = share.end()
        if not last:
            logger.info("Another process of the fleet is still closing: it forgets noise text and measures")
            return
        if self.recleans:
            self.reclean(set(), purge=True)
        try:
            size = self.store.finish()
        except SQLAlchemyError:
            logger.exception("Measuring the store failed")
            return
        parts = ", ".join(f"{part} {size.parts[part]:,}" for part in size.parts if size.parts[part])
        logger.info("Store on disk: %s bytes (%s)", f"{size.store_bytes:,}", parts)

    def flush(self) -> None:
        """Write the queued pages; re-clean the clusters whose model matured with them. Also when the crawl
        has nothing to do for a moment: a fleet waits for its processes' batches
        (`crawler.fleet_components`)."""
        batch, self.pending = self.pending, []
        if not batch:
            return
        written, summary = self.store.persist(batch)
        if self.signals is not None:
            self.signals.send_catch_log(batch_written, records=batch)
        pages = [item for item in written if isinstance(item, PageRecord)]
        failed = sum(isinstance(item, PageRecord) for item in batch) - len(pages)
        stored = [page for page in pages if page.url not in summary.aliases]
        if summary.aliases:
            self.stats.inc_value(stats.PAGES_ALIASED, len(summary.aliases))
        if failed:
            self.stats.inc_value(stats.PAGES_STORE_FAILED, failed)
        self._count(stored, summary)
        if stored:
            self._log(summary.pages)
        if self.recleans:
            self.clusters |= {(page.site, page.cluster) for page in stored if page.cluster}
            matured = {
                (page.site, page.cluster)
                for page in stored
                if page.cluster and page.model_pages == self.config.of(page.site).model.min_pages
            }
            if matured:
                self.reclean(matured, purge=False)

    def _closing_share(self) -> ClosingShare:
        """The share a handler of `closing_share` gives (a fleet's), else the whole of closing."""
        answers = self.signals.send_catch_log(closing_share) if self.signals is not None else []
        return next((share for _, share in answers if share is not None), ALONE)

    def _reclean_claimed(self, share: ClosingShare) -> None:
        """Re-clean the clusters this process stored pages of, the largest first, each claimed just before:
        in a fleet, a process done with one takes the next that no other process has."""
        started = time.perf_counter()
        summary = RecleanSummary()
        recleaned = 0
        for (site, cluster), members in self._cluster_pages():
            if share.claim(site, cluster, members):
                summary.add(self._recleaned({(site, cluster)}, purge=False))
                recleaned += 1
        self._report(summary, recleaned, time.perf_counter() - started, purge=False)

    def _cluster_pages(self) -> list[tuple[tuple[str, str], Members]]:
        """The clusters this process stored pages of and their stored pages, the largest first."""
        pairs = self.clusters
        try:
            pages = self.store.cluster_pages(pairs)
        except SQLAlchemyError:
            logger.exception("Reading the page counts of %d clusters failed", len(pairs))
            return [(pair, Members(0, 0)) for pair in sorted(pairs)]
        return sorted(pages.items(), key=lambda item: (-item[1].pages, item[0]))

    def _settle(self) -> None:
        """Group the pages of each site this process stored into clusters again, in an order that depends
        only on the stored pages (`pipelines.storage.settle`): a fleet's processes, whatever order they met
        the pages in, and one process end with the same clusters. The clusters pages left or joined are
        re-cleaned with the rest."""
        started = time.perf_counter()
        moved = 0
        for site in sorted({site for site, _ in self.clusters}):
            try:
                summary = self.store.settle(site)
            except SQLAlchemyError:
                logger.exception("Settling the clusters of %s failed; its pages keep their clusters", site)
                continue
            moved += summary.pages_moved
            self.clusters |= {(site, cluster) for cluster in summary.clusters}
        self.stats.inc_value(stats.CLUSTERS_SETTLED_PAGES, moved)
        logger.info("Settled the clusters in %.2f s: %d pages moved", time.perf_counter() - started, moved)

    def reclean(self, clusters: set[tuple[str, str]], purge: bool) -> RecleanSummary:
        """Re-clean every stored page of the given (site, cluster) pairs; then forget noise text if asked."""
        started = time.perf_counter()
        summary = self._recleaned(clusters, purge)
        self._report(summary, len(clusters), time.perf_counter() - started, purge)
        return summary

    def _recleaned(self, clusters: set[tuple[str, str]], purge: bool) -> RecleanSummary:
        try:
            with _crawl_heap_frozen():
                return self.store.reclean(clusters, purge)
        except SQLAlchemyError:
            logger.exception("Re-cleaning %d clusters failed; their pages keep their labels", len(clusters))
            self.stats.inc_value(stats.RECLEAN_FAILED)
            return RecleanSummary()

    def _report(self, summary: RecleanSummary, clusters: int, seconds: float, purge: bool) -> None:
        self.stats.inc_value(stats.RECLEAN_PAGES, summary.pages)
        self.stats.inc_value(stats.RECLEAN_PAGES_CHANGED, summary.pages_changed)
        self.stats.inc_value(stats.RECLEAN_BLOCKS, summary.blocks_relabelled)
        self.stats.inc_value(stats.RECLEAN_REBUILT, summary.models_rebuilt)
        self.stats.inc_value(stats.RECLEAN_BORROWED, summary.models_borrowed)
        stats.add_seconds(self.stats, stats.RECLEAN_SECONDS, seconds)
        if clusters:
            logger.info(
                "Re-cleaned %d pages of %d clusters in %.2f s: %d pages changed, %d blocks relabelled",
                summary.pages,
                clusters,
                seconds,
                summary.pages_changed,
                summary.blocks_relabelled,
            )
        if purge:
            logger.info("Forgot the text of %d noise blocks that no page holds as content", summary.purged)

    def _count(self, stored: list[PageRecord], summary: WriteSummary) -> None:
        raw = sum(page.raw_html_bytes for page in stored)
        clean = sum(len(page.content_text.encode("utf-8")) for page in stored)
        self.stats.inc_value(stats.PAGES_STORED, len(stored))
        self.stats.inc_value(stats.BYTES_RAW, raw)
        self.stats.inc_value(stats.BYTES_STORED, clean)
        state = summary.state
        for key, value in (
            (stats.RECRAWL_CHANGED, state.changed),
            (stats.RECRAWL_UNCHANGED, state.unchanged),
            (stats.RECRAWL_GONE, state.gone),
            (stats.URLS_QUEUED, state.queued),
            (stats.PAGES_NEW, summary.pages.new),
            (stats.PAGE_VERSIONS, summary.pages.versions),
        ):
            if value:
                self.stats.inc_value(key, value)

    def _log(self, summary: BatchSummary) -> None:
        totals = (stats.PAGES_STORED, stats.BYTES_RAW, stats.BYTES_STORED)
        pages, raw, clean = (self.stats.get_value(key, 0) for key in totals)
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
