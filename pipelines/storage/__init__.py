"""SQL storage of crawled pages: typed models, engine and migrations, the batched upserts, `SqlStore`."""

from pipelines.storage.db import make_engine, migrate, session_factory
from pipelines.storage.repository import BatchSummary, store_pages

__all__ = ["BatchSummary", "make_engine", "migrate", "session_factory", "store_pages"]
