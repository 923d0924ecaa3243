"""The rule `VEILED`: a block hidden from screen readers, outside the content area.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28

Single-page extraction now keeps the text of a block-level element marked `aria-hidden` (a closed
accordion's answers, a carousel's other slides): inside the content area it is content; outside it, it
is noise under this rule, which a site model never turns into content (`extraction.site_models.model`).
Its code, 10, gets its row in `rules`, from which `page_blocks` reads a rule's name and sentence. A
downgrade deletes the row; blocks stored with the code then show no rule name until they are re-cleaned.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipelines.storage.rule_rows import add_rule, delete_rule

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# As `extraction.Rule.VEILED` and its `RULE_TEXT` (a migration keeps the text it wrote).
_CODE = 10


def upgrade() -> None:
    """Add the rule's row."""
    add_rule(_CODE, "VEILED", "noise", "outside the content area, hidden from screen readers")


def downgrade() -> None:
    """Delete the rule's row."""
    delete_rule(_CODE)
