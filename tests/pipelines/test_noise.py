"""NoisePipeline: noise text cleared, content hash, stats, pages without blocks dropped."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.test import get_crawler

from crawler import stats
from crawler.items import BlockRecord, PageItem
from extraction import text_hash
from pipelines.noise import NoisePipeline
from tests.pipelines.pages import WHIZZY_POSTS, whizzy_item


@pytest.fixture
def crawler() -> Crawler:
    return get_crawler()


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


def _item(blocks: list[BlockRecord]) -> PageItem:
    return PageItem(
        url="http://a.example/",
        final_url="http://a.example/",
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


def test_a_page_without_blocks_is_dropped_with_a_reason(crawler: Crawler) -> None:
    with pytest.raises(DropItem, match="no informative content"):
        _pipeline(crawler).process_item(_item([]))
    assert crawler.stats.get_value(stats.skipped("no_blocks")) == 1
    assert crawler.stats.get_value(stats.PAGES_KEPT) is None


def test_noise_enabled_false_switches_the_pipeline_off() -> None:
    with pytest.raises(NotConfigured):
        NoisePipeline.from_crawler(get_crawler(settings_dict={"NOISE_ENABLED": False}))
