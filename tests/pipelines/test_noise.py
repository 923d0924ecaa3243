"""NoisePipeline: site models revise labels; without them noise text is cleared; hash, stats, drops."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured

from extraction import Rule, text_hash
from pipelines.noise import NoisePipeline
from records import BlockRecord, PageRecord, stats
from tests.addon import addon_crawler
from tests.pipelines.pages import WHIZZY_POSTS, whizzy_item, whizzy_post_files


@pytest.fixture
def crawler() -> Crawler:
    """A crawler with site models off: labels stay single-page and noise text is cleared here."""
    return addon_crawler({"SITE_MODELS_ENABLED": "False"})


def _pipeline(crawler: Crawler) -> NoisePipeline:
    return NoisePipeline.from_crawler(crawler)


def test_noise_text_is_cleared_and_content_kept(shared_dir: Path, crawler: Crawler) -> None:
    item = whizzy_item(shared_dir, WHIZZY_POSTS[0])
    before = [(block.label, block.text, block.hash) for block in item.blocks]
    assert {label for label, _, _ in before} == {"content", "noise"}
    _pipeline(crawler).process_item(item)
    for (label, text, digest), block in zip(before, item.blocks, strict=True):
        assert block.text == (text if label == "content" else "")
        assert block.hash == digest  # the hash of the noise text stays: it feeds the template model
    assert "Great success!" in item.content_text
    assert "On code and gadgets." not in item.content_text


def test_content_hash_is_the_hash_of_the_content_text(shared_dir: Path, crawler: Crawler) -> None:
    item = _pipeline(crawler).process_item(whizzy_item(shared_dir, WHIZZY_POSTS[0]))
    assert item.content_hash == text_hash(item.content_text)
    other = _pipeline(crawler).process_item(whizzy_item(shared_dir, WHIZZY_POSTS[1]))
    assert other.content_hash != item.content_hash


def test_stats_count_blocks_and_bytes(shared_dir: Path, crawler: Crawler) -> None:
    pipeline = _pipeline(crawler)
    items = [pipeline.process_item(whizzy_item(shared_dir, post)) for post in WHIZZY_POSTS]
    values = crawler.stats.get_stats()
    blocks = [block for item in items for block in item.blocks]
    assert values[stats.PAGES_KEPT] == 2
    assert values[stats.BLOCKS_CONTENT] == sum(block.label == "content" for block in blocks)
    assert values[stats.BLOCKS_NOISE] == sum(block.label == "noise" for block in blocks)
    assert values[stats.BYTES_HTML] == sum(item.raw_html_bytes for item in items)
    assert values[stats.BYTES_VISIBLE] == sum(item.visible_text_bytes for item in items)
    assert values[stats.BYTES_CONTENT] == sum(len(item.content_text.encode()) for item in items)
    assert values[stats.BYTES_CONTENT] < values[stats.BYTES_VISIBLE] < values[stats.BYTES_HTML]


def _item(blocks: list[BlockRecord]) -> PageRecord:
    return PageRecord(
        url="http://a.example/",
        site="a.example",
        status=200,
        fetched_at=datetime.now(UTC),
        title="",
        encoding="utf-8",
        raw_html_bytes=100,
        visible_text_bytes=10,
        blocks=blocks,
    )


def test_a_page_of_noise_only_is_kept_for_the_template_model(crawler: Crawler) -> None:
    block = BlockRecord(0, text_hash("Menu"), "noise", "link list", "body/nav", "list_item", "Menu")
    item = _pipeline(crawler).process_item(_item([block]))
    assert item.blocks[0].text == ""
    assert item.content_text == ""
    assert item.content_hash == text_hash("")


def test_site_models_revise_pages_once_the_cluster_is_ready(shared_dir: Path) -> None:
    crawler = addon_crawler({"EXTRACTION_SITE_MIN_PAGES": "5"})
    pipeline = NoisePipeline.from_crawler(crawler)
    items = []
    for post in whizzy_post_files(shared_dir, 6):
        item = whizzy_item(shared_dir, post)
        item.site, item.cluster = "127.0.0.1:8000", "posts"
        items.append(pipeline.process_item(item))
    assert [item.model_pages for item in items] == [1, 2, 3, 4, 5, 6]
    first, last = items[0], items[-1]
    # Before the model is ready the single-page labels stand, and noise keeps its text for re-cleaning.
    assert all(block.label == block.page_label for block in first.blocks)
    assert any(block.label == "noise" and block.text for block in first.blocks)
    # Once ready: the headline is content, the footer line repeated on every post is not.
    headline = next(block for block in last.blocks if block.tag == "h1")
    assert (headline.page_label, headline.label) == ("noise", "content")
    assert headline.rule == Rule.HEADLINE
    assert not any("Comments have moved" in block.text for block in last.blocks if block.label == "content")


def test_a_page_without_blocks_is_dropped_with_a_reason(crawler: Crawler) -> None:
    with pytest.raises(DropItem, match="no informative content"):
        _pipeline(crawler).process_item(_item([]))
    assert crawler.stats.get_value(stats.skipped("no_blocks")) == 1
    assert crawler.stats.get_value(stats.PAGES_KEPT) is None


def test_noise_enabled_false_switches_the_pipeline_off() -> None:
    with pytest.raises(NotConfigured):
        NoisePipeline.from_crawler(addon_crawler({"NOISE_ENABLED": False}))
