"""Initial schema: sites, clusters, pages, blocks by hash, page blocks, cluster block counts; SQL views.

Revision ID: 0001
Revises:
Create Date: 2026-11-22

The views are the stable SQL interface (`clean_pages`, `index_savings`); their SQL is written out here, not
imported, so that this migration keeps creating what it created when later code changes.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The clean text of a page: its content blocks in page order, one per line ("" when none is content).
# SQLite has no ordered string aggregate before 3.44, but its group_concat follows the order of an ordered
# subquery; PostgreSQL's string_agg takes the order itself.
CLEAN_PAGES_TEXT = {
    "sqlite": """(
            SELECT group_concat(ordered.text, char(10))
            FROM (
                SELECT b.text AS text
                FROM page_blocks AS pb JOIN blocks AS b ON b.hash = pb.block_hash
                WHERE pb.page_id = p.id AND pb.label = 'content'
                ORDER BY pb.position
            ) AS ordered
        )""",
    "postgresql": """(
            SELECT string_agg(b.text, E'\\n' ORDER BY pb.position)
            FROM page_blocks AS pb JOIN blocks AS b ON b.hash = pb.block_hash
            WHERE pb.page_id = p.id AND pb.label = 'content'
        )""",
}

CLEAN_PAGES = """
CREATE VIEW clean_pages AS
-- clean_pages: one row per stored page; text = its content blocks in page order joined by newlines.
SELECT
    p.url AS url,
    s.host AS site,
    c.signature AS cluster,
    p.fetched_at AS fetched_at,
    p.title AS title,
    coalesce({text}, '') AS text
FROM pages AS p
JOIN sites AS s ON s.id = p.site_id
LEFT JOIN clusters AS c ON c.id = p.cluster_id
"""

# UTF-8 byte length of a text, and the floating point type of the ratios, in each dialect.
OCTETS = {"sqlite": "length(CAST({} AS BLOB))", "postgresql": "octet_length({})"}
REAL = {"sqlite": "REAL", "postgresql": "double precision"}

INDEX_SAVINGS_DEFINITION = (
    "stored_bytes = UTF-8 bytes of the distinct informative (content) block texts of the site, each counted "
    "once, + 8 bytes (one 64-bit block hash) per page_blocks row of the site, content or noise: what the "
    "store holds for the text of the site. raw_html_bytes and visible_text_bytes are sums over the pages "
    "of the site. stored_vs_html = stored_bytes / raw_html_bytes, "
    "stored_vs_text = stored_bytes / visible_text_bytes (NULL when the denominator is 0)."
)

INDEX_SAVINGS = """
CREATE VIEW index_savings AS
-- index_savings: what the store holds per site against what was fetched.
-- {definition}
WITH page_totals AS (
    SELECT site_id, count(*) AS pages, sum(raw_html_bytes) AS raw_html_bytes,
        sum(visible_text_bytes) AS visible_text_bytes
    FROM pages
    GROUP BY site_id
),
text_totals AS (
    SELECT site_hashes.site_id, sum({octets}) AS text_bytes
    FROM (
        SELECT DISTINCT p.site_id, pb.block_hash
        FROM page_blocks AS pb JOIN pages AS p ON p.id = pb.page_id
        WHERE pb.label = 'content'
    ) AS site_hashes
    JOIN blocks AS b ON b.hash = site_hashes.block_hash
    GROUP BY site_hashes.site_id
),
hash_totals AS (
    SELECT p.site_id, count(*) AS block_rows
    FROM page_blocks AS pb JOIN pages AS p ON p.id = pb.page_id
    GROUP BY p.site_id
),
totals AS (
    SELECT s.host AS site, pt.pages, pt.raw_html_bytes, pt.visible_text_bytes,
        coalesce(tt.text_bytes, 0) + 8 * coalesce(ht.block_rows, 0) AS stored_bytes
    FROM page_totals AS pt
    JOIN sites AS s ON s.id = pt.site_id
    LEFT JOIN text_totals AS tt ON tt.site_id = pt.site_id
    LEFT JOIN hash_totals AS ht ON ht.site_id = pt.site_id
)
SELECT site, pages, raw_html_bytes, visible_text_bytes, stored_bytes,
    CAST(stored_bytes AS {real}) / nullif(raw_html_bytes, 0) AS stored_vs_html,
    CAST(stored_bytes AS {real}) / nullif(visible_text_bytes, 0) AS stored_vs_text
FROM totals
"""


def upgrade() -> None:
    """Create the tables and the views."""
    _create_tables()
    dialect = op.get_bind().dialect.name
    op.execute(CLEAN_PAGES.format(text=CLEAN_PAGES_TEXT[dialect]))
    op.execute(
        INDEX_SAVINGS.format(
            definition=INDEX_SAVINGS_DEFINITION,
            octets=OCTETS[dialect].format("b.text"),
            real=REAL[dialect],
        )
    )
    if dialect == "postgresql":
        # PostgreSQL keeps no comments of a view's SQL text: put the definition in its catalog instead.
        op.execute(f"COMMENT ON VIEW index_savings IS '{INDEX_SAVINGS_DEFINITION}'")
        op.execute("COMMENT ON VIEW clean_pages IS 'the clean text of each page, content blocks in order'")


def downgrade() -> None:
    """Drop the views and the tables."""
    op.execute("DROP VIEW index_savings")
    op.execute("DROP VIEW clean_pages")
    for table in ("cluster_block_counts", "page_blocks", "blocks", "pages", "clusters", "sites"):
        op.drop_table(table)


def _create_tables() -> None:
    op.create_table(
        "sites",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("host", sa.String(), nullable=False, unique=True),
    )
    op.create_table(
        "clusters",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("site_id", sa.Integer(), sa.ForeignKey("sites.id", ondelete="CASCADE"), nullable=False),
        sa.Column("signature", sa.String(), nullable=False),
        sa.Column("page_count", sa.Integer(), nullable=False),
        sa.UniqueConstraint("site_id", "signature", name="uq_clusters_site_id_signature"),
    )
    _create_pages()
    op.create_table(
        "blocks",
        sa.Column("hash", sa.String(length=16), primary_key=True),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("first_seen", sa.DateTime(timezone=True), nullable=False),
    )
    _create_page_blocks()
    op.create_table(
        "cluster_block_counts",
        sa.Column(
            "cluster_id", sa.Integer(), sa.ForeignKey("clusters.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("block_hash", sa.String(length=16), sa.ForeignKey("blocks.hash"), primary_key=True),
        sa.Column("pages", sa.Integer(), nullable=False),
    )


def _create_pages() -> None:
    op.create_table(
        "pages",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("url", sa.String(), nullable=False, unique=True),
        sa.Column("final_url", sa.String(), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("site_id", sa.Integer(), sa.ForeignKey("sites.id", ondelete="CASCADE"), nullable=False),
        sa.Column(
            "cluster_id", sa.Integer(), sa.ForeignKey("clusters.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("raw_html_bytes", sa.Integer(), nullable=False),
        sa.Column("visible_text_bytes", sa.Integer(), nullable=False),
        sa.Column("stored_bytes", sa.Integer(), nullable=False),
        sa.Column("content_hash", sa.String(length=16), nullable=False),
    )
    op.create_index("ix_pages_cluster_id", "pages", ["cluster_id"])
    op.create_index("ix_pages_site_id", "pages", ["site_id"])


def _create_page_blocks() -> None:
    op.create_table(
        "page_blocks",
        sa.Column("page_id", sa.Integer(), sa.ForeignKey("pages.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("position", sa.Integer(), primary_key=True),
        sa.Column("block_hash", sa.String(length=16), sa.ForeignKey("blocks.hash"), nullable=False),
        sa.Column("label", sa.String(length=8), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.CheckConstraint("label IN ('content', 'noise')", name="ck_page_blocks_label"),
    )
    op.create_index("ix_page_blocks_block_hash", "page_blocks", ["block_hash"])
