"""Alembic environment: runs the migrations on the connection `pipelines.storage.db.migrate` passes in."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from pipelines.storage.models import Base


def run_migrations(connection: Connection) -> None:
    """Upgrade the database behind `connection` inside the caller's transaction."""
    # `make_engine` starts SQLite transactions itself (BEGIN), so DDL is transactional on SQLite too: a
    # migration that fails halfway leaves the schema as it was, on both databases.
    context.configure(connection=connection, target_metadata=Base.metadata, transactional_ddl=True)
    with context.begin_transaction():
        context.run_migrations()


_connection = context.config.attributes.get("connection")
if _connection is None:
    # Migrations are run by `migrate()` (the storage pipeline, `scrapy savings`), never by the alembic CLI:
    # there is no alembic.ini, and the views need a live connection to pick their dialect's SQL.
    raise RuntimeError("run migrations through pipelines.storage.db.migrate(url)")
run_migrations(_connection)
