"""ClusterPipeline: the site of a page and its template cluster, shared through the database."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from crawler.items import PageItem
from pipelines.cluster import ClusterPipeline
from pipelines.config import SiteConfigs
from tests.pipelines.pages import PYTHON_DOCS, WHIZZY_POSTS, item_from_file, whizzy_item

WHIZZY_ARCHIVE = "category/linux/index.html"


def _clustered(pipeline: ClusterPipeline, item: PageItem) -> PageItem:
    return pipeline.process_item(item)


def _docs_item(name: str) -> PageItem:
    return item_from_file(PYTHON_DOCS / name, f"http://127.0.0.1:8001/{name}")


def test_two_whizzy_posts_share_a_cluster(shared_dir: Path) -> None:
    pipeline = ClusterPipeline(SiteConfigs())
    first, second = (_clustered(pipeline, whizzy_item(shared_dir, post)) for post in WHIZZY_POSTS)
    assert first.cluster == second.cluster
    assert len(first.cluster) == 16


def test_a_post_and_an_archive_page_of_one_site_are_two_templates(shared_dir: Path) -> None:
    pipeline = ClusterPipeline(SiteConfigs())
    post = _clustered(pipeline, whizzy_item(shared_dir, WHIZZY_POSTS[0]))
    archive = _clustered(pipeline, whizzy_item(shared_dir, WHIZZY_ARCHIVE))
    assert post.site == archive.site
    assert post.cluster != archive.cluster


def test_two_python_docs_pages_share_a_cluster_apart_from_whizzy(shared_dir: Path) -> None:
    pipeline = ClusterPipeline(SiteConfigs())
    docs = [_clustered(pipeline, _docs_item(name)) for name in ("library/os.html", "library/json.html")]
    assert docs[0].cluster == docs[1].cluster
    post = _clustered(pipeline, whizzy_item(shared_dir, WHIZZY_POSTS[0]))
    assert post.cluster != docs[0].cluster


def test_site_is_host_and_port_of_the_final_url(shared_dir: Path) -> None:
    item = whizzy_item(shared_dir, WHIZZY_POSTS[0])
    item.final_url = "http://127.0.0.1:8000/moved/"
    assert _clustered(ClusterPipeline(SiteConfigs()), item).site == "127.0.0.1:8000"


def test_clusters_are_shared_through_the_database(shared_dir: Path, tmp_path: Path) -> None:
    # A second process (here: a second pipeline) finds the cluster the first one founded.
    url = f"sqlite:///{tmp_path / 'clusters.db'}"
    first, second = ClusterPipeline(SiteConfigs(), url), ClusterPipeline(SiteConfigs(), url)
    first.open_spider()
    second.open_spider()
    try:
        founded = _clustered(first, whizzy_item(shared_dir, WHIZZY_POSTS[0])).cluster
        assert _clustered(second, whizzy_item(shared_dir, WHIZZY_POSTS[1])).cluster == founded
    finally:
        first.close_spider()
        second.close_spider()


def test_cluster_enabled_false_switches_the_pipeline_off() -> None:
    with pytest.raises(NotConfigured):
        ClusterPipeline.from_crawler(get_crawler(settings_dict={"CLUSTER_ENABLED": "False"}))


def test_threshold_is_an_extraction_setting() -> None:
    crawler = get_crawler(settings_dict={"EXTRACTION_SITE_CLUSTER_THRESHOLD": "0.9"})
    assert ClusterPipeline.from_crawler(crawler).configs.of("a.example").site_cluster_threshold == 0.9
