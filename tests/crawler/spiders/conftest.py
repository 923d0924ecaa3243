"""Fixtures of the spider tests: the databases a crawl stores into (see `tests/pipelines/databases.py`)."""

from tests.pipelines.databases import database_url

__all__ = ["database_url"]
