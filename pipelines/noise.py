"""`NoisePipeline`: settle each block's label, clear the text of noise blocks, and count what is kept.

Labels come from extraction for now (the next issue revises them with the cluster's learned template).
A page whose blocks are all noise is still passed on: its block hashes feed the template model. Only a
page without any block is dropped. Noise text is cleared here, so it never reaches storage.

Settings: ``NOISE_ENABLED`` (default True) switches the pipeline off.
"""

from __future__ import annotations

from typing import Self

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.statscollectors import StatsCollector

from crawler import stats
from crawler.items import PageItem
from extraction import Label, text_hash

_CONTENT = Label.CONTENT.value


class NoisePipeline:
    """Clear noise text, set `item.content_hash`, update the block and byte stats."""

    def __init__(self, stats_collector: StatsCollector) -> None:
        self.stats = stats_collector

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """NotConfigured when ``NOISE_ENABLED`` is false."""
        if not crawler.settings.getbool("NOISE_ENABLED", True):
            raise NotConfigured("NOISE_ENABLED is False")
        assert crawler.stats is not None
        return cls(crawler.stats)

    def process_item(self, item: PageItem) -> PageItem:
        """Drop a page with no blocks; otherwise clear noise text and count the page."""
        if not item.blocks:
            self.stats.inc_value(stats.skipped("no_blocks"))
            raise DropItem(f"no informative content: {item.final_url} has no block of visible text")
        content = 0
        for block in item.blocks:
            if block.label == _CONTENT:
                content += 1
            else:
                block.text = ""
        text = item.content_text
        item.content_hash = text_hash(text)
        self._count(item, content, len(text.encode("utf-8")))
        return item

    def _count(self, item: PageItem, content_blocks: int, content_bytes: int) -> None:
        self.stats.inc_value(stats.PAGES_KEPT)
        self.stats.inc_value(stats.BLOCKS_CONTENT, content_blocks)
        self.stats.inc_value(stats.BLOCKS_NOISE, len(item.blocks) - content_blocks)
        self.stats.inc_value(stats.BYTES_HTML, item.raw_html_bytes)
        self.stats.inc_value(stats.BYTES_VISIBLE, item.visible_text_bytes)
        self.stats.inc_value(stats.BYTES_CONTENT, content_bytes)
