"""A throwaway PostgreSQL database for a benchmark's store, so that what it holds is that run's alone."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from uuid import uuid4

from sqlalchemy import create_engine

POSTGRES_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"


@contextmanager
def new_database(prefix: str, server: str = POSTGRES_SERVER) -> Iterator[str]:
    """The URL of a new, empty database on `server` named `prefix` and a random suffix; dropped afterwards,
    even while a crawl still holds connections to it (FORCE)."""
    database = f"{prefix}_{uuid4().hex[:12]}"
    admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql(f"CREATE DATABASE {database}")
        yield f"{server}/{database}"
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        admin.dispose()
