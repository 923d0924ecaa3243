"""Crawl state and page history: the crawl's memory of every URL met, and the versions of changed pages.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24

- `crawl_urls`: one row per URL met in scope: its state (queued, stored, skipped, gone, redirected, alias,
  trapped, failed) and why, depth and referring URL, the last fetch's validators and hashes, the revisit
  interval and when it is due (`pipelines/storage/models.py` describes the columns);
- `page_history`: the versions of pages whose informative content changed;
- `pages.gone_at`: when a stored page answered 404 or 410; `pages.relevance`: a focused crawl's relevance of
  the page to its topic;
- views: `clean_pages_all` (every stored page, gone ones too, with `gone_at`), `clean_pages` (those not
  gone, as before), `page_versions` (each version of a changed page) and `page_changes` (each change:
  blocks added and removed).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the tables, the column and the views."""
    _tables()
    op.add_column("pages", sa.Column("gone_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("pages", sa.Column("relevance", sa.Float(), nullable=True))
    op.execute("DROP VIEW clean_pages")
    for view in _views(op.get_bind().dialect.name):
        op.execute(view)


def downgrade() -> None:
    """Drop what `upgrade` added (the crawl's memory and the pages' history are lost).

    SQLite drops a column by rebuilding the table, which no view reading it survives: every view on `pages`
    goes first and comes back as 0004 made it.
    """
    added = ("page_changes", "page_versions", "clean_pages", "clean_pages_all")
    for view in (*added, "page_blocks", "index_savings"):
        op.execute(f"DROP VIEW {view}")
    with op.batch_alter_table("pages") as batch:
        batch.drop_column("gone_at")
        batch.drop_column("relevance")
    op.drop_table("page_history")
    op.drop_table("crawl_urls")
    for statement in context.script.get_revision("0004").module._views(op.get_bind().dialect.name):
        if "CREATE VIEW store_size" not in statement:
            op.execute(statement)


def _tables() -> None:
    op.create_table(
        "crawl_urls",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("site_id", sa.Integer(), sa.ForeignKey("sites.id", ondelete="CASCADE"), nullable=False),
        sa.Column("url", sa.String(), nullable=False, unique=True),
        sa.Column("state", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(), nullable=True),
        sa.Column("depth", sa.Integer(), server_default="0", nullable=False),
        sa.Column("referrer_id", sa.Integer(), nullable=True),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("page_id", sa.Integer(), sa.ForeignKey("pages.id", ondelete="SET NULL"), nullable=True),
        sa.Column("first_seen", sa.BigInteger(), nullable=False),
        sa.Column("fetched_at", sa.BigInteger(), nullable=True),
        sa.Column("etag", sa.String(), nullable=True),
        sa.Column("last_modified", sa.String(), nullable=True),
        sa.Column("html_hash", sa.BigInteger(), nullable=True),
        sa.Column("interval", sa.Integer(), nullable=True),
        sa.Column("due_at", sa.BigInteger(), nullable=False),
        sa.Column("fetches", sa.Integer(), server_default="0", nullable=False),
        sa.Column("changes", sa.Integer(), server_default="0", nullable=False),
    )
    op.create_index("ix_crawl_urls_site_id_due_at", "crawl_urls", ["site_id", "due_at"])
    op.create_table(
        "page_history",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("page_id", sa.Integer(), sa.ForeignKey("pages.id", ondelete="CASCADE"), nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("content_hash", sa.BigInteger(), nullable=False),
        sa.Column("blocks", sa.JSON(), nullable=False),
        sa.Column("added", sa.JSON(), nullable=False),
    )
    op.create_index("ix_page_history_page_id", "page_history", ["page_id"])


def _clean_text(dialect: str) -> str:
    """The clean text of a page (`p`) from its blocks: migration 0004's expression, unchanged."""
    text: str = context.script.get_revision("0004").module._CLEAN_TEXT[dialect]
    return text


_CLEAN_PAGES_ALL = """
CREATE VIEW clean_pages_all AS
-- clean_pages_all: every stored page, gone ones too (gone_at: when it answered 404 or 410); relevance: a
-- focused crawl's relevance of the page to its topic (NULL without a topic).
SELECT p.id AS page_id, p.url AS url, s.host AS site, c.name AS cluster, p.fetched_at AS fetched_at,
    p.title AS title, coalesce({text}, '') AS text, p.gone_at AS gone_at, p.relevance AS relevance
FROM pages AS p
JOIN sites AS s ON s.id = p.site_id
LEFT JOIN clusters AS c ON c.id = p.cluster_id
"""
_CLEAN_PAGES = """
CREATE VIEW clean_pages AS
-- clean_pages: one row per stored page that is not gone; text = its content blocks in page order, one a line.
SELECT page_id, url, site, cluster, fetched_at, title, text, relevance FROM clean_pages_all
WHERE gone_at IS NULL
"""
_VERSIONS = """
SELECT h.id, h.page_id, h.fetched_at, h.content_hash, h.blocks, h.added,
    row_number() OVER (PARTITION BY h.page_id ORDER BY h.fetched_at, h.id) AS version
FROM page_history AS h
"""
_PAGE_VERSIONS = f"""
CREATE VIEW page_versions AS
-- page_versions: each version of a page whose informative content changed, the current one last:
-- when it was fetched, its clean text's hash and how many content blocks it had.
SELECT v.page_id, p.url, v.version, v.fetched_at, v.content_hash, {{length}} AS blocks
FROM ({_VERSIONS}) AS v JOIN pages AS p ON p.id = v.page_id
"""
_PAGE_CHANGES = f"""
CREATE VIEW page_changes AS
-- page_changes: each informative change of a page: the version it made, when, and how many content
-- blocks it added and removed (by hash).
SELECT n.page_id, p.url, n.version, n.fetched_at AS changed_at,
    (SELECT count(*) FROM {{new}} WHERE {{new_value}} NOT IN (SELECT {{old_value}} FROM {{old}}))
        AS blocks_added,
    (SELECT count(*) FROM {{old}} WHERE {{old_value}} NOT IN (SELECT {{new_value}} FROM {{new}}))
        AS blocks_removed
FROM ({_VERSIONS}) AS n
JOIN ({_VERSIONS}) AS o ON o.page_id = n.page_id AND o.version = n.version - 1
JOIN pages AS p ON p.id = n.page_id
"""
_ELEMENTS = {
    "sqlite": {
        "length": "json_array_length(v.blocks)",
        "new": "json_each(n.blocks) AS a",
        "old": "json_each(o.blocks) AS r",
        "new_value": "a.value",
        "old_value": "r.value",
    },
    "postgresql": {
        "length": "json_array_length(v.blocks)",
        "new": "json_array_elements_text(n.blocks) AS a(value)",
        "old": "json_array_elements_text(o.blocks) AS r(value)",
        "new_value": "a.value",
        "old_value": "r.value",
    },
}


def _views(dialect: str) -> list[str]:
    parts = _ELEMENTS[dialect]
    return [
        _CLEAN_PAGES_ALL.format(text=_clean_text(dialect)),
        _CLEAN_PAGES,
        _PAGE_VERSIONS.format(length=parts["length"]),
        _PAGE_CHANGES.format(**parts),
    ]
