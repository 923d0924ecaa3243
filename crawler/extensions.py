"""Crawl extensions: a progress line a person can follow, and the final stats as a JSON file.

Settings:
- ``PROGRESS_INTERVAL_PAGES`` (default 50): log a progress line every that many kept pages and once at
  the end; 0 switches `ProgressLog` off.
- ``STATS_JSON_PATH`` (default empty): write every Scrapy stat to this file when the spider closes,
  for scripts and tests that read the outcome of a crawl; empty switches `StatsJson` off.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from pathlib import Path
from typing import Any, Self

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.statscollectors import StatsCollector

from records import PageRecord, stats

logger = logging.getLogger(__name__)


class ProgressLog:
    """Log pages crawled, kept and skipped (by reason), blocks kept and dropped, and bytes saved so far."""

    def __init__(self, stats_collector: StatsCollector, interval: int) -> None:
        self.stats = stats_collector
        self.interval = interval
        self._kept = 0
        self._last = ""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """NotConfigured when ``PROGRESS_INTERVAL_PAGES`` is 0."""
        interval = crawler.settings.getint("PROGRESS_INTERVAL_PAGES")
        if interval <= 0:
            raise NotConfigured  # without a message: Scrapy would log a warning for a chosen setting
        assert crawler.stats is not None
        extension = cls(crawler.stats, interval)
        crawler.signals.connect(extension.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def item_scraped(self, item: Any) -> None:
        """Count a page that went through every pipeline; log every `interval` pages."""
        if not isinstance(item, PageRecord):
            return  # a request's outcome for the crawl state
        self._kept += 1
        if self._kept % self.interval == 0:
            self._log()

    def spider_closed(self) -> None:
        """The same line with the final figures (unless the last line already had them)."""
        self._log()

    def _log(self) -> None:
        line = progress_line(self.stats.get_stats())
        if line != self._last:
            logger.info(line)
            self._last = line


def progress_line(values: dict[str, Any]) -> str:
    """One line summing up the crawl so far from its stats."""
    skipped = {
        key.removeprefix(stats.SKIPPED_PREFIX): count
        for key, count in values.items()
        if key.startswith(stats.SKIPPED_PREFIX)
    }
    html = values.get(stats.BYTES_HTML, 0)
    content = values.get(stats.BYTES_CONTENT, 0)
    saved = 100 * (1 - content / html) if html else 0.0
    reasons = ", ".join(f"{reason} {count}" for reason, count in sorted(skipped.items()))
    return (
        f"Crawled {values.get(stats.PAGES_CRAWLED, 0)} pages: kept {values.get(stats.PAGES_KEPT, 0)}, "
        f"skipped {sum(skipped.values())}{f' ({reasons})' if reasons else ''}; "
        f"blocks {values.get(stats.BLOCKS_CONTENT, 0)} content, {values.get(stats.BLOCKS_NOISE, 0)} noise; "
        f"{_megabytes(html)} HTML, {_megabytes(values.get(stats.BYTES_VISIBLE, 0))} visible text, "
        f"{_megabytes(content)} content ({saved:.1f}% saved)"
    )


def _megabytes(count: int) -> str:
    return f"{count / 1_000_000:.2f} MB"


class StatsJson:
    """Write the crawl's stats to ``STATS_JSON_PATH`` when the spider closes."""

    def __init__(self, stats_collector: StatsCollector, path: Path) -> None:
        self.stats = stats_collector
        self.path = path

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """NotConfigured when ``STATS_JSON_PATH`` is unset (the default: no warning then)."""
        path = crawler.settings.get("STATS_JSON_PATH")
        if not path:
            raise NotConfigured
        assert crawler.stats is not None
        extension = cls(crawler.stats, Path(path))
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_closed(self, reason: str) -> None:
        """Dump the stats (datetimes as ISO 8601) with the reason the spider closed."""
        values = {**self.stats.get_stats(), "finish_reason": reason}
        self.path.write_text(json.dumps(values, default=_json_default, indent=1, sort_keys=True), "utf-8")


def _json_default(value: object) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    return repr(value)
