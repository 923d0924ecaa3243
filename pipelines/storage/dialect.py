"""What differs between the two engines in the statements the store writes."""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session


def insert_for(session: Session, model: Any) -> postgresql.Insert | sqlite.Insert:
    """An INSERT for `model` in the session's dialect, which has ON CONFLICT (upsert) clauses."""
    if is_postgresql(session):
        return postgresql.insert(model)
    return sqlite.insert(model)


def is_postgresql(session: Session) -> bool:
    """True when the session's database is PostgreSQL (else SQLite)."""
    return session.get_bind().dialect.name == "postgresql"
