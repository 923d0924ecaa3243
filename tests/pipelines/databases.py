"""The databases the storage tests run against: a fresh SQLite file and a fresh PostgreSQL schema per test.

PostgreSQL is the one on this machine (127.0.0.1:5432, database ``test``). Other test runs share that
database, so each test gets its own schema (``cc_<random hex>``), named in the URL's search_path so that
tables, views and ``alembic_version`` all land in it, and dropped afterwards.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from uuid import uuid4

import pytest
from sqlalchemy import Engine, create_engine, make_url, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from pipelines.storage import make_engine, migrate, session_factory
from pipelines.storage.search import words

POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
START_POSTGRES = (
    "start it with `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` "
    "(or `make services`)"
)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database: a SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
    else:
        yield from postgres_schema()


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """An engine on the database of `database_url` (not migrated), disposed of after the test."""
    created = make_engine(database_url)
    yield created
    created.dispose()


@pytest.fixture
def sessions(engine: Engine) -> sessionmaker[Session]:
    """Sessions on the migrated database of `database_url`."""
    migrate(engine)
    return session_factory(engine)


@contextmanager
def new_postgres_schema() -> Iterator[str]:
    """The URL of a new PostgreSQL schema of its own, dropped when the context ends."""
    schemas = postgres_schema()
    try:
        yield next(schemas)
    finally:
        schemas.close()


def postgres_schema() -> Iterator[str]:
    """Yield the URL of a new PostgreSQL schema of its own; drop it when the generator closes."""
    schema = f"cc_{uuid4().hex}"
    admin = create_engine(POSTGRES_URL, connect_args={"connect_timeout": 5})
    try:
        with admin.begin() as connection:
            connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
    except OperationalError as error:
        admin.dispose()
        pytest.fail(f"PostgreSQL is not reachable at {POSTGRES_URL} ({error.orig}); {START_POSTGRES}")
    url = make_url(POSTGRES_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


def search_index_mismatches(sessions: sessionmaker[Session]) -> list[str]:
    """How the search index differs from the clean text it should hold (empty: in step). SQLite: each word
    of the index's vocabulary against the clean pages holding it; PostgreSQL: each page's tsvector against
    the clean text's."""
    with sessions() as session:
        if session.get_bind().dialect.name == "postgresql":
            rows = session.execute(
                text(
                    "SELECT p.url, c.text, CAST(p.search AS text) FROM pages AS p "
                    "JOIN clean_pages AS c ON c.page_id = p.id"
                )
            )
            return [url for url, clean, vector in rows if _lexemes(vector) != set(words(clean))]
        indexed = dict(session.execute(text("SELECT term, doc FROM page_search_vocabulary")).all())
        counts: Counter[str] = Counter()
        for (clean,) in session.execute(text("SELECT text FROM clean_pages")):
            counts.update(set(words(clean)))
    return sorted(word for word in indexed.keys() | counts.keys() if indexed.get(word, 0) != counts[word])


def _lexemes(vector: str | None) -> set[str]:
    """The words of a stripped tsvector's text form ('a' 'b' ...)."""
    return {word.replace("''", "'") for word in re.findall(r"'((?:[^']|'')*)'", vector or "")}
