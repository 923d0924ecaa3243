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

from pipelines.storage.rule_rows import add_rule, delete_rule

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# As `extraction.Rule.SECTION_HEAD` and its `RULE_TEXT` (a migration keeps the text it wrote).
_CODE = 23


def upgrade() -> None:
    """Add the rule's row."""
    add_rule(
        _CODE,
        "SECTION_HEAD",
        "content",
        "heads a section of the page's content (a heading, a definition's term)",
    )


def downgrade() -> None:
    """Delete the rule's row."""
    delete_rule(_CODE)
