"""`CrawlContext`: what one crawl builds once and its spider, pipelines and extensions share.

A Scrapy extension (`crawler.addon` installs it), so there is exactly one per crawler and every component
finds it with ``crawler.get_extension(CrawlContext)`` (`CrawlContext.of`), the way Scrapy's own components
find each other. It holds:

- the crawl's extraction configuration (`pipelines.config.CrawlConfig`), parsed once from the settings;
- the store's engine and session factory, created and migrated once, on first use (``DATABASE_URL``;
  empty: no database, clusters live in memory and nothing is stored), disposed when the spider closes;
- the crawl's cluster models (`pipelines.cluster_models.CrawlModels`) when site models are on
  (``SITE_MODELS_ENABLED``, and only with cleancrawl's own method, whose part they are).
"""

from __future__ import annotations

import logging
from typing import Self

from scrapy import signals
from scrapy.crawler import Crawler
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from extraction.methods.registry import DEFAULT_METHOD
from pipelines.cluster_models import CrawlModels
from pipelines.config import CrawlConfig, crawl_config
from pipelines.storage import make_engine, migrate, session_factory

logger = logging.getLogger(__name__)


class CrawlContext:
    """The crawl's configuration, store connection and cluster models, one instance per crawler."""

    def __init__(self, config: CrawlConfig, database_url: str = "", site_models: bool = True) -> None:
        self.config = config
        self.database_url = database_url
        # Site models are part of the cleancrawl method: a paper method's labels are its own.
        self.models = CrawlModels(config) if site_models and config.method == DEFAULT_METHOD else None
        self._engine: Engine | None = None
        self._sessions: sessionmaker[Session] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Parse the crawl's settings; the database is opened on first use."""
        settings = crawler.settings
        site_models = settings.getbool("SITE_MODELS_ENABLED")
        context = cls(crawl_config(settings), settings.get("DATABASE_URL") or "", site_models)
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

    @property
    def site_models(self) -> bool:
        """Whether the cluster models revise labels and re-clean stored pages."""
        return self.models is not None

    @property
    def sessions(self) -> sessionmaker[Session] | None:
        """Sessions on the store, migrated to the latest schema on first use; None without a database."""
        if self._sessions is None and self.database_url:
            self._engine = make_engine(self.database_url)
            migrate(self._engine)
            self._sessions = session_factory(self._engine)
            logger.info("Store %s opened, schema up to date", self._engine.url)
        return self._sessions

    def close(self) -> None:
        """Release the store's connections (every pipeline has closed by now)."""
        if self._engine is not None:
            self._engine.dispose()
            self._engine, self._sessions = None, None
