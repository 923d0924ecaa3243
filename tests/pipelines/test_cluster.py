"""ClusterPipeline: the template cluster of a page within its site, shared through the database."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured

from pipelines.cluster import ClusterPipeline
from pipelines.config import CrawlConfig
from pipelines.context import CrawlContext
from records import PageRecord
from tests.addon import addon_crawler
from tests.pipelines.pages import PYTHON_DOCS, WHIZZY_POSTS, item_from_file, whizzy_item

WHIZZY_ARCHIVE = "category/linux/index.html"


def _pipeline(database_url: str = "") -> ClusterPipeline:
    return ClusterPipeline(CrawlContext(CrawlConfig(), database_url))


def _clustered(pipeline: ClusterPipeline, item: PageRecord) -> PageRecord:
    return pipeline.process_item(item)


def _docs_item(name: str) -> PageRecord:
    return item_from_file(PYTHON_DOCS / name, f"http://127.0.0.1:8001/{name}")


def test_two_whizzy_posts_share_a_cluster(shared_dir: Path) -> None:
    pipeline = _pipeline()
    first, second = (_clustered(pipeline, whizzy_item(shared_dir, post)) for post in WHIZZY_POSTS)
    assert first.cluster == second.cluster
    assert len(first.cluster) == 16


def test_a_post_and_an_archive_page_of_one_site_are_two_templates(shared_dir: Path) -> None:
    pipeline = _pipeline()
    post = _clustered(pipeline, whizzy_item(shared_dir, WHIZZY_POSTS[0]))
    archive = _clustered(pipeline, whizzy_item(shared_dir, WHIZZY_ARCHIVE))
    assert post.site == archive.site
    assert post.cluster != archive.cluster


def test_two_python_docs_pages_share_a_cluster_apart_from_whizzy(shared_dir: Path) -> None:
    pipeline = _pipeline()
    docs = [_clustered(pipeline, _docs_item(name)) for name in ("library/os.html", "library/json.html")]
    assert docs[0].cluster == docs[1].cluster
    post = _clustered(pipeline, whizzy_item(shared_dir, WHIZZY_POSTS[0]))
    assert post.cluster != docs[0].cluster


def test_clusters_are_shared_through_the_database(shared_dir: Path, tmp_path: Path) -> None:
    # A second process (here: a second pipeline) finds the cluster the first one founded.
    url = f"sqlite:///{tmp_path / 'clusters.db'}"
    first, second = _pipeline(url), _pipeline(url)
    try:
        founded = _clustered(first, whizzy_item(shared_dir, WHIZZY_POSTS[0])).cluster
        assert _clustered(second, whizzy_item(shared_dir, WHIZZY_POSTS[1])).cluster == founded
    finally:
        first.context.close()
        second.context.close()


def test_cluster_enabled_false_switches_the_pipeline_off() -> None:
    with pytest.raises(NotConfigured):
        ClusterPipeline.from_crawler(addon_crawler({"CLUSTER_ENABLED": "False"}))


def test_threshold_is_an_extraction_setting(shared_dir: Path) -> None:
    crawler = addon_crawler({"EXTRACTION_SITE_CLUSTER_THRESHOLD": "0.9"})
    pipeline = ClusterPipeline.from_crawler(crawler)
    _clustered(pipeline, whizzy_item(shared_dir, WHIZZY_POSTS[0]))
    assert pipeline.sites["127.0.0.1:8000"].threshold == 0.9
