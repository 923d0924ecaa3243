"""Model signatures: each stored page keeps the layout signature it was clustered by.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28

A crawl groups a site's pages into clusters in the order it meets them, so processes that meet them in
other orders (a fleet) could group them otherwise. When a crawl closes, the site's stored pages are grouped
again from their signatures, in an order that depends only on the pages (`pipelines.storage.settle`). The
signatures are the site models' working state: `model_signatures` holds each distinct one once per site,
and `page_models.signature_id` names a page's. Pages stored before have none and keep their cluster until
they are stored again.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create `model_signatures` and `page_models.signature_id`."""
    op.create_table(
        "model_signatures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("site_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.BigInteger(), nullable=False),
        sa.Column("shingles", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["site_id"], ["sites.id"], name="fk_model_signatures_site_id_sites", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_model_signatures"),
        sa.UniqueConstraint("site_id", "key", name="uq_model_signatures_site_id_key"),
    )
    op.add_column("page_models", sa.Column("signature_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Drop them."""
    # Not a batch copy of the table on SQLite: the views that read page_models would stop it.
    op.execute("ALTER TABLE page_models DROP COLUMN signature_id")
    op.drop_table("model_signatures")
