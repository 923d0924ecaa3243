"""Crawler objects as `scrapy crawl` makes them, with cleancrawl's add-on, for tests of its components."""

from __future__ import annotations

from typing import Any

from scrapy.crawler import Crawler
from scrapy.utils.test import get_crawler

from crawler.addon import CleancrawlAddon
from crawler.spiders.site import SiteSpider


def addon_crawler(settings: dict[str, Any] | None = None) -> Crawler:
    """A crawler of the `site` spider with the add-on applied and its extensions (the crawl context among
    them) built. No database unless `settings` names one: the default would be a file in the working
    directory."""
    return get_crawler(SiteSpider, {"ADDONS": {CleancrawlAddon: 0}, "DATABASE_URL": "", **(settings or {})})
