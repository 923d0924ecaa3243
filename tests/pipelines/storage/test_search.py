"""Search over the stored clean text, on SQLite and PostgreSQL: the index follows every write and re-clean,
ranks by BM25, and never finds a template phrase."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker

from pipelines.storage import store_pages
from pipelines.storage.baseline import BaselineStore, baseline_search
from pipelines.storage.db import make_engine, session_factory
from pipelines.storage.search import search, words
from tests.pipelines.databases import search_index_mismatches
from tests.pipelines.items import make_item, whizzy_items

Sessions = sessionmaker[Session]
NAV = ("Home | Recipes | Contact the bakery", "noise")


def store(sessions: Sessions, items: list) -> None:  # type: ignore[type-arg]
    with sessions.begin() as session:
        store_pages(session, items)


def urls(sessions: Sessions, terms: str, **options: object) -> list[str]:
    with sessions() as session:
        return [hit.url for hit in search(session, terms, **options)]  # type: ignore[arg-type]


def test_content_words_find_their_page_and_template_words_find_nothing(sessions: Sessions) -> None:
    store(
        sessions,
        [
            make_item("https://bakery.test/bread", [NAV, ("Sourdough bread needs a starter.", "content")]),
            make_item("https://bakery.test/cake", [NAV, ("A lemon cake with poppy seeds.", "content")]),
        ],
    )
    assert urls(sessions, "sourdough starter") == ["https://bakery.test/bread"]
    assert urls(sessions, "LEMON cake") == ["https://bakery.test/cake"]  # case does not matter
    assert urls(sessions, "bakery") == []  # only in the navigation
    assert urls(sessions, "sourdough lemon") == []  # every word, on one page


def test_a_quoted_query_is_a_phrase(sessions: Sessions) -> None:
    store(
        sessions,
        [
            make_item("https://bakery.test/a", [("Bread starter recipe.", "content")]),
            make_item("https://bakery.test/b", [("A recipe for bread, and a starter.", "content")]),
        ],
    )
    assert sorted(urls(sessions, "bread starter")) == ["https://bakery.test/a", "https://bakery.test/b"]
    assert urls(sessions, '"bread starter"') == ["https://bakery.test/a"]


def test_pages_rank_by_bm25_and_show_their_best_block(sessions: Sessions) -> None:
    store(
        sessions,
        [
            make_item(
                "https://bakery.test/rye", [("Rye bread.", "content"), ("Rye, rye and more rye.", "content")]
            ),
            make_item(
                "https://bakery.test/wheat",
                [("Wheat bread with a little rye.", "content")] + [("Filler text.", "content")] * 20,
            ),
        ],
    )
    with sessions() as session:
        hits = search(session, "rye")
    assert [hit.url for hit in hits] == ["https://bakery.test/rye", "https://bakery.test/wheat"]
    assert hits[0].score > hits[1].score > 0
    assert hits[0].snippet == "[Rye,] [rye] and more [rye.]"
    assert hits[1].snippet == "Wheat bread with a little [rye.]"


def test_the_index_follows_a_changed_page(sessions: Sessions) -> None:
    store(sessions, [make_item("https://bakery.test/news", [("Croissants on Monday.", "content")])])
    assert urls(sessions, "croissants") == ["https://bakery.test/news"]
    store(sessions, [make_item("https://bakery.test/news", [("Brioche on Tuesday.", "content")])])
    assert urls(sessions, "croissants") == []
    assert urls(sessions, "brioche") == ["https://bakery.test/news"]
    assert search_index_mismatches(sessions) == []


def test_a_site_and_a_limit_narrow_the_hits(sessions: Sessions) -> None:
    pages = [
        make_item(f"https://site{index % 2}.test/{index}", [(f"Bread number {index}.", "content")])
        for index in range(6)
    ]
    store(sessions, pages)
    assert len(urls(sessions, "bread")) == 6
    assert len(urls(sessions, "bread", limit=2)) == 2
    assert all("site1.test" in url for url in urls(sessions, "bread", site="site1.test"))


def test_words_are_folded_as_the_index_folds_them() -> None:
    assert words("Crème BRÛLÉE, the_best 2 ways") == ["creme", "brulee", "the", "best", "2", "ways"]


def test_the_baseline_finds_template_phrases_the_clean_store_does_not(
    sessions: Sessions, tmp_path: Path, shared_dir: Path
) -> None:
    items = whizzy_items(shared_dir, 20)
    baseline = BaselineStore(f"sqlite:///{tmp_path / 'baseline.db'}")
    baseline.write([(item.url, "\n".join(block.text for block in item.blocks)) for item in items])
    baseline.close()
    store(sessions, items)
    phrase = '"Proudly powered by WordPress"'  # whizzy's footer line
    footer = "proudly powered by wordpress"
    footed = [item for item in items if any(footer in block.text.lower() for block in item.blocks)]
    engine = make_engine(f"sqlite:///{tmp_path / 'baseline.db'}")
    with session_factory(engine)() as session:
        assert len(baseline_search(session, phrase, limit=100)) == len(footed) > 10
    engine.dispose()
    assert urls(sessions, phrase) == []


def test_versions_markup_words_and_accents_are_found_as_queried(sessions: Sessions) -> None:
    # PostgreSQL's own parser keeps "3.11.2" as one token and skips what follows a literal "<script>".
    text = "Python 3.11.2 documentation. Run python <script> then read the manual page. Café crème."
    store(sessions, [make_item("https://docs.test/cmdline", [(text, "content")])])
    assert urls(sessions, "3.11.2") == ["https://docs.test/cmdline"]
    assert urls(sessions, "manual page") == ["https://docs.test/cmdline"]
    assert urls(sessions, "cafe creme") == ["https://docs.test/cmdline"]
    assert search_index_mismatches(sessions) == []
