"""The rows of the `rules` table, as a migration adds a new rule's and a downgrade deletes it.

A migration passes the row it wrote (code, name, label, sentence) rather than reading `extraction.Rule`: it
must keep writing what it wrote when the rule's sentence later changes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

_RULES = sa.table(
    "rules",
    sa.column("code", sa.Integer()),
    sa.column("name", sa.String()),
    sa.column("label", sa.String()),
    sa.column("description", sa.Text()),
)


def add_rule(code: int, name: str, label: str, description: str) -> None:
    """Insert a rule's row."""
    op.bulk_insert(_RULES, [{"code": code, "name": name, "label": label, "description": description}])


def delete_rule(code: int) -> None:
    """Delete a rule's row."""
    op.execute(_RULES.delete().where(_RULES.c.code == code))
