"""Pages lose `final_url`: a page is stored under its final URL, so the column only ever repeated `url`.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Drop the column (SQLite 3.35 and later drop a column in place: no view or index names it)."""
    op.drop_column("pages", "final_url")


def downgrade() -> None:
    """Bring the column back, equal to `url` as it always was."""
    op.add_column("pages", sa.Column("final_url", sa.String(), nullable=False, server_default=""))
    op.execute("UPDATE pages SET final_url = url")
