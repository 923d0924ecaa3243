"""The Alembic history: creates the schema the models describe, views included; a no-op when current."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, event, inspect, select, text

from extraction.result import RULE_LABELS, RULE_TEXT
from pipelines.storage import migrate, session_factory, store_pages
from pipelines.storage.codec import RUN_MARK, StoredElement, int_to_hash, pack_references, unpack
from pipelines.storage.db import alembic_config, head_revision
from pipelines.storage.models import Base, Block, clean_pages, described_by_models, page_blocks
from pipelines.storage.search import search
from tests.pipelines.databases import search_index_mismatches
from tests.pipelines.items import whizzy_items

TABLES = {
    "alembic_version",
    "sites",
    "clusters",
    "pages",
    "blocks",
    "rules",
    "model_places",
    "page_models",
    "model_signatures",
    "pending_texts",
    "store_measures",
    "crawl_urls",
    "page_history",
}
# SQLite's search index: an FTS5 table, the shadow tables it keeps its index in (no document sizes: search
# ranks with its own BM25), and its vocabulary.
SQLITE_SEARCH = {"page_search", *(f"page_search_{part}" for part in ("config", "data", "idx", "vocabulary"))}
VIEWS = {
    "clean_pages",
    "clean_pages_all",
    "page_blocks",
    "page_versions",
    "page_changes",
    "store_size",
    "index_savings",
}


def test_migrating_twice_is_a_noop(database_url: str, engine: Engine) -> None:
    migrate(database_url)
    statements: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    migrate(engine)
    with engine.connect() as connection:
        version = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    assert version == ["0010"]  # the latest migration: 0010_veiled_rule
    changes = [sql for sql in statements if sql.lstrip().split()[0].upper() in {"CREATE", "ALTER", "DROP"}]
    assert changes == []


def test_the_head_revision_is_alembic_s() -> None:
    assert head_revision() == ScriptDirectory.from_config(alembic_config()).get_current_head()


def test_opening_a_store_that_is_up_to_date_does_not_load_alembic(tmp_path: Path) -> None:
    # Alembic's import is a third of a second of every crawl's start; a store at the head needs none of it.
    url = f"sqlite:///{tmp_path / 'store.db'}"
    opened = f"import sys; from pipelines.storage import migrate; migrate({url!r})"
    opened += "; print('alembic' in sys.modules)"
    outputs = [_python(opened) for _ in range(2)]
    assert outputs == ["True", "False"]  # created by Alembic, then found up to date


def _python(code: str) -> str:
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return run.stdout.strip()


def test_every_rule_has_its_row(engine: Engine) -> None:
    # page_blocks reads a rule's name and sentence from `rules`: a new Rule needs a migration adding its row.
    migrate(engine)
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT code, name, label, description FROM rules")).all()
    expected = {
        (rule.value, rule.name, label.value if label else "either", RULE_TEXT[rule])
        for rule, label in RULE_LABELS.items()
    }
    assert set(map(tuple, rows)) == expected


def test_the_models_match_the_migrations(engine: Engine) -> None:
    migrate(engine)
    with engine.connect() as connection:
        options = {"include_name": lambda name, kind, _parents: described_by_models(name, kind)}
        context = MigrationContext.configure(connection, opts=options)
        differences = compare_metadata(context, Base.metadata)
    assert differences == []


def test_tables_and_views_land_in_the_database_schema(engine: Engine) -> None:
    migrate(engine)
    with engine.connect() as connection:
        inspector = inspect(connection)
        tables, views = set(inspector.get_table_names()), set(inspector.get_view_names())
        schema = _current_schema(connection)
    assert tables == (TABLES | SQLITE_SEARCH if schema is None else TABLES)
    assert views == VIEWS
    assert schema is None or schema.startswith("cc_")  # PostgreSQL: the test's own schema


def test_index_savings_documents_stored_bytes(engine: Engine) -> None:
    migrate(engine)
    with engine.connect() as connection:
        documentation = _view_documentation(connection, "index_savings")
    assert (
        "stored_bytes = the bytes on disk (store_size) of the parts that hold a site's rows" in documentation
    )
    assert "clean_text_bytes = UTF-8 bytes of the clean text of the site's pages" in documentation


def _current_schema(connection: Connection) -> str | None:
    if connection.dialect.name != "postgresql":
        return None
    return str(connection.scalar(text("SELECT current_schema()")))


def _view_documentation(connection: Connection, view: str) -> str:
    """The view's SQL with its comments (SQLite keeps them) or its catalog comment (PostgreSQL)."""
    if connection.dialect.name == "postgresql":
        query = text("SELECT obj_description(CAST(:view AS regclass), 'pg_class')")
    else:
        query = text("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = :view")
    return connection.scalar(query, {"view": view}) or ""


def _upgrade(connection: Connection, revision: str) -> None:
    command.upgrade(alembic_config(connection), revision)


def test_pages_stored_under_0002_keep_their_rows_and_lose_only_final_url(engine: Engine) -> None:
    with engine.begin() as connection:
        _upgrade(connection, "0002")
        connection.execute(text("INSERT INTO sites (id, host) VALUES (1, 'a.example')"))
        connection.execute(
            text(
                "INSERT INTO pages (id, url, final_url, status, fetched_at, title, site_id, "
                "raw_html_bytes, visible_text_bytes, stored_bytes, content_hash) VALUES (1, "
                "'http://a.example/', 'http://a.example/', 200, '2026-11-22 12:00:00+00', 'A page', 1, "
                "100, 10, 5, 'abc')"
            )
        )
    migrate(engine)
    with engine.connect() as connection:
        columns = {column["name"] for column in inspect(connection).get_columns("pages")}
        row = connection.execute(text("SELECT url, title, site FROM clean_pages")).one()
    assert "final_url" not in columns
    assert tuple(row) == ("http://a.example/", "A page", "a.example")


def _insert(connection: Connection, table: str, rows: list[dict[str, object]]) -> None:
    columns = ", ".join(rows[0])
    values = ", ".join(f":{name}" for name in rows[0])
    connection.execute(text(f"INSERT INTO {table} ({columns}) VALUES ({values})"), rows)


HASHES = {
    "menu": "f0f0f0f0f0f0f0f0",
    "hello": "0123456789abcdef",
    "shared": "8000000000000001",
    "own": "7fff00000000aaaa",
}
SHARED_TEXT = "A paragraph that two pages hold, long enough to be kept once."


def _store_0003(connection: Connection) -> None:
    """Two pages as a 0003 store kept them: a menu on both, a shared paragraph, a paragraph of their own."""
    _upgrade(connection, "0003")
    _insert(connection, "sites", [{"id": 1, "host": "a.example"}])
    _insert(
        connection,
        "clusters",
        [
            {
                "id": 1,
                "site_id": 1,
                "signature": "00ff00ff00ff00ff",
                "page_count": 2,
                "shingles": "00000000000000ff 0000000000000aaa",
            }
        ],
    )
    _insert(
        connection,
        "blocks",
        [
            {"hash": HASHES["menu"], "text": None, "first_seen": "2026-11-22 12:00:00+00"},
            {"hash": HASHES["hello"], "text": "Hello.", "first_seen": "2026-11-22 12:00:00+00"},
            {"hash": HASHES["shared"], "text": SHARED_TEXT, "first_seen": "2026-11-22 12:00:00+00"},
            {"hash": HASHES["own"], "text": "Only here.", "first_seen": "2026-11-22 12:00:00+00"},
        ],
    )
    pages = [
        {
            "id": index,
            "url": f"http://a.example/{index}",
            "status": 200,
            "fetched_at": "2026-11-22 12:00:00+00",
            "title": f"Page {index}",
            "site_id": 1,
            "cluster_id": 1,
            "raw_html_bytes": 100,
            "visible_text_bytes": 50,
            "stored_bytes": 10,
            "content_hash": "00000000000000aa",
        }
        for index in (1, 2)
    ]
    _insert(connection, "pages", pages)
    blocks = [
        (1, 0, "menu", "noise", "inside nav.menu (boilerplate)"),
        (1, 1, "hello", "content", "in the content area (importance 0.91)"),
        (1, 2, "shared", "content", "in the content area (importance 0.80)"),
        (2, 0, "menu", "noise", "same text on 2 of 2 pages of its cluster"),
        (2, 1, "shared", "content", "the page's headline"),
        (2, 2, "own", "content", "in the content area (importance 0.77)"),
    ]
    _insert(
        connection,
        "page_blocks",
        [
            {
                "page_id": page,
                "position": position,
                "block_hash": HASHES[name],
                "label": label,
                "reason": reason,
                "tag": "p",
                "kind": "paragraph",
                "slot": "html/body/p",
                "shape_hash": None,
                "page_label": label,
                "page_reason": reason,
            }
            for page, position, name, label, reason in blocks
        ],
    )
    _insert(connection, "cluster_block_counts", [{"cluster_id": 1, "block_hash": HASHES["menu"], "pages": 2}])


def test_pages_stored_under_0003_keep_their_blocks_labels_and_text(engine: Engine) -> None:
    with engine.begin() as connection:
        _store_0003(connection)
    migrate(engine)
    sessions = session_factory(engine)
    with sessions() as session:
        texts = dict(session.execute(select(clean_pages.c.url, clean_pages.c.text)).all())
        rows = session.execute(
            select(
                page_blocks.c.page_id,
                page_blocks.c.position,
                page_blocks.c.block_hash,
                page_blocks.c.label,
            )
            .add_columns(page_blocks.c.rule, page_blocks.c.text)
            .order_by(page_blocks.c.page_id, page_blocks.c.position)
        ).all()
        dictionary = session.execute(select(Block.hash, Block.text, Block.content_pages)).all()
        hits = [hit.url for hit in search(session, "paragraph kept once")]
    mismatches = search_index_mismatches(sessions)
    assert texts == {
        "http://a.example/1": f"Hello.\n{SHARED_TEXT}",
        "http://a.example/2": f"{SHARED_TEXT}\nOnly here.",
    }
    assert [tuple(row) for row in rows] == [
        (1, 0, HASHES["menu"], "noise", "TEMPLATE_CONTAINER", None),
        (1, 1, None, "content", "CONTENT_AREA", "Hello."),
        (1, 2, HASHES["shared"], "content", "CONTENT_AREA", SHARED_TEXT),
        (2, 0, HASHES["menu"], "noise", "REPEATED_TEXT", None),
        (2, 1, HASHES["shared"], "content", "HEADLINE", SHARED_TEXT),
        (2, 2, None, "content", "CONTENT_AREA", "Only here."),
    ]
    # Blocks two pages hold are kept once, the others inline in their page.
    assert sorted((int_to_hash(value), text, count) for value, text, count in dictionary) == sorted(
        [(HASHES["shared"], SHARED_TEXT, 2), (HASHES["menu"], None, 0)]
    )
    assert sorted(hits) == ["http://a.example/1", "http://a.example/2"]
    assert mismatches == []


def _downgrade(connection: Connection, revision: str) -> None:
    command.downgrade(alembic_config(connection), revision)


def _arrays(connection: Connection) -> dict[int, list[object]]:
    rows = connection.execute(text("SELECT id, blocks FROM pages ORDER BY id")).all()
    return {page_id: json.loads(value) if isinstance(value, str) else value for page_id, value in rows}


def _views(connection: Connection) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    blocks = select(page_blocks).order_by(page_blocks.c.page_id, page_blocks.c.position)
    texts = select(clean_pages.c.page_id, clean_pages.c.text).order_by(clean_pages.c.page_id)
    return [tuple(row) for row in connection.execute(blocks)], [
        tuple(row) for row in connection.execute(texts)
    ]


def _is_reference_run(value: object) -> bool:
    return isinstance(value, list)


def _is_inline_run(value: object) -> bool:
    return isinstance(value, str) and value.startswith(RUN_MARK)


def _as_0005(stored: list[StoredElement]) -> list[StoredElement]:
    return list(unpack(stored))


def _as_0006(stored: list[StoredElement]) -> list[StoredElement]:
    return pack_references(unpack(stored))


@pytest.mark.parametrize(
    ("revision", "written", "packed_run"),
    [("0005", _as_0005, _is_reference_run), ("0006", _as_0006, _is_inline_run)],
    ids=["references-single", "inline-single"],
)
def test_pages_stored_under_an_older_format_are_packed_and_read_the_same(
    engine: Engine,
    shared_dir: Path,
    revision: str,
    written: Callable[[list[StoredElement]], list[StoredElement]],
    packed_run: Callable[[object], bool],
) -> None:
    with engine.begin() as connection:
        _upgrade(connection, revision)
    with session_factory(engine).begin() as session:
        store_pages(session, whizzy_items(shared_dir, 20))
    with engine.begin() as connection:
        # As `revision` stored them.
        old = {page_id: written(stored) for page_id, stored in _arrays(connection).items()}  # type: ignore[arg-type]
        for page_id, elements in old.items():
            connection.execute(
                text("UPDATE pages SET blocks = :blocks WHERE id = :id"),
                {"id": page_id, "blocks": json.dumps(elements)},
            )
        before = _views(connection)
    migrate(engine)
    with engine.begin() as connection:
        packed = _arrays(connection)
        after = _views(connection)
        _downgrade(connection, revision)
        restored, downgraded = _arrays(connection), _views(connection)
    assert any(packed_run(value) for array in packed.values() for value in array)
    assert {page_id: unpack(array) for page_id, array in packed.items()} == {  # type: ignore[arg-type]
        page_id: unpack(array) for page_id, array in old.items()
    }
    assert after == before
    assert (restored, downgraded) == (old, before)


def test_a_downgrade_to_0004_keeps_the_pages_and_their_views(engine: Engine, shared_dir: Path) -> None:
    # SQLite drops 0005's columns by rebuilding `pages`, which the views reading it did not survive.
    migrate(engine)
    with session_factory(engine).begin() as session:
        store_pages(session, whizzy_items(shared_dir, 20))
    with engine.begin() as connection:
        before = _views(connection)
        _downgrade(connection, "0004")
        after = _views(connection)
        version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    assert version == "0004"
    assert after == before and len(before[1]) == 20
