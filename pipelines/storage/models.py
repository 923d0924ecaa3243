"""SQLAlchemy 2.0 typed models of the store: one schema for SQLite and PostgreSQL.

The Alembic history in `migrations/` creates this schema; `tests/pipelines/storage/test_migrations.py`
checks that the two agree. The views `clean_pages` and `index_savings` are the stable SQL interface and
are created by the migrations; `clean_pages` and `index_savings` below describe them for queries.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    column,
    table,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# A block hash is `extraction.text_hash`: 64 bits written as 16 hex digits. Hex text is portable (SQLite has
# no unsigned 64-bit integer) and reads the same in SQL as in Python.
HASH_LENGTH = 16
CONTENT = "content"
NOISE = "noise"


class Base(DeclarativeBase):
    """Declarative base of the store's models."""

    # Named constraints, so that later migrations can alter them by name on both databases.
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(table_name)s_%(column_0_N_name)s",
            "uq": "uq_%(table_name)s_%(column_0_N_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


class Site(Base):
    """A crawled host (host[:port])."""

    __tablename__ = "sites"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    host: Mapped[str] = mapped_column(String, unique=True)


class Cluster(Base):
    """Pages of one site that share a template (same structural signature)."""

    __tablename__ = "clusters"
    __table_args__ = (UniqueConstraint("site_id", "signature"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("sites.id", ondelete="CASCADE"))
    signature: Mapped[str] = mapped_column(String)
    page_count: Mapped[int] = mapped_column(Integer, default=0)
    # The representative signature pages are compared with: space-separated 16-hex-digit shingles.
    shingles: Mapped[str] = mapped_column(Text, default="", server_default="")


class Page(Base):
    """One stored page: what was fetched, its sizes, and the hash of its informative text."""

    __tablename__ = "pages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    url: Mapped[str] = mapped_column(String, unique=True)
    status: Mapped[int] = mapped_column(Integer)
    fetched_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    title: Mapped[str] = mapped_column(Text)
    site_id: Mapped[int] = mapped_column(ForeignKey("sites.id", ondelete="CASCADE"), index=True)
    cluster_id: Mapped[int | None] = mapped_column(ForeignKey("clusters.id", ondelete="SET NULL"), index=True)
    raw_html_bytes: Mapped[int] = mapped_column(Integer)
    visible_text_bytes: Mapped[int] = mapped_column(Integer)
    # UTF-8 bytes of the page's clean text (its content blocks joined by newlines).
    stored_bytes: Mapped[int] = mapped_column(Integer)
    content_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))


class Block(Base):
    """One distinct block text, by hash; the text is kept only when some page holds it as content."""

    __tablename__ = "blocks"

    hash: Mapped[str] = mapped_column(String(HASH_LENGTH), primary_key=True)
    text: Mapped[str | None] = mapped_column(Text)
    first_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PageBlock(Base):
    """A block of a page: where it stands, which text it is, and whether it is content or noise (and why)."""

    __tablename__ = "page_blocks"
    __table_args__ = (CheckConstraint(f"label IN ('{CONTENT}', '{NOISE}')", name="label"),)

    page_id: Mapped[int] = mapped_column(ForeignKey("pages.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Indexed: which pages hold a block is the question of noise learning and of re-cleaning.
    block_hash: Mapped[str] = mapped_column(ForeignKey("blocks.hash"), index=True)
    label: Mapped[str] = mapped_column(String(8))
    reason: Mapped[str] = mapped_column(Text, default="")
    tag: Mapped[str] = mapped_column(String(16), default="", server_default="")
    kind: Mapped[str] = mapped_column(String(10), default="", server_default="")
    # The site model's keys: the layout path and the near-duplicate hash (`extraction.site_models`).
    slot: Mapped[str] = mapped_column(Text, default="", server_default="")
    shape_hash: Mapped[str | None] = mapped_column(String(16))
    # The single-page decision, which the cluster's model revises into `label` and `reason`.
    page_label: Mapped[str] = mapped_column(String(8), default="", server_default="")
    page_reason: Mapped[str] = mapped_column(Text, default="", server_default="")


class ClusterBlockCount(Base):
    """How many pages of a cluster hold a block hash (at any position, counted once per page)."""

    __tablename__ = "cluster_block_counts"

    cluster_id: Mapped[int] = mapped_column(ForeignKey("clusters.id", ondelete="CASCADE"), primary_key=True)
    block_hash: Mapped[str] = mapped_column(ForeignKey("blocks.hash"), primary_key=True)
    pages: Mapped[int] = mapped_column(Integer)


# The views of the stable SQL interface, described for `select()` (the migrations create them).
clean_pages = table(
    "clean_pages",
    column("url", String),
    column("site", String),
    column("cluster", String),
    column("fetched_at", DateTime(timezone=True)),
    column("title", Text),
    column("text", Text),
)
index_savings = table(
    "index_savings",
    column("site", String),
    column("pages", Integer),
    column("raw_html_bytes", Integer),
    column("visible_text_bytes", Integer),
    column("stored_bytes", Integer),
    column("stored_vs_html", Float),
    column("stored_vs_text", Float),
)
