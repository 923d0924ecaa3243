"""The rule `SECTION_HEAD`: a heading or a definition's term that heads content of its page.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25

A site model now keeps a heading or a definition list's term, however often the cluster repeats it, when
the block it heads is content in its container (`extraction.site_models.model`). Its code, 23, gets its
row in `rules`, from which `page_blocks` reads a rule's name and sentence. A downgrade deletes the row;
blocks stored with the code then show no rule name until they are re-cleaned.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_RULES = sa.table(
    "rules",
    sa.column("code", sa.Integer()),
    sa.column("name", sa.String()),
    sa.column("label", sa.String()),
    sa.column("description", sa.Text()),
)
# As `extraction.Rule.SECTION_HEAD` and its `RULE_TEXT` (a migration keeps the text it wrote).
_CODE = 23
_ROW = {
    "code": _CODE,
    "name": "SECTION_HEAD",
    "label": "content",
    "description": "heads a section of the page's content (a heading, a definition's term)",
}


def upgrade() -> None:
    """Add the rule's row."""
    op.bulk_insert(_RULES, [_ROW])


def downgrade() -> None:
    """Delete the rule's row."""
    op.execute(_RULES.delete().where(_RULES.c.code == _CODE))
