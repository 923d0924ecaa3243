"""`CrawlContext`: what one crawl builds once and its spider, pipelines and extensions share.

A Scrapy extension (`crawler.addon` installs it), so there is exactly one per crawler and every component
finds it with ``crawler.get_extension(CrawlContext)`` (`CrawlContext.of`), the way Scrapy's own components
find each other. It holds:

- the crawl's extraction configuration (`pipelines.config.CrawlConfig`), parsed once from the settings;
- the store's engine and session factory, created and migrated once, on first use (``DATABASE_URL``;
  empty: no database, clusters live in memory and nothing is stored), disposed when the spider closes;
- the crawl's cluster models (`pipelines.cluster_models.CrawlModels`) when site models are on
  (``SITE_MODELS_ENABLED``, and only with cleancrawl's own method, whose part they are);
- the revisit policy (``RECRAWL_*``, `pipelines.revisit`) and the crawl's clock (``RECRAWL_NOW``).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Self

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.settings import BaseSettings
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from extraction.methods.registry import DEFAULT_METHOD
from extraction.site_models import SiteModel
from pipelines.cluster_models import CrawlModels
from pipelines.config import CrawlConfig, crawl_config
from pipelines.lock import CrawlLock, lock_path
from pipelines.revisit import RevisitPolicy, now_or, revisit_policy
from pipelines.storage import make_engine, migrate, session_factory
from pipelines.storage.db import StoreError, check_store
from pipelines.storage.sql import stored_model

logger = logging.getLogger(__name__)


class CrawlContext:
    """The crawl's configuration, store connection and cluster models, one instance per crawler."""

    def __init__(
        self,
        config: CrawlConfig,
        database_url: str = "",
        site_models: bool = True,
        revisit: RevisitPolicy | None = None,
        clock: str = "",
        lock: bool = False,
    ) -> None:
        self.config = config
        self.database_url = database_url
        self.revisit = revisit or RevisitPolicy()
        # RECRAWL_NOW: a simulated present (empty: the real time).
        self.clock = clock
        # CRAWL_LOCK: hold the store's crawl lock while the crawl runs.
        self.lock = lock
        self._lock: CrawlLock | None = None
        # Site models are part of the cleancrawl method: a paper method's labels are its own.
        use_models = site_models and config.method == DEFAULT_METHOD
        self.models = CrawlModels(config, self._stored_model) if use_models else None
        self._engine: Engine | None = None
        self._sessions: sessionmaker[Session] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Parse the crawl's settings; the database is opened on first use."""
        settings = crawler.settings
        site_models = settings.getbool("SITE_MODELS_ENABLED")
        database = settings.get("DATABASE_URL") or ""
        clock = settings.get("RECRAWL_NOW") or ""
        now_or(clock)  # a bad RECRAWL_NOW stops the crawl at start
        revisit, lock = revisit_policy(settings), holds_lock(settings)
        context = cls(crawl_config(settings), database, site_models, revisit, clock, lock)
        crawler.signals.connect(context.close, signal=signals.spider_closed)
        return context

    @classmethod
    def of(cls, crawler: Crawler) -> CrawlContext:
        """The crawler's context; an error that says what to do when the add-on is not installed."""
        context = crawler.get_extension(cls)
        if context is None:
            raise RuntimeError(
                "cleancrawl's components need its add-on: add 'crawler.addon.CleancrawlAddon' to ADDONS"
            )
        return context

    def now(self) -> datetime:
        """The crawl's present: the real time, or the simulated one of ``RECRAWL_NOW``."""
        return now_or(self.clock)

    @property
    def site_models(self) -> bool:
        """Whether the cluster models revise labels and re-clean stored pages."""
        return self.models is not None

    @property
    def sessions(self) -> sessionmaker[Session] | None:
        """Sessions on the store, migrated to the latest schema on first use; None without a database."""
        if self._sessions is None and self.database_url:
            engine = make_engine(self.database_url)
            if self.lock:
                self._lock = CrawlLock.acquire(engine)  # before the first write, the migration's included
            migrate(engine)
            self._engine, self._sessions = engine, session_factory(engine)
            logger.info("Store %s opened, schema up to date", engine.url)
        return self._sessions

    def _stored_model(self, site: str, cluster: str) -> tuple[SiteModel, set[str]] | None:
        """A cluster's model as its stored pages teach it (`CrawlModels` asks once per cluster)."""
        sessions = self.sessions
        return stored_model(sessions, self.config, site, cluster) if sessions is not None else None

    def close(self) -> None:
        """Release the crawl lock and the store's connections (every pipeline has closed by now)."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        if self._engine is not None:
            self._engine.dispose()
            self._engine, self._sessions = None, None


def check_settings(settings: BaseSettings) -> None:
    """What stops a crawl at start, checked before it starts: bad ``EXTRACTION_*``, ``RECRAWL_*`` settings
    (`ExtractionSettingError`, ValueError), a store that cannot be opened (`StoreError`: a bad URL, a
    directory or server that is not there) and a store another crawl holds (`CrawlLockHeldError`)."""
    crawl_config(settings)
    revisit_policy(settings)
    now_or(settings.get("RECRAWL_NOW") or "")
    for name in ("DATABASE_URL", "BASELINE_DATABASE_URL"):
        url = settings.get(name) or ""
        if url:
            try:
                check_store(url)
            except StoreError as error:
                raise StoreError(f"{name}: {error}") from None
    database = settings.get("DATABASE_URL") or ""
    if database and holds_lock(settings):
        _check_lock(database)


def holds_lock(settings: BaseSettings) -> bool:
    """Whether the crawl holds its store's crawl lock (``CRAWL_LOCK``): never in a fleet (``REDIS_URL``),
    whose processes share one store by design."""
    return settings.getbool("CRAWL_LOCK") and not settings.get("REDIS_URL")


def _check_lock(database: str) -> None:
    engine = make_engine(database)
    try:
        CrawlLock.acquire(engine).release()
    except OSError as error:
        raise StoreError(f"cannot take the crawl lock {lock_path(engine)}: {error.strerror}") from None
    finally:
        engine.dispose()
