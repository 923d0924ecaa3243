"""Running the `site` spider's callback outside a crawl, as a test meets it."""

from __future__ import annotations

import asyncio
from typing import Any

from scrapy.http import Response

from crawler.spiders.site import SiteSpider


def parsed(spider: SiteSpider, response: Response) -> list[Any]:
    """Everything the spider's (asynchronous) `parse_page` yields for `response`, in order."""

    async def outputs() -> list[Any]:
        return [output async for output in spider.parse_page(response)]

    return asyncio.run(outputs())
