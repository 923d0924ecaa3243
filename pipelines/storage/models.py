"""SQLAlchemy 2.0 typed models of the store: one schema for SQLite and PostgreSQL.

The Alembic history in `migrations/` creates this schema; `tests/pipelines/storage/test_migrations.py`
checks that the two agree. The views (`clean_pages`, `page_blocks`, `index_savings`, `store_size`) are the
stable SQL interface and are created by the migrations; they are described at the end for queries.

What holds what (`store_size` measures it):
- pages: a row per page, and in `pages.blocks` its blocks in order as one JSON array, a block being either
  inline, when no other page holds it (a string: one character that codes its label and rule, then its
  text if it is content, its hash if it is noise, `pipelines.storage.codec`), or a reference to the block
  dictionary (an integer, `block id * 64 + code`, the code being its label and rule, `rules`), or a run of
  references to consecutive ids with one code (`[first, count]`: a template's menu in a few bytes), or a
  run of inline content blocks with one code (one string: an article's paragraphs at a byte a block);
- the block dictionary (`blocks`): each block several pages hold, once, by its 64-bit text hash, with its
  text while some page refers to it as content (`content_pages` counts them);
- search index: the clean text of each page (SQLite: the FTS5 table `page_search`; PostgreSQL:
  `pages.search`, a tsvector with a GIN index);
- model state: what the site models need of each stored page to re-clean it (`page_models`, a compressed
  record per page, and `model_places`, each cluster's dictionary of block places), and while a crawl runs,
  the text of noise blocks a re-clean may restore (`pending_texts`): apart from the rest, no public table
  is shaped by it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    column,
    table,
)
from sqlalchemy.dialects.postgresql import TSVECTOR
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.expression import TableClause

from pipelines.storage.codec import BlockArray, Element

# The search index is made by SQL the models cannot describe (an FTS5 table and its shadow tables on SQLite,
# a GIN index on PostgreSQL): migration 0004 creates it, and comparisons of models and schema leave it out.
SEARCH_INDEX = "page_search"
SEARCH_GIN_INDEX = "ix_pages_search"


def described_by_models(name: str | None, kind: str) -> bool:
    """False for the objects of the search index (an `include_name` hook of Alembic's comparisons)."""
    if kind == "table":
        return not (name or "").startswith(SEARCH_INDEX)
    return name != SEARCH_GIN_INDEX


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
    """A crawled site (host[:port])."""

    __tablename__ = "sites"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    host: Mapped[str] = mapped_column(String, unique=True)


class Cluster(Base):
    """Pages of one site that share a template; `representative` is the signature pages are compared with
    (its shingles as 8-byte big-endian integers), `name` the hash of it."""

    __tablename__ = "clusters"
    __table_args__ = (UniqueConstraint("site_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("sites.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(16))
    page_count: Mapped[int] = mapped_column(Integer, default=0)
    representative: Mapped[bytes] = mapped_column(LargeBinary, default=b"", server_default="")


class Page(Base):
    """One stored page: what was fetched, its sizes, its blocks in order, and the hash of its clean text."""

    __tablename__ = "pages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    url: Mapped[str] = mapped_column(String, unique=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("sites.id", ondelete="CASCADE"), index=True)
    cluster_id: Mapped[int | None] = mapped_column(ForeignKey("clusters.id", ondelete="SET NULL"), index=True)
    status: Mapped[int] = mapped_column(Integer)
    fetched_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    title: Mapped[str] = mapped_column(Text)
    raw_html_bytes: Mapped[int] = mapped_column(Integer)
    visible_text_bytes: Mapped[int] = mapped_column(Integer)
    # UTF-8 bytes of the page's clean text (its content blocks joined by newlines), and its hash.
    stored_bytes: Mapped[int] = mapped_column(Integer)
    content_hash: Mapped[int] = mapped_column(BigInteger)
    # The hash of the page's blocks as extracted (their text hashes and single-page decisions): a new fetch
    # with the same fingerprint changes nothing stored.
    fingerprint: Mapped[int] = mapped_column(BigInteger)
    # Every block of the page in order: inline when no other page holds it (a string), else a reference to
    # the block dictionary, block id * 64 + code, runs of references packed (`pipelines.storage.codec`).
    blocks: Mapped[list[Element]] = mapped_column(BlockArray)
    # PostgreSQL's search index of the clean text (SQLite keeps its own, the FTS5 table page_search).
    search: Mapped[Any] = mapped_column(Text().with_variant(TSVECTOR(), "postgresql"), nullable=True)
    # When the page answered 404 or 410 (None while it is there): it leaves `clean_pages`, not the store.
    gone_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A focused crawl's relevance of the page to its topic (`extraction.topic`); None without a topic.
    relevance: Mapped[float | None] = mapped_column(Float)


class Block(Base):
    """The block dictionary: a block that several pages hold, once, by the 64-bit hash of its text; the
    text is kept while a page refers to it as content (`content_pages` counts those pages)."""

    __tablename__ = "blocks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hash: Mapped[int] = mapped_column(BigInteger, unique=True)
    text: Mapped[str | None] = mapped_column(Text)
    content_pages: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class RuleRow(Base):
    """The codes of `pages.blocks`: a block's label and the rule that decided it, with its sentence."""

    __tablename__ = "rules"

    code: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String)
    label: Mapped[str] = mapped_column(String(8))
    description: Mapped[str] = mapped_column(Text)


class ModelPlaces(Base):
    """Places of a cluster's template as the site models know blocks by them (layout path, tag and kind),
    a batch of new places per row, compressed (`pipelines.storage.model_state`): a page's model state
    names a place by its row and index."""

    __tablename__ = "model_places"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    cluster_id: Mapped[int] = mapped_column(ForeignKey("clusters.id", ondelete="CASCADE"), index=True)
    places: Mapped[bytes] = mapped_column(LargeBinary)


class PageModel(Base):
    """What the site models need of a stored page to re-clean it: per block its place (`model_places`), its
    single-page decision and its shape (`pipelines.storage.codec.ModelState`), compressed."""

    __tablename__ = "page_models"

    page_id: Mapped[int] = mapped_column(ForeignKey("pages.id", ondelete="CASCADE"), primary_key=True)
    cluster_id: Mapped[int] = mapped_column(ForeignKey("clusters.id", ondelete="CASCADE"), index=True)
    state: Mapped[bytes] = mapped_column(LargeBinary)
    # The page's layout signature (`model_signatures`); none for a page stored before signatures were kept.
    signature_id: Mapped[int | None] = mapped_column(Integer)


class ModelSignature(Base):
    """A layout signature the pages of a site were clustered by, once per site however many pages have it
    (`pipelines.storage.settle` groups a site's stored pages again by them when a crawl closes)."""

    __tablename__ = "model_signatures"
    __table_args__ = (UniqueConstraint("site_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("sites.id", ondelete="CASCADE"))
    key: Mapped[int] = mapped_column(BigInteger)
    shingles: Mapped[bytes] = mapped_column(LargeBinary)


class PendingText(Base):
    """The text of a noise block (by its hash) that a re-clean may still restore as content, until the
    crawl ends."""

    __tablename__ = "pending_texts"

    hash: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    text: Mapped[str] = mapped_column(Text)


class CrawlUrl(Base):
    """The crawl's memory of one URL met in scope: where it stands (`records.urls.UrlState`) and why, how it
    was found (depth, referring URL), what its last fetch said (validators, the hash of its HTML; the clean
    text's hash is its page's) and when it is due again. Times are seconds since the epoch (UTC): 4 to 8
    bytes a time."""

    __tablename__ = "crawl_urls"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("sites.id", ondelete="CASCADE"))
    url: Mapped[str] = mapped_column(String, unique=True)
    state: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str | None] = mapped_column(String)
    depth: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    referrer_id: Mapped[int | None] = mapped_column(Integer)
    target_id: Mapped[int | None] = mapped_column(Integer)
    page_id: Mapped[int | None] = mapped_column(ForeignKey("pages.id", ondelete="SET NULL"))
    first_seen: Mapped[int] = mapped_column(BigInteger)
    fetched_at: Mapped[int | None] = mapped_column(BigInteger)
    etag: Mapped[str | None] = mapped_column(String)
    last_modified: Mapped[str | None] = mapped_column(String)
    html_hash: Mapped[int | None] = mapped_column(BigInteger)
    # The revisit interval in seconds (`pipelines.revisit`), and when the URL is due (a queued URL: at once).
    interval: Mapped[int | None] = mapped_column(Integer)
    due_at: Mapped[int] = mapped_column(BigInteger)
    fetches: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    changes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    __table_args__ = (Index("ix_crawl_urls_site_id_due_at", "site_id", "due_at"),)


class PageHistory(Base):
    """A version of a page whose informative content changed: when it was fetched, its clean text's hash,
    its content blocks' hashes in order (`blocks`, hex) and the texts of the blocks it added to the version
    before (`added`, hash -> text; all of them for the first). A page that never changed has no row; one
    that changed has a row for every version, the current one last: a version costs its new blocks."""

    __tablename__ = "page_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("pages.id", ondelete="CASCADE"), index=True)
    fetched_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    content_hash: Mapped[int] = mapped_column(BigInteger)
    blocks: Mapped[list[str]] = mapped_column(JSON)
    added: Mapped[dict[str, str]] = mapped_column(JSON)


class StoreMeasure(Base):
    """The bytes on disk of one table or index of the store, and the part of the store it holds, as last
    measured (`pipelines.storage.sizes`); the view `store_size` shows them."""

    __tablename__ = "store_measures"

    relation: Mapped[str] = mapped_column(String, primary_key=True)
    part: Mapped[str] = mapped_column(String)
    bytes: Mapped[int] = mapped_column(BigInteger)
    measured_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# The views of the stable SQL interface, described for `select()` (the migrations create them). A column
# name has one type in every view.
_TIME = DateTime(timezone=True)
_VIEW_COLUMN_TYPES: dict[str, Any] = {
    "page_id": Integer, "url": String, "site": String, "cluster": String, "title": Text, "text": Text,
    "fetched_at": _TIME, "changed_at": _TIME, "gone_at": _TIME, "measured_at": _TIME, "relevance": Float,
    "version": Integer, "content_hash": BigInteger, "blocks": Integer, "blocks_added": Integer,
    "blocks_removed": Integer, "position": Integer, "block_id": Integer, "block_hash": String,
    "label": String, "rule": String, "reason": Text, "pages": Integer, "raw_html_bytes": BigInteger,
    "visible_text_bytes": BigInteger, "clean_text_bytes": BigInteger, "stored_bytes": BigInteger,
    "stored_vs_html": Float, "stored_vs_text": Float, "part": String, "relation": String, "bytes": BigInteger,
}  # fmt: skip


def _view(name: str, columns: str) -> TableClause:
    return table(name, *(column(label, _VIEW_COLUMN_TYPES[label]) for label in columns.split()))


page_versions = _view("page_versions", "page_id url version fetched_at content_hash blocks")
page_changes = _view("page_changes", "page_id url version changed_at blocks_added blocks_removed")
_CLEAN_PAGE = "page_id url site cluster fetched_at title text"
clean_pages_all = _view("clean_pages_all", f"{_CLEAN_PAGE} gone_at relevance")
clean_pages = _view("clean_pages", f"{_CLEAN_PAGE} relevance")
page_blocks = _view("page_blocks", "page_id position block_id block_hash label rule reason text")
index_savings = _view(
    "index_savings",
    "site pages raw_html_bytes visible_text_bytes clean_text_bytes stored_bytes "
    "stored_vs_html stored_vs_text",
)
store_size = _view("store_size", "part relation bytes measured_at")


# The tables a crawl rewrites rows of: what compacting rewrites (`pipelines.storage.db.compact`).
STORE_TABLES = (
    Page.__tablename__,
    Block.__tablename__,
    PageModel.__tablename__,
    ModelPlaces.__tablename__,
    PendingText.__tablename__,
    Cluster.__tablename__,
    CrawlUrl.__tablename__,
)
