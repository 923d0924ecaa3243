"""Site models: what a cluster's model needs from each stored block, and each cluster's representative.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22

`page_blocks` gains the block's tag and kind, its site-model keys (`slot`, the layout path; `shape_hash`,
the near-duplicate key) and the single-page decision (`page_label`, `page_reason`) that the cluster's
model revises into `label` and `reason`; re-cleaning starts again from the single-page decision, so it
gives the same answer however often it runs. `clusters.shingles` holds the representative signature
(space-separated hex shingles) that pages are compared with, shared by every crawler process.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_PAGE_BLOCK_COLUMNS = (
    sa.Column("tag", sa.String(16), nullable=False, server_default=""),
    sa.Column("kind", sa.String(10), nullable=False, server_default=""),
    sa.Column("slot", sa.Text(), nullable=False, server_default=""),
    sa.Column("shape_hash", sa.String(16), nullable=True),
    sa.Column("page_label", sa.String(8), nullable=False, server_default=""),
    sa.Column("page_reason", sa.Text(), nullable=False, server_default=""),
)


def upgrade() -> None:
    """Add the columns; blocks stored before keep their label as their single-page decision."""
    for column in _PAGE_BLOCK_COLUMNS:
        op.add_column("page_blocks", column)
    op.execute("UPDATE page_blocks SET page_label = label, page_reason = reason")
    op.add_column("clusters", sa.Column("shingles", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    """Drop the columns again."""
    with op.batch_alter_table("clusters") as batch:
        batch.drop_column("shingles")
    with op.batch_alter_table("page_blocks") as batch:
        for column in reversed(_PAGE_BLOCK_COLUMNS):
            batch.drop_column(column.name)
