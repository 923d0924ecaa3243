"""SQL storage of crawled pages: typed models, engine and migrations, and the batched upserts."""

from pipelines.storage.db import DEFAULT_DATABASE_URL, make_engine, migrate, session_factory
from pipelines.storage.repository import BatchSummary, SiteSavings, savings_by_site, store_pages

__all__ = [
    "DEFAULT_DATABASE_URL",
    "BatchSummary",
    "SiteSavings",
    "make_engine",
    "migrate",
    "savings_by_site",
    "session_factory",
    "store_pages",
]
