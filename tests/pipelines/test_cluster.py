"""ClusterPipeline: site of a page and its template signature."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from crawler.items import BlockRecord, PageItem
from pipelines.cluster import ClusterPipeline, template_signature
from tests.pipelines.pages import PYTHON_DOCS, WHIZZY_POSTS, item_from_file, whizzy_item


def _clustered(item: PageItem) -> PageItem:
    return ClusterPipeline().process_item(item)


def test_two_whizzy_posts_share_a_signature(shared_dir: Path) -> None:
    first, second = (_clustered(whizzy_item(shared_dir, post)) for post in WHIZZY_POSTS)
    assert first.cluster == second.cluster
    assert len(first.cluster) == 16


def test_a_whizzy_post_and_a_python_docs_page_differ(shared_dir: Path) -> None:
    post = _clustered(whizzy_item(shared_dir, WHIZZY_POSTS[0]))
    docs = _clustered(
        item_from_file(PYTHON_DOCS / "library" / "os.html", "http://127.0.0.1:8001/library/os.html")
    )
    assert post.cluster != docs.cluster


def test_two_python_docs_pages_share_a_signature() -> None:
    pages = [
        _clustered(item_from_file(PYTHON_DOCS / name, f"http://127.0.0.1:8001/{name}"))
        for name in ("library/os.html", "library/json.html")
    ]
    assert pages[0].cluster == pages[1].cluster


def test_site_is_host_and_port_of_the_final_url(shared_dir: Path) -> None:
    item = whizzy_item(shared_dir, WHIZZY_POSTS[0])
    item.final_url = "http://127.0.0.1:8000/moved/"
    assert _clustered(item).site == "127.0.0.1:8000"


def _block(path: str, text: str) -> BlockRecord:
    return BlockRecord(position=0, hash="", label="noise", reason="", path=path, kind="text", text=text)


def test_signature_ignores_text_depth_and_body_classes() -> None:
    layout = ["body.post-1/div.wrap/header/p", "body.post-1/div.wrap/main.m/article/div/p"]
    other_page = ["body.post-2.category-x/div.wrap/header/p", "body.post-2/div.wrap/main.m/article/div/ul/li"]
    assert template_signature(layout) == template_signature(other_page)
    assert template_signature(layout) != template_signature(["body/div.wrap/aside/p"])
    assert template_signature(layout) != template_signature(layout, depth=5)


def test_signature_is_deterministic_and_order_free() -> None:
    paths = ["body/div.a/p", "body/div.b/p", "body/div.a/ul/li"]
    assert template_signature(paths) == template_signature(reversed(paths))


def test_cluster_enabled_false_switches_the_pipeline_off() -> None:
    with pytest.raises(NotConfigured):
        ClusterPipeline.from_crawler(get_crawler(settings_dict={"CLUSTER_ENABLED": "False"}))


def test_path_depth_is_a_setting() -> None:
    pipeline = ClusterPipeline.from_crawler(get_crawler(settings_dict={"CLUSTER_PATH_DEPTH": "2"}))
    assert pipeline.depth == 2
    with pytest.raises(ValueError, match="CLUSTER_PATH_DEPTH"):
        ClusterPipeline.from_crawler(get_crawler(settings_dict={"CLUSTER_PATH_DEPTH": "0"}))
