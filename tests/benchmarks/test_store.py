"""`benchmarks.store`: title cleaning, template phrases and MRR, on real titles and texts and on real SQLite
stores (a clean store written by `store_pages`, a baseline by `BaselineStore`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.store import (
    Site,
    clean_title,
    is_whizzy_post,
    mean,
    measure_quality,
    reciprocal_rank,
    sample,
    shared_titles,
    site_suffix,
    template_phrases,
    title_queries,
)
from pipelines.storage import make_engine, migrate, session_factory, store_pages
from pipelines.storage.baseline import BaselineStore
from pipelines.storage.search import words
from records import PageRecord
from tests.pipelines.items import make_item, page_item

PYTHON_DOCS = Path("/usr/share/doc/python3.11/html")
NAV = ("Home | Recipes | Contact the bakery", "noise")
BAKERY = [
    make_item(
        "https://bakery.test/2024/01/02/sourdough/",
        [NAV, ("Sourdough bread", "content"), ("Sourdough bread needs a starter and time.", "content")],
        title="Sourdough bread – The Bakery",
    ),
    make_item(
        "https://bakery.test/2024/02/03/lemon-cake/",
        [NAV, ("Lemon cake", "content"), ("A lemon cake with poppy seeds, and bread for later.", "content")],
        title="Lemon cake – The Bakery",
    ),
    make_item("https://bakery.test/about/", [NAV, ("We bake bread.", "content")], title="About – The Bakery"),
]


def whizzy_posts(shared_dir: Path, count: int) -> list[PageRecord]:
    """The first `count` posts of whizzy's ground truth, extracted as if fetched from their URL."""
    truth = shared_dir / "sites" / "ground_truth" / "whizzy.jsonl"
    records = [json.loads(line) for line in truth.read_text("utf-8").splitlines()[:count]]
    root = shared_dir / "sites" / "whizzy"
    return [page_item(root / r["file"], "http://127.0.0.1:8000" + r["url_path"]) for r in records]


def write_stores(tmp_path: Path, items: list[PageRecord]) -> tuple[str, str]:
    """A clean store and a baseline store of `items`, as a crawl writes them; their URLs."""
    store, baseline = f"sqlite:///{tmp_path / 'store.db'}", f"sqlite:///{tmp_path / 'baseline.db'}"
    engine = make_engine(store)
    migrate(engine)
    with session_factory(engine).begin() as session:
        store_pages(session, items)
    engine.dispose()
    visible = BaselineStore(baseline)
    visible.write([(item.url, "\n".join(block.text for block in item.blocks)) for item in items])
    visible.close()
    return store, baseline


def test_the_site_suffix_is_what_most_titles_end_with() -> None:
    titles = [
        "Sourdough bread – The Bakery",
        "Lemon cake – The Bakery",
        "The Bakery",
        "Fig – jam – The Bakery",
    ]
    suffix = site_suffix(titles)
    assert suffix == " – The Bakery"
    assert [clean_title(title, suffix) for title in titles] == [
        "Sourdough bread",
        "Lemon cake",
        "The Bakery",
        "Fig – jam",
    ]
    assert site_suffix(["One – two", "Three", "Four", "Five"]) == ""  # not on half of the titles


def test_real_titles_lose_their_site_name(shared_dir: Path) -> None:
    truth = shared_dir / "sites" / "ground_truth" / "whizzy.jsonl"
    records = [json.loads(line) for line in truth.read_text("utf-8").splitlines()]
    suffix = site_suffix(record["title"] for record in records)
    assert suffix == " – whizzy.org"
    # Cleaned, each post's title is its h1, the first line of its main text.
    assert all(clean_title(r["title"], suffix) == r["main_text"].split("\n")[0] for r in records)


def test_python_docs_titles_lose_the_documentation_suffix() -> None:
    if not PYTHON_DOCS.is_dir():
        pytest.skip(f"{PYTHON_DOCS} is missing (apt-get install python3.11-doc)")
    pages = ["tutorial/introduction.html", "library/re.html", "index.html"]
    html = [(PYTHON_DOCS / page).read_text("utf-8") for page in pages]
    titles = [page.split("<title>")[1].split("</title>")[0].replace("&#8212;", "—") for page in html]
    suffix = site_suffix(titles)
    assert suffix == " — Python 3.11.2 documentation"
    assert clean_title(titles[0], suffix) == "3. An Informal Introduction to Python"


def test_template_phrases_are_frequent_lines_of_three_words_or_more() -> None:
    texts = [
        "Home | Recipes\nPowered by the oven\nBread\nSourdough needs a starter",
        "Home | Recipes\nPowered by the oven\nCake\nSourdough needs a starter",
        "Home | Recipes\nPowered by the oven\nJam",
    ]
    # "Home | Recipes" has two words; the sourdough line is on 2 pages of 3, under 90%.
    assert template_phrases(texts) == ["Powered by the oven"]
    assert template_phrases(texts, share=0.6) == ["Powered by the oven", "Sourdough needs a starter"]


def test_a_line_whose_words_are_also_content_is_no_template_phrase() -> None:
    # As a quoted query the breadcrumb is its words, "3 11 2 documentation": the download page holds them as
    # content, so a store that returns that page returns no template.
    texts = [
        "3.11.2 Documentation »\nCreated using Sphinx 5.3.0.\nDownload Python 3.11.2 Documentation",
        "3.11.2 Documentation »\nCreated using Sphinx 5.3.0.\nThe re module",
        "3.11.2 Documentation »\nCreated using Sphinx 5.3.0.\nCreated using Sphinx 5.3.0.",  # twice, alone
    ]
    assert template_phrases(texts) == ["Created using Sphinx 5.3.0."]
    # Words that run on from one line to the next are found by a phrase query too.
    assert template_phrases(["Powered by the\noven", "Powered by the oven", "Powered by the oven"], 0.6) == []


def test_template_phrases_of_whizzy_are_on_nine_pages_in_ten(shared_dir: Path) -> None:
    texts = ["\n".join(block.text for block in item.blocks) for item in whizzy_posts(shared_dir, 30)]
    phrases = template_phrases(texts)
    assert len(phrases) == 5
    # The comment box's line that ends every post, and the sidebar's recent posts (ties alphabetical).
    assert phrases[:2] == [
        "Comments have moved to Github Discussions. Feel free to add your thoughts there.",
        "DNS over HTTPS in a snap",
    ]
    for phrase in phrases:
        assert len(words(phrase)) >= 3
        assert sum(phrase in text.split("\n") for text in texts) >= 0.9 * len(texts)


def test_reciprocal_ranks_and_their_mean() -> None:
    results = ["https://a.test/1", "https://a.test/2", "https://a.test/3"]
    assert reciprocal_rank(results, "https://a.test/1") == 1.0
    assert reciprocal_rank(results, "https://a.test/3") == pytest.approx(1 / 3)
    assert reciprocal_rank(results, "https://a.test/4") == 0.0  # beyond the results
    assert mean([1.0, 0.5, 0.0]) == 0.5
    assert mean([]) == 0.0


def test_the_draw_of_queries_is_seeded() -> None:
    items = [f"https://a.test/{index}" for index in range(50)]
    assert sample(items, 10, seed=0) == sample(list(reversed(items)), 10, seed=0)
    assert sample(items, 10, seed=0) != sample(items, 10, seed=1)
    assert sample(items, 100, seed=0) == sorted(items)


def _docs(path: str) -> str:
    return f"https://docs.test/{path}"


def test_a_title_other_pages_share_is_no_query() -> None:
    titles = {
        _docs("genindex-A.html"): "Index — Docs",
        _docs("genindex-B.html"): "Index — Docs",
        _docs("re.html"): "re — Regular expressions — Docs",
        _docs("intro.html"): "Introduction — Docs",
        _docs("c-api/intro.html"): "introduction — Docs",  # the same words
    }
    shared = ("genindex-A.html", "genindex-B.html", "intro.html", "c-api/intro.html")
    assert shared_titles(titles, " — Docs") == {_docs(path) for path in shared}
    assert title_queries(titles, lambda _: True, 10, seed=0) == {_docs("re.html"): "re — Regular expressions"}


def test_whizzy_posts_are_dated_paths() -> None:
    assert is_whizzy_post("/2019/07/16/dns-over-https-in-a-snap/")
    assert not is_whizzy_post("/2019/07/")
    assert not is_whizzy_post("/category/linux/")


def test_search_quality_of_two_real_stores(tmp_path: Path) -> None:
    store, baseline = write_stores(tmp_path, BAKERY)
    site = Site("bakery", tmp_path, "/", is_whizzy_post)
    quality = measure_quality(store, baseline, site, count=10, seed=0)
    assert quality.queries == 2  # the two dated posts; the about page is no post
    assert quality.store_mrr == 1.0
    # The navigation is a phrase of every page's visible text, and of no page's clean text.
    assert [(p.text, p.baseline_pages, p.store_pages) for p in quality.phrases] == [(NAV[0], 3, 0)]


def test_search_quality_of_real_whizzy_pages(shared_dir: Path, tmp_path: Path) -> None:
    items = whizzy_posts(shared_dir, 30)
    store, baseline = write_stores(tmp_path, items)
    site = Site("whizzy", tmp_path, "/", is_whizzy_post)
    quality = measure_quality(store, baseline, site, count=5, seed=0)
    assert quality.queries == 5
    assert 0.0 < quality.store_mrr <= 1.0
    assert quality.baseline_mrr <= 1.0
    assert len(quality.phrases) == 5
    assert all(phrase.baseline_pages >= 0.9 * len(items) for phrase in quality.phrases)
