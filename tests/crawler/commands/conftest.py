"""Fixtures of the command tests: the databases storage runs against (see `tests/pipelines/databases.py`)."""

from tests.pipelines.databases import database_url

__all__ = ["database_url"]
