"""The progress line and the stats file of a crawl."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from crawler.extensions import ProgressLog, StatsJson, progress_line
from records import stats


def test_progress_line_sums_up_pages_blocks_and_bytes() -> None:
    values = {
        stats.PAGES_CRAWLED: 120,
        stats.PAGES_KEPT: 100,
        stats.skipped("http_404"): 3,
        stats.skipped("not_html"): 2,
        stats.BLOCKS_CONTENT: 900,
        stats.BLOCKS_NOISE: 2100,
        stats.BYTES_HTML: 4_000_000,
        stats.BYTES_VISIBLE: 1_000_000,
        stats.BYTES_CONTENT: 400_000,
    }
    assert progress_line(values) == (
        "Crawled 120 pages: kept 100, skipped 5 (http_404 3, not_html 2); blocks 900 content, 2100 noise; "
        "4.00 MB HTML, 1.00 MB visible text, 0.40 MB content (90.0% saved)"
    )


def test_progress_line_at_the_start() -> None:
    assert progress_line({}).startswith("Crawled 0 pages: kept 0, skipped 0; blocks 0 content")


def test_the_extensions_switch_off_by_setting() -> None:
    with pytest.raises(NotConfigured):
        ProgressLog.from_crawler(get_crawler(settings_dict={"PROGRESS_INTERVAL_PAGES": 0}))
    with pytest.raises(NotConfigured):
        StatsJson.from_crawler(get_crawler(settings_dict={"STATS_JSON_PATH": ""}))


def test_stats_json_writes_every_stat_and_the_finish_reason(tmp_path: Path) -> None:
    crawler = get_crawler(settings_dict={"STATS_JSON_PATH": str(tmp_path / "stats.json")})
    extension = StatsJson.from_crawler(crawler)
    crawler.stats.set_value(stats.PAGES_KEPT, 7)
    crawler.stats.set_value("start_time", datetime(2026, 1, 2, 3, 4, 5))
    extension.spider_closed("finished")
    written = json.loads((tmp_path / "stats.json").read_text())
    assert written == {stats.PAGES_KEPT: 7, "start_time": "2026-01-02T03:04:05", "finish_reason": "finished"}
