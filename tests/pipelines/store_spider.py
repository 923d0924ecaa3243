"""A spider for `scrapy runspider` that yields the fixture pages as items, so `StoragePipeline` runs in a
real crawl (Scrapy's default asyncio reactor, its own pipeline calls) without network access. The test
enables the pipeline with ``-s ITEM_PIPELINES=...``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import scrapy
from scrapy.http import Request, Response

from records import PageRecord
from tests.pipelines.items import fixture_items

FIXTURES_DIR = Path(__file__).resolve().parent.parent / "fixtures"


class FixtureSpider(scrapy.Spider):
    """Yield the four fixture pages as `PageRecord`s from one `data:` response."""

    name = "fixtures"

    async def start(self) -> AsyncIterator[Request]:
        """One request that needs no network."""
        yield Request("data:,start", callback=self.parse)

    def parse(self, response: Response) -> Iterator[PageRecord]:
        """The fixture pages, whatever the response."""
        yield from fixture_items(FIXTURES_DIR)
