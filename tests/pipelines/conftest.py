"""Fixtures of the pipeline tests: the databases storage runs against (see `tests/pipelines/databases.py`)."""

from tests.pipelines.databases import database_url, engine, sessions

__all__ = ["database_url", "engine", "sessions"]
