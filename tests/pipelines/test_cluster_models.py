"""The crawl's cluster models: one set per crawl context, and when a model mirrors the stored pages."""

from __future__ import annotations

from pathlib import Path

from pipelines.cluster_models import ClusterModel, CrawlModels
from pipelines.config import CrawlConfig
from pipelines.noise import NoisePipeline
from pipelines.store import StoragePipeline
from tests.addon import addon_crawler
from tests.pipelines.pages import whizzy_item, whizzy_post_files


def test_the_pipelines_of_one_crawler_share_its_models(tmp_path: Path) -> None:
    settings = {"EXTRACTION_SITE_MIN_PAGES": 3, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"}
    crawler, other = addon_crawler(settings), addon_crawler(settings)
    models = NoisePipeline.from_crawler(crawler).site_models
    assert models is not None
    assert StoragePipeline.from_crawler(crawler).store.models is models  # type: ignore[attr-defined]
    assert NoisePipeline.from_crawler(other).site_models is not models
    assert models.cluster("a.example", "c1").model.config.min_pages == 3
    assert models.cluster("a.example", "c1") is models.cluster("a.example", "c1")
    assert models.get("a.example", "c2") is None


def _observed(shared_dir: Path, posts: list[str]) -> ClusterModel:
    learned = CrawlModels(CrawlConfig()).cluster("127.0.0.1:8000", "c1")
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


def test_a_page_observed_twice_counts_once_and_breaks_the_mirror(shared_dir: Path) -> None:
    posts = whizzy_post_files(shared_dir, 2)
    learned = _observed(shared_dir, [*posts, posts[0]])
    assert learned.model.pages == 2
    assert not learned.mirrors({"http://127.0.0.1:8000/" + post.removesuffix("index.html") for post in posts})
