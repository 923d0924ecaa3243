"""`EXTRACTION_METHOD` in a crawl: a seed paper's method labels the stored pages, links are followed, a
site-level method learns the cluster's pages, an unknown name stops the crawl before any request."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from extraction.methods.cetr import Cetr
from records import stats
from tests.crawl_runner import CrawlRun, refused_at_startup, run_crawl
from tests.crawler.pages import article
from tests.pipelines.pages import whizzy_post_files
from tests.servers import RouteServer, page, serve_routes

pytestmark = pytest.mark.slow

POSTS = 8


def _ok(run: CrawlRun) -> CrawlRun:
    assert run.returncode == 0, run.log[-3000:]
    return run


@pytest.fixture
def posts(shared_dir: Path) -> dict[str, bytes]:
    """URL path -> body of the first whizzy posts (one template: one cluster)."""
    files = whizzy_post_files(shared_dir, POSTS)
    root = shared_dir / "sites" / "whizzy"
    return {"/" + file.removesuffix("index.html"): (root / file).read_bytes() for file in files}


def _crawl(tmp_path: Path, posts: dict[str, bytes], settings: dict[str, str]) -> tuple[RouteServer, CrawlRun]:
    """Crawl a home page linking to the posts, one level deep (the posts' own links are not followed)."""
    routes = {path: page(body) for path, body in posts.items()}
    routes["/"] = page(article("Posts", posts))
    with serve_routes(routes) as site:
        run = _ok(run_crawl(tmp_path, f"{site.base}/", args={"max_depth": "1"}, settings=settings))
    return site, run


def _rows(database: Path, query: str) -> list[tuple[str, ...]]:
    with sqlite3.connect(database) as connection:
        return connection.execute(query).fetchall()


# Block texts stored although no page holds the block as content.
_NOISE_TEXTS = """
SELECT count(*) FROM blocks AS b WHERE b.text IS NOT NULL
AND NOT EXISTS (SELECT 1 FROM page_blocks AS pb WHERE pb.block_id = b.id AND pb.label = 'content')
"""


_CLUSTER_SIZES = "SELECT count(*) FROM pages GROUP BY cluster_id"


def _method_labels_stand(run: CrawlRun, database: Path) -> None:
    """cleancrawl's site models did not re-clean the method's labels, and no noise text was stored."""
    assert run.stat(stats.RECLEAN_PAGES) == 0
    assert _rows(database, _NOISE_TEXTS) == [(0,)]


def test_a_single_page_method_labels_every_stored_page(tmp_path: Path, posts: dict[str, bytes]) -> None:
    site, run = _crawl(tmp_path, posts, {"EXTRACTION_METHOD": "cetr"})
    stored = dict(_rows(tmp_path / "db.sqlite", "SELECT url, text FROM clean_pages"))
    assert run.stat(stats.PAGES_KEPT) == len(stored) == POSTS + 1  # the home page's links were followed
    for path, body in posts.items():
        url = site.base + path
        assert stored[url] == Cetr().extract(body, url).text
    _method_labels_stand(run, tmp_path / "db.sqlite")


def test_a_site_level_method_learns_the_cluster_and_labels_its_pages(
    tmp_path: Path, posts: dict[str, bytes]
) -> None:
    settings = {"EXTRACTION_METHOD": "contentextractor", "EXTRACTION_SITE_MIN_PAGES": "3"}
    _, run = _crawl(tmp_path, posts, settings)
    assert run.stat(stats.PAGES_KEPT) == POSTS + 1
    # Pages join clusters by their layout, their content (as the method labels it) counted as its
    # container: most posts share one. A cluster learns at 3 pages and at 6; its first two pages, and
    # every page of a smaller cluster (the home page's own), keep the labels of ContentExtractor without
    # learned pages (K-FE's choice).
    sizes = [int(size) for (size,) in _rows(tmp_path / "db.sqlite", _CLUSTER_SIZES)]
    assert max(sizes) >= 6
    learned = [size for size in sizes if size >= 3]
    assert run.stat(stats.METHOD_LEARNINGS) == len(learned) + sum(size >= 6 for size in sizes)
    unlearned = sum(min(size, 2) if size >= 3 else size for size in sizes)
    relabelled = sum(size - 2 for size in learned)
    assert (run.stat(stats.METHOD_PAGES_UNLEARNED), run.stat(stats.METHOD_PAGES_RELABELLED)) == (
        unlearned,
        relabelled,
    )
    rules = {rule for (rule,) in _rows(tmp_path / "db.sqlite", "SELECT DISTINCT rule FROM page_blocks")}
    assert rules == {"METHOD"}  # every block as the method labelled it, learned or not
    _method_labels_stand(run, tmp_path / "db.sqlite")


def test_an_unknown_method_stops_the_crawl_at_startup(tmp_path: Path) -> None:
    log = refused_at_startup(tmp_path, {"EXTRACTION_METHOD": "readability"})
    assert "unknown method 'readability'; choose from cleancrawl, keypattern, " in log
