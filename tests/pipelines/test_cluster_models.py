"""The crawl's cluster models: one registry per crawler, and when a model mirrors the stored pages."""

from __future__ import annotations

from pathlib import Path

from scrapy.utils.test import get_crawler

from pipelines.cluster_models import ClusterModel, CrawlModels
from tests.pipelines.pages import whizzy_item, whizzy_post_files


def test_the_pipelines_of_one_crawler_share_its_models() -> None:
    crawler, other = get_crawler(), get_crawler(settings_dict={"EXTRACTION_SITE_MIN_PAGES": 3})
    models = CrawlModels.of(crawler)
    assert CrawlModels.of(crawler) is models
    assert CrawlModels.of(other) is not models
    assert CrawlModels.of(other).cluster("a.example", "c1").model.config.site_min_pages == 3
    assert models.cluster("a.example", "c1") is models.cluster("a.example", "c1")
    assert models.get("a.example", "c2") is None


def _observed(shared_dir: Path, posts: list[str]) -> ClusterModel:
    learned = CrawlModels.of(get_crawler()).cluster("127.0.0.1:8000", "c1")
    for post in posts:
        item = whizzy_item(shared_dir, post)
        learned.observe(
            item.url, [record.single_page_block() for record in item.blocks], [r.key for r in item.blocks]
        )
    return learned


def test_a_model_mirrors_exactly_the_pages_it_observed(shared_dir: Path) -> None:
    posts = whizzy_post_files(shared_dir, 3)
    learned = _observed(shared_dir, posts)
    urls = {"http://127.0.0.1:8000/" + post.removesuffix("index.html") for post in posts}
    assert learned.model.pages == 3
    assert learned.mirrors(urls)
    assert not learned.mirrors(urls - {min(urls)})  # a page failed to store
    assert not learned.mirrors(urls | {"http://127.0.0.1:8000/stored-by-another-process/"})


def test_a_page_observed_twice_breaks_the_mirror(shared_dir: Path) -> None:
    posts = whizzy_post_files(shared_dir, 2)
    learned = _observed(shared_dir, [*posts, posts[0]])
    assert learned.model.pages == 3
    assert not learned.mirrors({"http://127.0.0.1:8000/" + post.removesuffix("index.html") for post in posts})
