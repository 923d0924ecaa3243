"""Inline runs: a page's consecutive inline content blocks with one code are stored as one string.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25

An article's paragraphs are inline content blocks one after another, each a JSON string of its own: quotes, a
comma and a code character, four bytes a block, a tenth of the text on documentation, whose blocks are
short. `pages.blocks` now stores such a run as one string: "!" (below every code character), the code's
character, then the texts with DEL between them (`pipelines.storage.codec.pack`): one byte a block. The
views that read the array split runs: `clean_pages_all` and `clean_pages` (the clean text), `page_blocks`.
The arrays stored before are packed here; a downgrade writes them as 0006 did.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import context, op

from pipelines.storage.codec import pack, pack_references, unpack

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Pack the stored arrays' inline runs; split runs in the views that read them."""
    dialect = op.get_bind().dialect.name
    module = context.script.get_revision("0006").module
    module._rewrite_arrays(lambda stored: pack(unpack(stored)))
    module._replace_views(_page_blocks(dialect), module._index_savings(dialect, module._REFERENCES[dialect]))
    module._replace_clean_pages(_CLEAN_TEXT[dialect].format(elements=module._PG_ELEMENTS))


def downgrade() -> None:
    """Write the arrays as 0006 did and restore its views."""
    dialect = op.get_bind().dialect.name
    module = context.script.get_revision("0006").module
    module._replace_views(
        module._PAGE_BLOCKS[dialect], module._index_savings(dialect, module._REFERENCES[dialect])
    )
    module._replace_clean_pages(module._CLEAN_TEXT[dialect])
    module._rewrite_arrays(lambda stored: pack_references(unpack(stored)))


# The zeros of 0006 (SQLite's series), here as many as the element `x` holds blocks.
_ZEROS = "'[' || replace(hex(zeroblob(x.size - 1)), '00', '0,') || '0]'"
# SQLite: a run's texts as a JSON array (json_array escapes the texts; DEL is not escaped).
_RUN_TEXTS = "replace(json_array(substr(x.value, 3)), char(127), '\",\"')"
# The clean text of a page (`p`): its content blocks in order, one a line, runs of both kinds expanded.
_CLEAN_TEXT = {
    "sqlite": """(
            SELECT group_concat(o.text, char(10)) FROM (
                SELECT CASE WHEN j.type <> 'text' THEN b.text WHEN unicode(j.value) = 33
                    THEN replace(substr(j.value, 3), char(127), char(10)) ELSE substr(j.value, 2) END AS text
                FROM json_each(p.blocks) AS j
                JOIN json_each(CASE WHEN j.type = 'array' THEN '[' || replace(hex(zeroblob(
                    json_extract(j.value, '$[1]') - 1)), '00', '0,') || '0]' ELSE '[0]' END) AS s
                LEFT JOIN blocks AS b ON j.type <> 'text' AND b.id = (CASE WHEN j.type = 'array'
                    THEN json_extract(j.value, '$[0]') ELSE j.value END >> 6) + s.key
                WHERE CASE j.type WHEN 'text' THEN unicode(j.value) < 96 OR unicode(j.value) = 33
                    WHEN 'array' THEN (json_extract(j.value, '$[0]') & 32) <> 0 ELSE (j.value & 32) <> 0 END
                ORDER BY CAST(j.key AS INTEGER), s.key
            ) AS o
        )""",
    "postgresql": """(
            SELECT string_agg(CASE WHEN s.string IS NULL THEN b.text WHEN ascii(s.string) = 33
                THEN replace(substr(s.string, 3), chr(127), E'\\n') ELSE substr(s.string, 2) END,
                E'\\n' ORDER BY a.n, g.step)
            FROM {elements}
            CROSS JOIN LATERAL generate_series(0, s.size - 1) AS g(step)
            LEFT JOIN blocks AS b ON b.id = (s.number >> 6) + g.step
            WHERE CASE WHEN s.string IS NOT NULL THEN ascii(s.string) < 96 OR ascii(s.string) = 33
                ELSE (s.number & 32) <> 0 END
        )""",
}


def _page_blocks(dialect: str) -> str:
    """0006's `page_blocks` columns over the pages' blocks one a row (`_BLOCKS`: an inline block as its own
    string, whether the page stores it alone or in a run)."""
    module = context.script.get_revision("0006").module
    columns, source = (
        module._PAGE_BLOCKS_COLUMNS[dialect],
        _BLOCKS[dialect].format(elements=module._PG_ELEMENTS),
    )
    return (
        f"CREATE VIEW page_blocks AS\n{columns}\nFROM ({source}) AS e\n"
        "LEFT JOIN blocks AS b ON b.id = e.block_id\nJOIN rules AS r ON r.code = e.rule\n"
    )


_SQLITE_BLOCKS = f"""
    SELECT y.page_id, y.position, y.value, y.inline,
        CASE WHEN y.inline THEN unicode(y.value) < 96 ELSE (y.ref & 32) <> 0 END AS content,
        CASE WHEN y.inline THEN unicode(y.value) & 31 ELSE y.ref & 31 END AS rule,
        CASE WHEN NOT y.inline THEN (y.ref >> 6) + y.step END AS block_id
    FROM (
        SELECT x.page_id, x.stop - x.size + s.key AS position, x.inline, x.ref, s.key AS step,
            CASE WHEN x.run THEN substr(x.value, 2, 1) || s.value ELSE x.value END AS value
        FROM (
            SELECT p.id AS page_id, j.value AS value, j.type = 'text' AS inline,
                j.type = 'text' AND unicode(j.value) = 33 AS run,
                CASE j.type WHEN 'array' THEN json_extract(j.value, '$[0]') WHEN 'integer' THEN j.value END
                    AS ref,
                CASE WHEN j.type = 'array' THEN json_extract(j.value, '$[1]') WHEN unicode(j.value) = 33
                    THEN length(j.value) - length(replace(j.value, char(127), '')) + 1 ELSE 1 END AS size,
                sum(CASE WHEN j.type = 'array' THEN json_extract(j.value, '$[1]')
                    WHEN j.type = 'text' AND unicode(j.value) = 33
                    THEN length(j.value) - length(replace(j.value, char(127), '')) + 1 ELSE 1 END)
                    OVER (PARTITION BY p.id ORDER BY CAST(j.key AS INTEGER)) AS stop
            FROM pages AS p JOIN json_each(p.blocks) AS j
        ) AS x
        JOIN json_each(CASE WHEN x.run THEN {_RUN_TEXTS} ELSE {_ZEROS} END) AS s
    ) AS y
"""
_POSTGRESQL_BLOCKS = """
    SELECT y.page_id, y.position, y.string, y.block_id,
        CASE WHEN y.string IS NOT NULL THEN ascii(y.string) < 96 ELSE (y.number & 32) <> 0 END AS content,
        CASE WHEN y.string IS NOT NULL THEN ascii(y.string) & 31 ELSE y.number & 31 END AS rule
    FROM (
        SELECT x.page_id, CAST(x.stop - x.size + g.step AS integer) AS position, x.number,
            (x.number >> 6) + g.step AS block_id,
            CASE WHEN g.part IS NULL THEN x.string ELSE substr(x.string, 2, 1) || g.part END AS string
        FROM (
            SELECT p.id AS page_id, s.string, s.number, r.size,
                sum(r.size) OVER (PARTITION BY p.id ORDER BY a.n) AS stop
            FROM pages AS p CROSS JOIN LATERAL {elements}
            CROSS JOIN LATERAL (
                SELECT CASE WHEN ascii(s.string) = 33 THEN length(s.string)
                    - length(replace(s.string, chr(127), '')) + 1 ELSE s.size END AS size
            ) AS r
        ) AS x
        CROSS JOIN LATERAL (
            SELECT z.step, NULL AS part FROM generate_series(0, x.size - 1) AS z(step)
            WHERE ascii(x.string) IS DISTINCT FROM 33
            UNION ALL
            SELECT r.k - 1, r.part
            FROM unnest(string_to_array(substr(x.string, 3), chr(127))) WITH ORDINALITY AS r(part, k)
            WHERE ascii(x.string) = 33
        ) AS g
    ) AS y
"""
_BLOCKS = {"sqlite": _SQLITE_BLOCKS, "postgresql": _POSTGRESQL_BLOCKS}
