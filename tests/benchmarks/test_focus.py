"""The focus benchmark's measures and ground truth on fixed inputs, and one tiny best-first crawl: the
keyword middleware's priorities reach Scrapy's scheduler."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse

from benchmarks.crawl import ServedSite
from benchmarks.focus import (
    DOCBOOK_TOC,
    POSTGRESQL_TOPICS,
    SPHINX_TOC,
    SQLALCHEMY_TOPICS,
    Crawl,
    KeywordPriorityMiddleware,
    TableOfContents,
    Topic,
    TopicResult,
    anchor_texts,
    crawl,
    harvest,
    keyword_score,
    keywords,
    library_chapters,
    page_path,
    pages_to_share,
    render_summary,
    render_topic,
    toc_topics,
    whizzy_topics,
)
from benchmarks.localserver import serve_directory
from benchmarks.sites import DEFAULT_CACHE, catalogue

RELEVANT = {"/a/", "/b/", "/c/", "/d/", "/e/"}


SERVED = "http://127.0.0.1:8000"


@pytest.mark.parametrize("path", ["/2009/05/post/", "/library/re.html"])
def test_page_path_names_pages_as_the_ground_truth_does(path: str) -> None:
    assert page_path(SERVED + path) == path


def test_page_path_names_an_index_html_by_its_folder_and_no_path_as_the_root() -> None:
    assert page_path(f"{SERVED}/2009/05/post/index.html") == "/2009/05/post/"
    assert page_path(SERVED) == "/"


def test_harvest_is_the_relevant_share_of_the_first_pages() -> None:
    paths = ["/", "/a/", "/x/", "/b/", "/y/", "/c/"]
    assert harvest(paths, RELEVANT, 2) == 0.5
    assert harvest(paths, RELEVANT, 4) == 0.5
    assert harvest(paths, RELEVANT, 100) == 0.5  # fewer stored than N: over those stored
    assert harvest([], RELEVANT, 50) is None


def test_pages_to_share_counts_pages_until_80_percent_of_the_relevant() -> None:
    paths = ["/", "/a/", "/x/", "/b/", "/c/", "/y/", "/d/", "/e/"]
    assert pages_to_share(paths, RELEVANT) == 7  # 4 of 5 relevant pages
    assert pages_to_share(paths[:6], RELEVANT) is None
    assert pages_to_share(paths, RELEVANT, 0.4) == 4
    assert pages_to_share(paths, set()) == 0


def test_keyword_score_is_crawl4ai_s_share_of_keywords_found() -> None:
    words = keywords("Growing tomatoes from seed in the greenhouse")
    assert words == ["grow", "tomato", "seed", "greenhouse"]
    assert keyword_score(words, "http://x/tomatoes/ Growing TOMATOES") == 0.5
    assert keyword_score(words, "http://x/about/ About us") == 0.0
    assert keyword_score([], "anything") == 0.0


def test_anchor_texts_and_middleware_priority() -> None:
    body = (
        b'<html><body><a href="/veg/tomato.html">Growing <b>tomatoes</b></a>'
        b'<a href="/about.html">About</a><a href="/veg/tomato.html#top">from seed</a></body></html>'
    )
    response = HtmlResponse("http://x.test/index.html", body=body, encoding="utf-8")
    anchors = anchor_texts(response)
    assert anchors == {
        "http://x.test/veg/tomato.html": "Growing tomatoes from seed",
        "http://x.test/about.html": "About",
    }
    middleware = KeywordPriorityMiddleware(keywords("growing tomatoes from seed in the greenhouse"))
    requests = [Request("http://x.test/veg/tomato.html"), Request("http://x.test/about.html"), "item"]
    out = list(middleware.process_spider_output(response, requests))
    assert [getattr(item, "priority", item) for item in out] == [750, 0, "item"]


def test_ground_truth_from_the_sites_own_structure(tmp_path: Path) -> None:
    index = """<div class="toctree-wrapper"><ul>
      <li class="toctree-l1"><a href="text.html">Text Processing Services</a><ul>
        <li class="toctree-l2"><a href="string.html">string</a><ul>
          <li class="toctree-l3"><a href="string.html#format">Format</a></li></ul></li>
        <li class="toctree-l2"><a href="re.html">re</a></li></ul></li>
      <li class="toctree-l1"><a href="intro.html">Introduction</a></li></ul></div>"""
    assert library_chapters(index) == {
        "Text Processing Services": frozenset(
            {"/library/text.html", "/library/string.html", "/library/re.html"}
        ),
        "Introduction": frozenset({"/library/intro.html"}),
    }
    posts = {f"/p{i}/": ["linux"] + (["tv"] if i < 3 else []) for i in range(9)}
    (tmp_path / "topics.json").write_text(json.dumps(posts), "utf-8")
    topics = whizzy_topics(tmp_path / "topics.json")
    assert [topic.name for topic in topics] == ["linux"]  # tv has 3 posts, under 8
    assert len(topics[0].relevant) == 9 and topics[0].description


def _docbook_page(title: str, entries: dict[str, str]) -> str:
    """A page as DocBook's chunked HTML makes it: a navigation header, then its table of contents."""
    items = "".join(
        f'<dt><span class="chapter"><a href="{href}">{text}</a></span></dt>' for href, text in entries.items()
    )
    return (
        '<html><body><div class="navheader"><a href="index.html">Home</a></div>'
        f'<div class="part"><h1>{title}</h1>'
        f'<div class="toc"><dl class="toc">{items}</dl></div></div></body></html>'
    )


def test_table_of_contents_finds_an_entry_and_the_pages_under_it(tmp_path: Path) -> None:
    pages = {
        "index.html": {"tutorial.html": "I. Tutorial", "sql.html": "II. The <b>SQL</b> Language"},
        "tutorial.html": {"tutorial-sql.html": "2. The SQL Language"},
        "sql.html": {"ddl.html": "5. Data Definition", "dml.html#x": "6. Data Manipulation"},
        "ddl.html": {"ddl-basics.html": "5.1. Table Basics", "https://elsewhere.test/a.html": "Elsewhere"},
        "ddl-basics.html": {"ddl.html": "5. Data Definition"},  # a loop: met once
        "dml.html": {},
    }
    for name, entries in pages.items():
        (tmp_path / name).write_text(_docbook_page(name, entries), "utf-8")
    toc = TableOfContents(tmp_path, DOCBOOK_TOC)
    assert toc.links("/sql.html") == [
        ("/ddl.html", "5. Data Definition"),
        ("/dml.html", "6. Data Manipulation"),
    ]
    assert toc.links("/missing.html") == []
    assert toc.find("II. The SQL Language", "/") == "/sql.html"  # numbered: not the tutorial's chapter
    assert toc.find("5.1. Table Basics", "/") == "/ddl-basics.html"  # two tables of contents down
    assert toc.find("Appendixes", "/") is None
    assert toc.under("/sql.html") == {"/sql.html", "/ddl.html", "/dml.html", "/ddl-basics.html"}
    topics = toc_topics("docs", toc, "/", {"II. The SQL Language": "SQL.", "IX. Missing": "Nothing."})
    assert [(topic.name, len(topic.relevant)) for topic in topics] == [("II. The SQL Language", 4)]


def test_postgresql_topics_are_the_manuals_parts() -> None:
    site = next(site for site in catalogue(Path(), DEFAULT_CACHE) if site.name == "postgresql-docs")
    if not (site.root / "index.html").is_file():
        pytest.skip(f"{site.root} is missing (make sites-data, or apt-get install postgresql-doc-15)")
    topics = {
        topic.name: topic.relevant
        for topic in toc_topics(site.name, TableOfContents(site.root, DOCBOOK_TOC), "/", POSTGRESQL_TOPICS)
    }
    assert list(topics) == list(POSTGRESQL_TOPICS)
    pages = sum(1 for _ in site.root.glob("*.html"))
    assert pages > 1000
    for name, relevant in topics.items():
        assert 100 <= len(relevant) <= 250, (
            name
        )  # each far above a crawl's first 100 pages, far below the site
        assert all((site.root / path.lstrip("/")).is_file() for path in relevant), name
    assert "/sql-createtable.html" in topics["I. SQL Commands"]
    assert "/tutorial-sql.html" not in topics["II. The SQL Language"]  # the tutorial's chapter of that name
    assert "/libpq-connect.html" in topics["IV. Client Interfaces"]
    assert "/plpgsql.html" in topics["V. Server Programming"]
    names = list(topics)
    for index, name in enumerate(names):
        for other in names[index + 1 :]:
            assert not topics[name] & topics[other], (name, other)  # the parts do not share pages


def test_sqlalchemy_topics_are_the_documentation_s_sections() -> None:
    site = next(site for site in catalogue(Path(), DEFAULT_CACHE) if site.name == "sqlalchemy-docs")
    if not (site.root / "contents.html").is_file():
        pytest.skip(f"{site.root} is missing (make sites-data, or apt-get install python-sqlalchemy-doc)")
    toc = TableOfContents(site.root, SPHINX_TOC)
    topics = {
        topic.name: topic.relevant
        for topic in toc_topics(site.name, toc, "/contents.html", SQLALCHEMY_TOPICS)
    }
    assert list(topics) == list(SQLALCHEMY_TOPICS)
    assert "/orm/session_basics.html" in topics["SQLAlchemy ORM"]
    assert "/core/engines.html" in topics["SQLAlchemy Core"]
    assert "/changelog/migration_14.html" in topics["Changes and Migration"]
    for name, relevant in topics.items():
        assert 20 <= len(relevant) <= 70, name
        files = [
            site.root / (path.lstrip("/") + ("index.html" if path.endswith("/") else "")) for path in relevant
        ]
        assert all(file.is_file() for file in files), name
    names = list(topics)
    for index, name in enumerate(names):
        for other in names[index + 1 :]:
            assert not topics[name] & topics[other], (name, other)


def test_tables_and_targets() -> None:
    topic = Topic("site", "t", "a topic", frozenset(RELEVANT))
    plain = ["/x/"] * 90 + ["/a/", "/b/"]
    result = TopicResult(
        topic,
        {
            "breadth-first": Crawl("breadth-first", plain, 1.0, 2.0),
            "best-first": Crawl("best-first", ["/a/", *plain], 1.0, 2.0),
            "focused, no block": Crawl("focused, no block", ["/a/", "/x/", "/b/", "/y/", "/c/"], 1.0, 2.0),
            "focused": Crawl("focused", sorted(RELEVANT), 1.0, 2.0),
        },
    )
    table = render_topic(result)
    assert "| focused | 1.00 | 1.00 | 1.00 | 4 | 5 | 200 |" in table
    assert "| breadth-first | 0.00 | 0.02 | 0.02 | not reached | 92 |" in table
    summary = render_summary([result])
    assert "harvest@100 >= 2 x breadth-first's on every topic: met" in summary
    assert "best-first's + 0.15 on every topic: met" in summary
    assert "block signal adds >= 0.05 harvest@100 on average: met (+0.400)" in summary
    # Five relevant pages cap harvest@100 at 0.05: best-first's 0.02 + 0.15 is past it, and the line says so.
    result.crawls["focused"] = result.crawls["breadth-first"]
    assert "t 0.02 vs 0.03 + 0.15, past the ceiling 0.05" in render_summary([result])


def test_a_best_first_crawl_fetches_the_keyword_link_first(tmp_path: Path) -> None:
    root = tmp_path / "site"
    root.mkdir()
    links = [f'<a href="/page-{i}.html">Page {i}</a>' for i in range(8)]
    links.insert(4, '<a href="/garden/tomatoes.html">Growing tomatoes from seed</a>')
    (root / "index.html").write_text(
        f"<html><body><h1>Home</h1><p>Welcome.</p>{''.join(links)}</body></html>"
    )
    for name in [f"page-{i}.html" for i in range(8)] + ["garden/tomatoes.html"]:
        (root / name).parent.mkdir(exist_ok=True)
        text = " ".join(f"Paragraph about {name} number {n}." for n in range(20))
        (root / name).write_text(f"<html><body><h1>{name}</h1><p>{text}</p></body></html>")
    topic = Topic("tiny", "tomatoes", "Growing tomatoes from seed", frozenset({"/garden/tomatoes.html"}))
    with serve_directory(root) as base:
        result = crawl("best-first", base, ServedSite("tiny", root, "/"), tmp_path, 20, topic)
    assert result.paths[0] == "/" and len(result.paths) == 10
    # Two requests at a time: the first link may leave before the others are queued. Without the priority,
    # Scrapy's LIFO queue would take the keyword link fifth.
    assert "/garden/tomatoes.html" in result.paths[1:3], result.paths
    assert result.cpu_seconds > 0
