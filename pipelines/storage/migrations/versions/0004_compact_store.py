"""The compact store: a page's blocks as one array of integers, hashes as integers, rules as codes, the site
models' state apart, a search index over content blocks, and views that measure the store on disk.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24

What changes (`pipelines/storage/models.py` describes the result):
- `pages.blocks`: every block of the page in order, as one JSON array: a block that no other page holds
  is inline (a string: one character that codes its label and rule, then its text if it is content, its
  hash if it is noise); any other block is a reference to the block dictionary, `block id * 64 + code`, a
  code being the label (bit 5) and the rule (`rules`).
  `page_blocks`, one row per block with strings, is gone, and a view of that name lists the same from the
  arrays; `cluster_block_counts` is gone (the site models count in memory and rebuild from their state);
- `blocks` is the block dictionary of the blocks several pages hold: an integer id, the hash as a 64-bit
  integer, the text while a page refers to it as content, and `content_pages`, how many do;
- `pages.content_hash` and the clusters' representative signatures are integers; `pages.fingerprint` is the
  hash of the page's blocks as extracted (0 for the pages converted: their next fetch rewrites them);
- `rules`: the code, name, label and sentence of every rule;
- `page_models`, `model_places`: the site models' working state, apart. Pages stored before keep their
  labels, but have no state: their clusters are re-cleaned from the pages stored from now on;
- the search index over each page's clean text: SQLite's FTS5 table `page_search` (and its vocabulary,
  `page_search_vocabulary`), PostgreSQL's `pages.search` and its GIN index;
- `pending_texts`: the text of noise blocks a re-clean may still restore, until the crawl ends (kept apart
  from `blocks`, so that forgetting them frees whole pages of the file);
- `store_measures`: the store's bytes on disk per relation, as last measured (SQLite's `dbstat` cannot be
  read in a view);
- views: `clean_pages` (as before, with the page's id), `page_blocks`, `store_size` (bytes on disk per
  relation, and which part of the store holds it), `index_savings` (per site, now in bytes on disk).

The data is converted, not lost: each stored page keeps its blocks, labels and text. A reason stored as a
sentence becomes the rule whose sentence it was (the figures it held are gone; a paper method's reasons
become `METHOD`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import TSVECTOR

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Every rule, one a line: its code (an `extraction.Rule` value), name, label and sentence.
RULES = """
0 UNJUDGED noise not judged
1 CONTENT_AREA content in the content area
2 OUTSIDE_AREA noise outside the content area
3 PAGE_TITLE noise the page title
4 CAPTION noise a figure caption
5 NOISE_SCORE noise its noise score is over the threshold
6 LINK_DENSE noise mostly link text
7 TEMPLATE_CONTAINER noise inside a container named as template (sidebar, footer, comments, ...)
8 RESPONSIVE_COPY noise repeats a block of another container (a responsive copy)
9 STRANDED noise short text between noise blocks
16 REPEATED_TEXT noise the same text is on most pages of its cluster
17 REPEATED_SHAPE noise the same block, digits and dates aside, is on most pages of its cluster
18 TEMPLATE_SLOT noise outside the content region, in a place of the template whose texts recur
19 REDUNDANT noise outside the content region, its words recur over the cluster
20 RESTORED content new on its page, in the content region of its cluster
21 HEADLINE content the page's headline
22 KEPT either as the single page judged it: the cluster's rules would have left the page empty
31 METHOD either labelled by the crawl's extraction method
"""
# How a sentence stored before 0004 begins, and the rule that gave it (checked in this order).
_REASONS = [
    ("(kept: ", 22),
    ("in the content area", 1),
    ("outside the content area", 2),
    ("the page title", 3),
    ("a figure caption", 4),
    ("noise score F=", 5),
    ("link-text density", 6),
    ("inside ", 7),
    ("repeats block", 8),
    ("short text between noise blocks", 9),
    ("same text on", 16),
    ("same block, changing digits", 17),
    ("outside the content region, where", 18),
    ("outside the content region, its words", 19),
    ("in the content region, not template", 20),
    ("the page's headline", 21),
]
_METHOD = 31
_CONTENT_BIT = 0x20
_INLINE_CONTENT, _INLINE_NOISE = 0x40, 0x60
_ROWS_PER_WRITE = 1000


def upgrade() -> None:
    """Convert the store; see the module's docstring."""
    dialect = op.get_bind().dialect.name
    op.execute("DROP VIEW index_savings")
    op.execute("DROP VIEW clean_pages")
    _rules()
    _blocks(dialect)
    _pages(dialect)
    _clusters(dialect)
    _model_state()
    for view in VIEWS[dialect]:
        op.execute(view)
    _search(dialect)


def downgrade() -> None:
    """Not supported: 0003 kept a row and a sentence per block, which the compact store no longer has."""
    raise NotImplementedError("the compact store (0004) cannot be turned back into 0003's page_blocks rows")


def _rules() -> None:
    rules = op.create_table(
        "rules",
        sa.Column("code", sa.Integer(), autoincrement=False, primary_key=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("label", sa.String(length=8), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
    )
    op.bulk_insert(
        rules,
        [
            {"code": int(code), "name": name, "label": label, "description": sentence}
            for code, name, label, sentence in (line.split(" ", 3) for line in RULES.strip().splitlines())
        ],
    )


def _blocks(dialect: str) -> None:
    """The block dictionary: every block that several pages hold, with its text when one holds it as
    content, the most frequent first."""
    op.rename_table("blocks", "blocks_v3")
    if dialect == "postgresql":
        op.execute("ALTER INDEX pk_blocks RENAME TO pk_blocks_v3")
    op.create_table(
        "blocks",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("hash", sa.BigInteger(), nullable=False, unique=True),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("content_pages", sa.Integer(), server_default="0", nullable=False),
    )
    bind = op.get_bind()
    shared = sa.text(
        "SELECT b.hash, CASE WHEN c.content > 0 THEN b.text END, c.content FROM blocks_v3 AS b JOIN ("
        "SELECT block_hash, count(DISTINCT page_id) AS pages, "
        "count(DISTINCT CASE WHEN label = 'content' THEN page_id END) AS content "
        "FROM page_blocks GROUP BY block_hash HAVING count(DISTINCT page_id) > 1"
        ") AS c ON c.block_hash = b.hash ORDER BY c.pages DESC, b.hash"
    )
    insert = sa.text("INSERT INTO blocks (hash, text, content_pages) VALUES (:hash, :text, :pages)")
    rows = (
        {"hash": _int_hash(digest), "text": text, "pages": pages}
        for digest, text, pages in bind.execute(shared)
    )
    for chunk in _chunks(rows):
        bind.execute(insert, chunk)


def _pages(dialect: str) -> None:
    """Each page's block rows become its array; the old rows go."""
    op.add_column("pages", sa.Column("blocks", sa.JSON(), nullable=True))
    op.add_column("pages", sa.Column("content_hash_v4", sa.BigInteger(), nullable=True))
    op.add_column("pages", sa.Column("fingerprint", sa.BigInteger(), server_default="0", nullable=False))
    op.add_column(
        "pages", sa.Column("search", sa.Text().with_variant(TSVECTOR(), "postgresql"), nullable=True)
    )
    bind = op.get_bind()
    ids: dict[int, int] = dict(bind.execute(sa.text("SELECT hash, id FROM blocks")).all())
    rows = bind.execute(
        sa.text(
            "SELECT p.id, p.content_hash, pb.block_hash, pb.label, pb.reason, b.text FROM pages AS p "
            "JOIN page_blocks AS pb ON pb.page_id = p.id JOIN blocks_v3 AS b ON b.hash = pb.block_hash "
            "ORDER BY p.id, pb.position"
        )
    )
    array = "CAST(:blocks AS json)" if dialect == "postgresql" else ":blocks"
    update = sa.text(f"UPDATE pages SET blocks = {array}, content_hash_v4 = :hash WHERE id = :id")
    for chunk in _chunks(_page_arrays(rows, ids)):
        bind.execute(update, chunk)
    bind.execute(sa.text("UPDATE pages SET blocks = '[]', content_hash_v4 = 0 WHERE blocks IS NULL"))
    op.drop_table("cluster_block_counts")
    op.drop_table("page_blocks")
    op.drop_table("blocks_v3")
    with op.batch_alter_table("pages") as batch:
        batch.drop_column("content_hash")
        batch.alter_column("content_hash_v4", new_column_name="content_hash", nullable=False)
        batch.alter_column("blocks", nullable=False)
        batch.alter_column("fingerprint", server_default=None)


def _page_arrays(rows: Any, ids: dict[int, int]) -> Iterator[dict[str, Any]]:
    """One update per page: its array, its content hash as an integer. A block in the dictionary (several
    pages hold it) is referred to; any other is inline."""
    page_id: int | None = None
    elements: list[int | str] = []
    digest = ""
    for row_page, row_digest, block_hash, label, reason, text in rows:
        if row_page != page_id and page_id is not None:
            yield {"id": page_id, "blocks": _json(elements), "hash": _int_hash(digest)}
            elements = []
        page_id, digest = row_page, row_digest
        rule, block_id = _rule(reason), ids.get(_int_hash(block_hash))
        if block_id is not None:
            elements.append((block_id << 6) | rule | (_CONTENT_BIT if label == "content" else 0))
        elif label == "content":
            elements.append(chr(_INLINE_CONTENT + rule) + (text or ""))
        else:
            elements.append(chr(_INLINE_NOISE + rule) + block_hash)
    if page_id is not None:
        yield {"id": page_id, "blocks": _json(elements), "hash": _int_hash(digest)}


def _clusters(dialect: str) -> None:
    representative = sa.Column("representative", sa.LargeBinary(), server_default="", nullable=False)
    op.add_column("clusters", representative)
    bind = op.get_bind()
    update = sa.text("UPDATE clusters SET representative = :packed WHERE id = :id")
    for cluster_id, shingles in bind.execute(sa.text("SELECT id, shingles FROM clusters")).all():
        packed = b"".join(int(shingle, 16).to_bytes(8, "big") for shingle in sorted(shingles.split()))
        bind.execute(update, {"id": cluster_id, "packed": packed})
    with op.batch_alter_table("clusters") as batch:
        batch.drop_column("shingles")
        batch.drop_constraint("uq_clusters_site_id_signature", type_="unique")
        batch.alter_column("signature", new_column_name="name", type_=sa.String(length=16))
    # Apart: within one batch SQLite's copy of the table would be made before the column has its new name.
    with op.batch_alter_table("clusters") as batch:
        batch.create_unique_constraint("uq_clusters_site_id_name", ["site_id", "name"])


def _model_state() -> None:
    op.create_table(
        "model_places",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "cluster_id", sa.Integer(), sa.ForeignKey("clusters.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("places", sa.LargeBinary(), nullable=False),
    )
    op.create_index("ix_model_places_cluster_id", "model_places", ["cluster_id"])
    op.create_table(
        "pending_texts",
        sa.Column("hash", sa.BigInteger(), autoincrement=False, primary_key=True),
        sa.Column("text", sa.Text(), nullable=False),
    )
    op.create_table(
        "store_measures",
        sa.Column("relation", sa.String(), primary_key=True),
        sa.Column("part", sa.String(), nullable=False),
        sa.Column("bytes", sa.BigInteger(), nullable=False),
        sa.Column("measured_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "page_models",
        sa.Column("page_id", sa.Integer(), sa.ForeignKey("pages.id", ondelete="CASCADE"), primary_key=True),
        sa.Column(
            "cluster_id", sa.Integer(), sa.ForeignKey("clusters.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("state", sa.LargeBinary(), nullable=False),
    )
    op.create_index("ix_page_models_cluster_id", "page_models", ["cluster_id"])


def _search(dialect: str) -> None:
    """The search index over each page's clean text (the view computes it from the arrays)."""
    if dialect == "postgresql":
        op.execute(
            "UPDATE pages AS p SET search = strip(to_tsvector('simple', c.text)) FROM clean_pages AS c "
            "WHERE c.page_id = p.id"
        )
        op.execute("CREATE INDEX ix_pages_search ON pages USING gin (search)")
        return
    op.execute(
        "CREATE VIRTUAL TABLE page_search USING fts5(text, content='', columnsize=0, "
        "tokenize='unicode61 remove_diacritics 2', detail=none)"
    )
    op.execute("CREATE VIRTUAL TABLE page_search_vocabulary USING fts5vocab(page_search, row)")
    op.execute("INSERT INTO page_search(rowid, text) SELECT page_id, text FROM clean_pages")


def _rule(reason: str) -> int:
    for start, rule in _REASONS:
        if reason.startswith(start) or (start == "(kept: " and start in reason):
            return rule
    return _METHOD


def _int_hash(digest: str) -> int:
    value = int(digest, 16)
    return value - (1 << 64) if value >= 1 << 63 else value


def _json(values: list[int | str]) -> str:
    return json.dumps(values, ensure_ascii=False, separators=(",", ":"))


def _chunks(rows: Any) -> Iterator[list[dict[str, Any]]]:
    chunk: list[dict[str, Any]] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == _ROWS_PER_WRITE:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


# The views of the stable interface. An element of `pages.blocks` is inline (a string: a first character
# below 96 for content, then its text; from 96 for noise, then its hex hash; the character's five low bits
# are the rule) or a reference to the dictionary (an integer: block id * 64 + code, the code's bit 5
# saying content, its five low bits the rule).
_CLEAN_TEXT = {
    "sqlite": """(
            SELECT group_concat(o.text, char(10)) FROM (
                SELECT CASE WHEN j.type = 'text' THEN substr(j.value, 2) ELSE b.text END AS text
                FROM json_each(p.blocks) AS j
                LEFT JOIN blocks AS b ON j.type = 'integer' AND b.id = (j.value >> 6)
                WHERE CASE WHEN j.type = 'text' THEN unicode(j.value) < 96 ELSE (j.value & 32) <> 0 END
                ORDER BY j.key
            ) AS o
        )""",
    "postgresql": """(
            SELECT string_agg(CASE WHEN s.string IS NOT NULL THEN substr(s.string, 2) ELSE b.text END,
                E'\\n' ORDER BY a.n)
            FROM json_array_elements(p.blocks) WITH ORDINALITY AS a(v, n)
            CROSS JOIN LATERAL (
                SELECT CASE WHEN json_typeof(a.v) = 'string' THEN a.v #>> '{}' END AS string,
                    CASE WHEN json_typeof(a.v) = 'number' THEN (a.v #>> '{}')::bigint END AS number
            ) AS s
            LEFT JOIN blocks AS b ON b.id = (s.number >> 6)
            WHERE CASE WHEN s.string IS NOT NULL THEN ascii(s.string) < 96 ELSE (s.number & 32) <> 0 END
        )""",
}
_CLEAN_PAGES = """
CREATE VIEW clean_pages AS
-- clean_pages: one row per stored page; text = its content blocks in page order joined by newlines.
SELECT p.id AS page_id, p.url AS url, s.host AS site, c.name AS cluster, p.fetched_at AS fetched_at,
    p.title AS title, coalesce({text}, '') AS text
FROM pages AS p
JOIN sites AS s ON s.id = p.site_id
LEFT JOIN clusters AS c ON c.id = p.cluster_id
"""
_PAGE_BLOCKS = {
    "sqlite": """
CREATE VIEW page_blocks AS
-- page_blocks: every block of every page, in order: its label, the rule that decided it and why, its text
-- hash (hex; none for a content block held inline: it is its text's), its dictionary id when several pages
-- hold it, and its text when it is content.
SELECT e.page_id, e.position, e.block_id,
    CASE WHEN e.inline THEN CASE WHEN NOT e.content THEN substr(e.value, 2) END
        ELSE printf('%016x', b.hash) END AS block_hash,
    CASE WHEN e.content THEN 'content' ELSE 'noise' END AS label, r.name AS rule, r.description AS reason,
    CASE WHEN e.content THEN CASE WHEN e.inline THEN substr(e.value, 2) ELSE b.text END END AS text
FROM (
    SELECT p.id AS page_id, CAST(j.key AS INTEGER) AS position, j.value AS value, j.type = 'text' AS inline,
        CASE WHEN j.type = 'text' THEN unicode(j.value) < 96 ELSE (j.value & 32) <> 0 END AS content,
        CASE WHEN j.type = 'text' THEN unicode(j.value) & 31 ELSE j.value & 31 END AS rule,
        CASE WHEN j.type = 'integer' THEN j.value >> 6 END AS block_id
    FROM pages AS p JOIN json_each(p.blocks) AS j
) AS e
LEFT JOIN blocks AS b ON b.id = e.block_id
JOIN rules AS r ON r.code = e.rule
""",
    "postgresql": """
CREATE VIEW page_blocks AS
SELECT e.page_id, e.position, e.block_id,
    CASE WHEN e.string IS NOT NULL THEN CASE WHEN NOT e.content THEN substr(e.string, 2) END
        ELSE lpad(to_hex(b.hash), 16, '0') END AS block_hash,
    CASE WHEN e.content THEN 'content' ELSE 'noise' END AS label, r.name AS rule, r.description AS reason,
    CASE WHEN e.content THEN coalesce(substr(e.string, 2), b.text) END AS text
FROM (
    SELECT p.id AS page_id, CAST(a.n - 1 AS integer) AS position, s.string, s.number >> 6 AS block_id,
        CASE WHEN s.string IS NOT NULL THEN ascii(s.string) < 96 ELSE (s.number & 32) <> 0 END AS content,
        CASE WHEN s.string IS NOT NULL THEN ascii(s.string) & 31 ELSE s.number & 31 END AS rule
    FROM pages AS p
    CROSS JOIN LATERAL json_array_elements(p.blocks) WITH ORDINALITY AS a(v, n)
    CROSS JOIN LATERAL (
        SELECT CASE WHEN json_typeof(a.v) = 'string' THEN a.v #>> '{}' END AS string,
            CASE WHEN json_typeof(a.v) = 'number' THEN (a.v #>> '{}')::bigint END AS number
    ) AS s
) AS e
LEFT JOIN blocks AS b ON b.id = e.block_id
JOIN rules AS r ON r.code = e.rule
""",
}
_STORE_SIZE = """
CREATE VIEW store_size AS
-- store_size: bytes on disk of every table and index of the store (SQLite's dbstat, PostgreSQL's relation
-- sizes) and SQLite's free pages, with the part of the store each holds, as last measured (at the end of a
-- crawl and by `scrapy savings`; measured_at says when).
SELECT part, relation, bytes, measured_at FROM store_measures
"""
_OCTETS = {"sqlite": "length(CAST({} AS BLOB))", "postgresql": "octet_length({})"}
# The dictionary references among a page's elements.
_REFERENCES = {
    "sqlite": "json_each(p.blocks) AS j WHERE j.type = 'integer'",
    "postgresql": "LATERAL (SELECT (e #>> '{}')::bigint AS value FROM json_array_elements(p.blocks) AS e "
    "WHERE json_typeof(e) = 'number') AS j",
}
_REAL = {"sqlite": "REAL", "postgresql": "double precision"}
INDEX_SAVINGS_DEFINITION = (
    "stored_bytes = the bytes on disk (store_size) of the parts that hold a site's rows, each part shared "
    "among the sites by their rows in it: page text and structure by each site's page rows (URL, title, "
    "block array); the block dictionary by the dictionary blocks each site's pages refer to; the search "
    "index by each site's clean text; the model state by each site's page states. The schema and the free "
    "pages belong to no site. clean_text_bytes = UTF-8 bytes of the clean text of the site's pages, as "
    "clean_pages gives it. raw_html_bytes and visible_text_bytes are sums over the site's pages. "
    "stored_vs_html = stored_bytes / raw_html_bytes, stored_vs_text = stored_bytes / visible_text_bytes "
    "(NULL when the denominator is 0)."
)
_INDEX_SAVINGS = """
CREATE VIEW index_savings AS
-- index_savings: what the store holds per site, in bytes on disk, against what was fetched.
-- {definition}
WITH
page_totals AS (
    SELECT site_id, count(*) AS pages, sum(raw_html_bytes) AS raw_html_bytes,
        sum(visible_text_bytes) AS visible_text_bytes, sum(stored_bytes) AS clean_text_bytes,
        sum({page_octets}) AS page_weight
    FROM pages GROUP BY site_id
),
site_references AS (
    SELECT p.site_id, count(DISTINCT j.value >> 6) AS dictionary_weight
    FROM pages AS p CROSS JOIN {references} GROUP BY p.site_id
),
model_weights AS (
    SELECT p.site_id, sum({state_octets}) AS model_weight
    FROM page_models AS m JOIN pages AS p ON p.id = m.page_id GROUP BY p.site_id
),
parts AS (SELECT part, sum(bytes) AS bytes FROM store_size GROUP BY part),
weights AS (
    SELECT pt.*, coalesce(sr.dictionary_weight, 0) AS dictionary_weight,
        coalesce(mw.model_weight, 0) AS model_weight
    FROM page_totals AS pt
    LEFT JOIN site_references AS sr ON sr.site_id = pt.site_id
    LEFT JOIN model_weights AS mw ON mw.site_id = pt.site_id
),
sums AS (
    SELECT nullif(sum(page_weight), 0) AS page_weight, nullif(sum(dictionary_weight), 0) AS dictionary_weight,
        nullif(sum(clean_text_bytes), 0) AS text_weight, nullif(sum(model_weight), 0) AS model_weight
    FROM weights
),
totals AS (
    SELECT s.host AS site, w.pages, w.raw_html_bytes, w.visible_text_bytes, w.clean_text_bytes,
        CAST(round(
            coalesce(w.page_weight * 1.0 / (SELECT page_weight FROM sums), 0)
                * coalesce((SELECT bytes FROM parts WHERE part = 'page text and structure'), 0)
            + coalesce(w.dictionary_weight * 1.0 / (SELECT dictionary_weight FROM sums), 0)
                * coalesce((SELECT bytes FROM parts WHERE part = 'block dictionary'), 0)
            + coalesce(w.clean_text_bytes * 1.0 / (SELECT text_weight FROM sums), 0)
                * coalesce((SELECT bytes FROM parts WHERE part = 'search index'), 0)
            + coalesce(w.model_weight * 1.0 / (SELECT model_weight FROM sums), 0)
                * coalesce((SELECT bytes FROM parts WHERE part = 'model state'), 0)
        ) AS bigint) AS stored_bytes
    FROM weights AS w JOIN sites AS s ON s.id = w.site_id
)
SELECT site, pages, raw_html_bytes, visible_text_bytes, clean_text_bytes, stored_bytes,
    CAST(stored_bytes AS {real}) / nullif(raw_html_bytes, 0) AS stored_vs_html,
    CAST(stored_bytes AS {real}) / nullif(visible_text_bytes, 0) AS stored_vs_text
FROM totals
"""


def _views(dialect: str) -> list[str]:
    octets = _OCTETS[dialect]
    page_octets = " + ".join(octets.format(name) for name in ("url", "title", "CAST(blocks AS TEXT)"))
    savings = _INDEX_SAVINGS.format(
        definition=INDEX_SAVINGS_DEFINITION,
        page_octets=page_octets,
        references=_REFERENCES[dialect],
        state_octets=octets.format("m.state") if dialect == "postgresql" else "length(m.state)",
        real=_REAL[dialect],
    )
    clean_pages = _CLEAN_PAGES.format(text=_CLEAN_TEXT[dialect])
    views = [clean_pages, _PAGE_BLOCKS[dialect], _STORE_SIZE, savings]
    if dialect == "postgresql":
        comment = INDEX_SAVINGS_DEFINITION.replace("'", "''")
        views.append(f"COMMENT ON VIEW index_savings IS '{comment}'")
        views.append("COMMENT ON VIEW clean_pages IS 'the clean text of each page, content blocks in order'")
    return views


VIEWS = {dialect: _views(dialect) for dialect in ("sqlite", "postgresql")}
