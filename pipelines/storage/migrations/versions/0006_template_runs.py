"""Template runs: a page's references to consecutive dictionary ids with one code are stored as one.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24

A template's menus, sidebars and footers come on every page of a cluster in the same order, as a listing's
excerpts on every listing that shows them, and the dictionary gives their blocks consecutive ids as the first
page meets them: `pages.blocks` stores such a run as `[first reference, count]`
(`pipelines.storage.codec.pack_references`), a few bytes for a whole menu. The views that read the array
expand runs: `clean_pages_all` and `clean_pages` (the clean text), `page_blocks`, `index_savings`.
The arrays stored before are packed here, and written as UTF-8 where they held escaped characters (a character
in 6 bytes); a downgrade unpacks them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import context, op

# The codec's packing of references is this revision's format of `pages.blocks` (0007's packs inline runs
# on top of it); `unpack` reads every format since.
from pipelines.storage.codec import pack_references, unpack

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_PAGES_PER_READ = 500


def upgrade() -> None:
    """Pack the stored arrays; expand runs in the views that read them."""
    dialect = op.get_bind().dialect.name
    _rewrite_arrays(pack_references)
    _replace_views(_PAGE_BLOCKS[dialect], _index_savings(dialect, _REFERENCES[dialect]))
    _replace_clean_pages(_CLEAN_TEXT[dialect])


def downgrade() -> None:
    """Unpack the arrays and restore the views of 0004 and 0005."""
    dialect = op.get_bind().dialect.name
    module = context.script.get_revision("0004").module
    _replace_views(module._PAGE_BLOCKS[dialect], _index_savings(dialect, module._REFERENCES[dialect]))
    _replace_clean_pages(module._CLEAN_TEXT[dialect])
    _rewrite_arrays(unpack)


def _replace_clean_pages(clean_text: str) -> None:
    """0005's `clean_pages_all` and `clean_pages` over another expression of a page's clean text."""
    module = context.script.get_revision("0005").module
    op.execute("DROP VIEW clean_pages")
    op.execute("DROP VIEW clean_pages_all")
    op.execute(module._CLEAN_PAGES_ALL.format(text=clean_text))
    op.execute(module._CLEAN_PAGES)


def _rewrite_arrays(convert: Callable[[Any], list[Any]]) -> None:
    bind = op.get_bind()
    last = 0
    while True:
        rows = bind.execute(
            sa.text("SELECT id, CAST(blocks AS TEXT) FROM pages WHERE id > :last ORDER BY id LIMIT :limit"),
            {"last": last, "limit": _PAGES_PER_READ},
        ).all()
        if not rows:
            return
        changed = []
        for page_id, stored in rows:
            written = json.dumps(convert(json.loads(stored)), separators=(",", ":"), ensure_ascii=False)
            if written != stored:
                changed.append({"id": page_id, "blocks": written})
        if changed:
            bind.execute(sa.text(_UPDATE[bind.dialect.name]), changed)
        last = rows[-1][0]


_UPDATE = {
    "sqlite": "UPDATE pages SET blocks = :blocks WHERE id = :id",
    "postgresql": "UPDATE pages SET blocks = CAST(:blocks AS json) WHERE id = :id",
}


def _replace_views(page_blocks: str, index_savings: list[str]) -> None:
    op.execute("DROP VIEW index_savings")
    op.execute("DROP VIEW page_blocks")
    op.execute(page_blocks)
    for statement in index_savings:
        op.execute(statement)


def _index_savings(dialect: str, references: str) -> list[str]:
    """0004's `index_savings` (and its comment) reading the dictionary references from `references`."""
    module = context.script.get_revision("0004").module
    octets = module._OCTETS[dialect]
    page_octets = " + ".join(octets.format(name) for name in ("url", "title", "CAST(blocks AS TEXT)"))
    view = module._INDEX_SAVINGS.format(
        definition=module.INDEX_SAVINGS_DEFINITION,
        page_octets=page_octets,
        references=references,
        state_octets=octets.format("m.state") if dialect == "postgresql" else "length(m.state)",
        real=module._REAL[dialect],
    )
    if dialect == "sqlite":
        return [view]
    comment = module.INDEX_SAVINGS_DEFINITION.replace("'", "''")
    return [view, f"COMMENT ON VIEW index_savings IS '{comment}'"]


# A JSON array of n zeros (SQLite has no series function built in): json_each over it counts 0 to n - 1.
_ZEROS = "'[' || replace(hex(zeroblob({n} - 1)), '00', '0,') || '0]'"
# The dictionary references among a page's elements, runs expanded, as `j.value`.
_REFERENCES = {
    "sqlite": "(SELECT p2.id AS page_id, CASE WHEN e.type = 'array' THEN json_extract(e.value, '$[0]') "
    "+ (s.key << 6) ELSE e.value END AS value FROM pages AS p2 JOIN json_each(p2.blocks) AS e "
    "JOIN json_each(CASE WHEN e.type = 'array' THEN "
    + _ZEROS.format(n="json_extract(e.value, '$[1]')")
    + " ELSE '[0]' END) AS s WHERE e.type IN ('integer', 'array')) AS j WHERE j.page_id = p.id",
    "postgresql": "LATERAL (SELECT CASE WHEN json_typeof(e) = 'array' THEN (e ->> 0)::bigint + (g.step << 6) "
    "ELSE (e #>> '{}')::bigint END AS value FROM json_array_elements(p.blocks) AS e "
    "CROSS JOIN LATERAL generate_series(0, CASE WHEN json_typeof(e) = 'array' THEN (e ->> 1)::int - 1 "
    "ELSE 0 END) AS g(step) WHERE json_typeof(e) IN ('number', 'array')) AS j",
}
# PostgreSQL: an element `a.v` of a page's array as its inline string, its reference (a run's first) and
# how many blocks it holds.
_PG_ELEMENT = """
    SELECT CASE WHEN json_typeof(a.v) = 'string' THEN a.v #>> '{}' END AS string,
        CASE json_typeof(a.v) WHEN 'number' THEN (a.v #>> '{}')::bigint
            WHEN 'array' THEN (a.v ->> 0)::bigint END AS number,
        CASE WHEN json_typeof(a.v) = 'array' THEN (a.v ->> 1)::int ELSE 1 END AS size
"""
# PostgreSQL: the elements `a.v` of a page's (`p`) array in order (`a.n`), each read as `s` (`_PG_ELEMENT`).
_PG_ELEMENTS = f"""json_array_elements(p.blocks) WITH ORDINALITY AS a(v, n)
            CROSS JOIN LATERAL ({_PG_ELEMENT}) AS s"""
# As many zeros as the run `j` holds blocks.
_RUN_ZEROS = _ZEROS.format(n="json_extract(j.value, '$[1]')")
# The clean text of a page (`p`): its content blocks in order, one a line, runs expanded.
_CLEAN_TEXT = {
    "sqlite": f"""(
            SELECT group_concat(o.text, char(10)) FROM (
                SELECT CASE WHEN j.type = 'text' THEN substr(j.value, 2) ELSE b.text END AS text
                FROM json_each(p.blocks) AS j
                JOIN json_each(CASE WHEN j.type = 'array' THEN {_RUN_ZEROS} ELSE '[0]' END) AS s
                LEFT JOIN blocks AS b ON j.type <> 'text' AND b.id = (CASE WHEN j.type = 'array'
                    THEN json_extract(j.value, '$[0]') ELSE j.value END >> 6) + s.key
                WHERE CASE j.type WHEN 'text' THEN unicode(j.value) < 96
                    WHEN 'array' THEN (json_extract(j.value, '$[0]') & 32) <> 0 ELSE (j.value & 32) <> 0 END
                ORDER BY CAST(j.key AS INTEGER), s.key
            ) AS o
        )""",
    "postgresql": f"""(
            SELECT string_agg(CASE WHEN s.string IS NOT NULL THEN substr(s.string, 2) ELSE b.text END,
                E'\\n' ORDER BY a.n, g.step)
            FROM {_PG_ELEMENTS}
            CROSS JOIN LATERAL generate_series(0, s.size - 1) AS g(step)
            LEFT JOIN blocks AS b ON b.id = (s.number >> 6) + g.step
            WHERE CASE WHEN s.string IS NOT NULL THEN ascii(s.string) < 96 ELSE (s.number & 32) <> 0 END
        )""",
}
_PAGE_BLOCKS_COLUMNS = {
    "sqlite": """
SELECT e.page_id, e.position, e.block_id,
    CASE WHEN e.inline THEN CASE WHEN NOT e.content THEN substr(e.value, 2) END
        ELSE printf('%016x', b.hash) END AS block_hash,
    CASE WHEN e.content THEN 'content' ELSE 'noise' END AS label, r.name AS rule, r.description AS reason,
    CASE WHEN e.content THEN CASE WHEN e.inline THEN substr(e.value, 2) ELSE b.text END END AS text""",
    "postgresql": """
SELECT e.page_id, e.position, e.block_id,
    CASE WHEN e.string IS NOT NULL THEN CASE WHEN NOT e.content THEN substr(e.string, 2) END
        ELSE lpad(to_hex(b.hash), 16, '0') END AS block_hash,
    CASE WHEN e.content THEN 'content' ELSE 'noise' END AS label, r.name AS rule, r.description AS reason,
    CASE WHEN e.content THEN coalesce(substr(e.string, 2), b.text) END AS text""",
}
_PAGE_BLOCKS = {
    "sqlite": f"""
CREATE VIEW page_blocks AS
-- page_blocks: every block of every page, in order: its label, the rule that decided it and why, its text
-- hash (hex; none for a content block held inline: it is its text's), its dictionary id when several pages
-- hold it, and its text when it is content. A run of references ([first, count]) is one row per block.
{_PAGE_BLOCKS_COLUMNS["sqlite"]}
FROM (
    SELECT x.page_id, x.stop - x.size + s.key AS position, x.value, x.inline,
        CASE WHEN x.inline THEN unicode(x.value) < 96 ELSE (x.ref & 32) <> 0 END AS content,
        CASE WHEN x.inline THEN unicode(x.value) & 31 ELSE x.ref & 31 END AS rule,
        CASE WHEN NOT x.inline THEN (x.ref >> 6) + s.key END AS block_id
    FROM (
        SELECT p.id AS page_id, j.value AS value, j.type = 'text' AS inline,
            CASE j.type WHEN 'array' THEN json_extract(j.value, '$[0]') WHEN 'integer' THEN j.value END
                AS ref,
            CASE WHEN j.type = 'array' THEN json_extract(j.value, '$[1]') ELSE 1 END AS size,
            sum(CASE WHEN j.type = 'array' THEN json_extract(j.value, '$[1]') ELSE 1 END)
                OVER (PARTITION BY p.id ORDER BY CAST(j.key AS INTEGER)) AS stop
        FROM pages AS p JOIN json_each(p.blocks) AS j
    ) AS x
    JOIN json_each({_ZEROS.format(n="x.size")}) AS s
) AS e
LEFT JOIN blocks AS b ON b.id = e.block_id
JOIN rules AS r ON r.code = e.rule
""",
    "postgresql": f"""
CREATE VIEW page_blocks AS
{_PAGE_BLOCKS_COLUMNS["postgresql"]}
FROM (
    SELECT x.page_id, CAST(x.stop - x.size + g.step AS integer) AS position, x.string,
        (x.number >> 6) + g.step AS block_id,
        CASE WHEN x.string IS NOT NULL THEN ascii(x.string) < 96 ELSE (x.number & 32) <> 0 END AS content,
        CASE WHEN x.string IS NOT NULL THEN ascii(x.string) & 31 ELSE x.number & 31 END AS rule
    FROM (
        SELECT p.id AS page_id, s.string, s.number, s.size,
            sum(s.size) OVER (PARTITION BY p.id ORDER BY a.n) AS stop
        FROM pages AS p CROSS JOIN LATERAL {_PG_ELEMENTS}
    ) AS x
    CROSS JOIN LATERAL generate_series(0, x.size - 1) AS g(step)
) AS e
LEFT JOIN blocks AS b ON b.id = e.block_id
JOIN rules AS r ON r.code = e.rule
""",
}
