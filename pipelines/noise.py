"""`NoisePipeline`: settle each block's label with its cluster's model, and count what is kept.

Each page is observed by the model of its cluster (`extraction.site_models.SiteModel`, one per site and
cluster in this process). The first pages of a new cluster keep their single-page labels; once the
model has seen ``EXTRACTION_SITE_MIN_PAGES`` pages it revises each new page before storage, and
`StoragePipeline` re-cleans the pages stored before, from the database, when the cluster matures and
when the crawl ends. With site models on, noise blocks keep their text up to storage, which forgets it
once the page is re-cleaned; with them off, noise text is cleared here and never reaches storage.

A page whose blocks are all noise is still passed on: its block hashes feed the template model. Only a
page without any block is dropped.

Settings: ``NOISE_ENABLED`` switches the pipeline off; ``SITE_MODELS_ENABLED`` the cross-page models.
They are part of the cleancrawl method: with another ``EXTRACTION_METHOD`` the method's labels stand, as
with site models off.
"""

from __future__ import annotations

import time
from typing import Self

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.statscollectors import StatsCollector

from extraction import Label, text_hash
from pipelines.cluster_models import ClusterModel, CrawlModels
from pipelines.context import CrawlContext
from records import PageRecord, stats
from records.pages import pages_only

_CONTENT, _NOISE = Label.CONTENT.value, Label.NOISE.value


class NoisePipeline:
    """Revise labels with the cluster's model, set `page.content_hash`, update the block and byte stats."""

    def __init__(self, stats_collector: StatsCollector, site_models: CrawlModels | None) -> None:
        self.stats = stats_collector
        self.site_models = site_models

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """NotConfigured when ``NOISE_ENABLED`` is false."""
        if not crawler.settings.getbool("NOISE_ENABLED"):
            raise NotConfigured("NOISE_ENABLED is False")
        assert crawler.stats is not None
        return cls(crawler.stats, CrawlContext.of(crawler).models)

    @pages_only
    def process_item(self, page: PageRecord) -> PageRecord:
        """Drop a page with no blocks; otherwise revise its labels, clear noise text and count the page."""
        if not page.blocks:
            self.stats.inc_value(stats.skipped("no_blocks"))
            why = page.reason or "the page has no visible text"
            raise DropItem(f"no informative content: {page.url}: {why}")
        if self.site_models is not None and page.cluster:
            self._revise(self.site_models.cluster(page.site, page.cluster), page)
        page.forget_extraction()
        content = sum(1 for block in page.blocks if block.label == _CONTENT)
        if self.site_models is None:
            for block in page.blocks:
                if block.label != _CONTENT:
                    block.text = ""
        text = page.content_text
        page.content_hash = text_hash(text)
        self._count(page, content, len(text.encode("utf-8")))
        return page

    def _revise(self, learned: ClusterModel, page: PageRecord) -> None:
        """Observe the page in its cluster's model; once the model is ready, relabel the page with it."""
        started = time.perf_counter()
        try:
            self._observe_and_revise(learned, page)
        finally:
            stats.add_seconds(self.stats, stats.SITE_MODEL_SECONDS, time.perf_counter() - started)

    def _observe_and_revise(self, learned: ClusterModel, page: PageRecord) -> None:
        blocks, keys = page.model_input()
        learned.observe(page.url, blocks, keys)
        model = learned.model
        page.model_pages = model.pages
        if not model.ready:
            return
        for record, decision in zip(page.blocks, model.revise(blocks, page.title, keys), strict=True):
            record.label = _CONTENT if decision.label is Label.CONTENT else _NOISE
            record.rule = int(decision.rule)

    def _count(self, page: PageRecord, content_blocks: int, content_bytes: int) -> None:
        self.stats.inc_value(stats.PAGES_KEPT)
        self.stats.inc_value(stats.BLOCKS_CONTENT, content_blocks)
        self.stats.inc_value(stats.BLOCKS_NOISE, len(page.blocks) - content_blocks)
        self.stats.inc_value(stats.BYTES_HTML, page.raw_html_bytes)
        self.stats.inc_value(stats.BYTES_VISIBLE, page.visible_text_bytes)
        self.stats.inc_value(stats.BYTES_CONTENT, content_bytes)
