"""MethodPipeline: a site-level method learns each cluster from its pages and labels them; paper methods'
labels are not revised by cleancrawl's site models."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse

from crawler.spiders.site import page_record
from crawler.worker_process import extracted
from extraction import ExtractionResult, Rule, text_hash
from extraction.methods.base import SitePage
from extraction.methods.registry import METHODS, get_method
from pipelines.config import CrawlConfig, ExtractionSettingError
from pipelines.context import CrawlContext
from pipelines.method import MethodPipeline
from pipelines.noise import NoisePipeline
from records import PageRecord
from records.stats import (
    METHOD_LEARNINGS,
    METHOD_PAGES_LEARNED,
    METHOD_PAGES_RELABELLED,
    METHOD_PAGES_UNLEARNED,
)
from tests.addon import addon_crawler
from tests.pipelines.pages import whizzy_post_files

SITE = "127.0.0.1:8000"
SITE_LEVEL = [name for name, method in METHODS.items() if method.site_level]
# Learn at 3 pages, then at 6 and 12; 8 pages at most.
SMALL = {"EXTRACTION_SITE_MIN_PAGES": "3", "EXTRACTION_METHOD_LEARN_PAGES": "8"}


def _pipeline(method: str) -> MethodPipeline:
    return MethodPipeline.from_crawler(addon_crawler({"EXTRACTION_METHOD": method, **SMALL}))


def _posts(shared_dir: Path, config: CrawlConfig, count: int) -> list[PageRecord]:
    """Whizzy posts of one cluster as the spider yields them: extracted by the unlearned method, with HTML."""
    method = get_method(config.method, config.default.extraction, config.params)
    items = []
    for post in whizzy_post_files(shared_dir, count):
        url = f"http://{SITE}/" + post.removesuffix("index.html")
        body = (shared_dir / "sites" / "whizzy" / post).read_bytes()
        response = HtmlResponse(url, body=body, headers={"Content-Type": "text/html"}, request=Request(url))
        page = extracted(method, body, url, None, config.default.model.shape_max_chars, True)
        item = page_record(response, url, SITE, page, keep_html=method.site_level)
        item.cluster = "posts"
        items.append(item)
    return items


def _labels(item: PageRecord) -> list[tuple[str, int]]:
    return [(block.label, block.rule) for block in item.blocks]


def _expected(result: ExtractionResult) -> list[tuple[str, int]]:
    return [(block.label.value, int(block.rule)) for block in result.blocks]


@pytest.mark.parametrize("method", ["cleancrawl", "cetr", "kfe", "evbe"])
def test_single_page_methods_need_no_pipeline(method: str) -> None:
    with pytest.raises(NotConfigured):
        _pipeline(method)


def test_an_unknown_method_is_refused_with_the_list_of_methods() -> None:
    expected = "unknown method 'readability'; choose from cleancrawl, "
    with pytest.raises(ExtractionSettingError, match=expected):
        _pipeline("readability")


def test_learns_at_min_pages_then_each_time_the_cluster_doubles_up_to_the_cap(shared_dir: Path) -> None:
    pipeline = _pipeline("contentextractor")
    items = _posts(shared_dir, pipeline.config, 14)
    first, last_body = _labels(items[0]), items[-1].html
    unlearned = get_method("contentextractor", pipeline.config.default.extraction, pipeline.config.params)
    learned = []
    for item in items:
        pipeline.process_item(item)
        learned.append(pipeline.clusters[(SITE, "posts")].learned)
    assert learned == [0, 0, 3, 3, 3, 6, 6, 6, 6, 6, 6, 8, 8, 8]
    assert not pipeline.clusters[(SITE, "posts")].pending  # no HTML held once the cap is learned
    assert all(item.html == b"" for item in items)  # nor passed on to storage
    values = pipeline.stats.get_stats()
    assert (values[METHOD_LEARNINGS], values[METHOD_PAGES_LEARNED]) == (3, 8)
    assert (values[METHOD_PAGES_UNLEARNED], values[METHOD_PAGES_RELABELLED]) == (2, 12)
    # The first pages keep the unlearned method's labels (ContentExtractor alone falls back to K-FE);
    # later pages are labelled by the blocks' frequency in the cluster, which tells more blocks apart.
    assert _labels(items[0]) == first
    assert all(rule == Rule.METHOD for _, rule in first)
    assert _labels(items[-1]) != _expected(unlearned.extract(last_body, items[-1].url))


@pytest.mark.parametrize("name", SITE_LEVEL)
def test_a_page_is_labelled_as_by_the_method_learned_on_the_clusters_pages(
    shared_dir: Path, name: str
) -> None:
    pipeline = _pipeline(name)
    items = _posts(shared_dir, pipeline.config, 12)
    bodies = [item.html for item in items]
    for item in items:
        pipeline.process_item(item)
    # Learned in three steps (3, 3 and 2 pages): the same as learning the first 8 pages at once.
    method = get_method(name, pipeline.config.default.extraction, pipeline.config.params)
    method.learn([SitePage(body, item.url) for body, item in zip(bodies[:8], items, strict=False)])
    expected = method.extract(bodies[-1], items[-1].url)
    assert _labels(items[-1]) == _expected(expected)
    assert [block.text for block in items[-1].blocks] == [block.text for block in expected.blocks]


def test_noise_pipeline_keeps_a_paper_methods_labels_and_clears_noise_text(shared_dir: Path) -> None:
    crawler = addon_crawler({"EXTRACTION_METHOD": "cetr", **SMALL})
    noise = NoisePipeline.from_crawler(crawler)
    items = _posts(shared_dir, CrawlContext.of(crawler).config, 4)
    before = [_labels(item) for item in items]
    texts = [[block.text for block in item.blocks] for item in items]
    for item in items:
        noise.process_item(item)
    assert [_labels(item) for item in items] == before
    assert all(item.model_pages == 0 for item in items)
    for item, page_texts in zip(items, texts, strict=True):
        for block, text in zip(item.blocks, page_texts, strict=True):
            assert block.text == (text if block.label == "content" else "")
        assert item.content_hash == text_hash(item.content_text) != text_hash("")


@pytest.mark.parametrize(
    ("settings", "enabled"),
    [
        ({}, True),
        ({"EXTRACTION_METHOD": "cleancrawl"}, True),
        ({"SITE_MODELS_ENABLED": "False"}, False),
        ({"EXTRACTION_METHOD": "cetr"}, False),
        ({"EXTRACTION_METHOD": "styletree", "SITE_MODELS_ENABLED": "True"}, False),
    ],
)
def test_site_models_belong_to_the_cleancrawl_method(settings: dict[str, str], enabled: bool) -> None:
    assert CrawlContext.of(addon_crawler(settings)).site_models is enabled
