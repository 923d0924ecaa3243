"""Run `scrapy crawl site` in a subprocess (a fresh Twisted reactor each time) and read back its stats."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict, Unpack

from tests.crawler.pages import article
from tests.servers import page, serve_routes

REPO_ROOT = Path(__file__).resolve().parent.parent

# Local servers: no politeness delays, enough concurrency to finish fast.
FAST_SETTINGS = {
    "AUTOTHROTTLE_ENABLED": "False",
    "DOWNLOAD_DELAY": "0",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
    "LOG_LEVEL": "INFO",
}


@dataclass(slots=True)
class CrawlRun:
    """The outcome of one crawl: exit code, log (stderr) and the final stats."""

    returncode: int
    log: str
    stats: dict[str, Any]

    def stat(self, key: str) -> int:
        """A counter from the stats, 0 when it was never incremented."""
        return int(self.stats.get(key, 0))


class CrawlOptions(TypedDict, total=False):
    """What a test crawl may set beyond its seeds: its database (default tmp_path/db.sqlite), spider
    arguments (-a) and extra settings (-s)."""

    database: Path
    args: dict[str, str]
    settings: dict[str, str]


def crawl_command(tmp_path: Path, seeds: str, **options: Unpack[CrawlOptions]) -> tuple[list[str], Path]:
    """The `scrapy crawl site` command of `run_crawl`, and the file its stats will be written to."""
    stats_path = tmp_path / f"stats-{len(list(tmp_path.glob('stats-*.json')))}.json"
    database = options.get("database") or tmp_path / "db.sqlite"
    every = {**FAST_SETTINGS, "DATABASE_URL": f"sqlite:///{database}", "STATS_JSON_PATH": str(stats_path)}
    every.update(options.get("settings", {}))
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"seeds={seeds}"]
    for name, value in options.get("args", {}).items():
        command += ["-a", f"{name}={value}"]
    for name, value in every.items():
        command += ["-s", f"{name}={value}"]
    return command, stats_path


def run_crawl(tmp_path: Path, seeds: str, timeout: float = 300, **options: Unpack[CrawlOptions]) -> CrawlRun:
    """Crawl `seeds` (see `CrawlOptions` for the database, -a arguments and extra -s settings)."""
    command, stats_path = crawl_command(tmp_path, seeds, **options)
    proc = subprocess.run(
        command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout, check=False
    )
    stats = json.loads(stats_path.read_text("utf-8")) if stats_path.exists() else {}
    return CrawlRun(proc.returncode, proc.stderr, stats)


def ok(run: CrawlRun) -> CrawlRun:
    """The run, once it is known to have exited with 0 (else its log's end is the failure)."""
    assert run.returncode == 0, run.log[-3000:]
    return run


def clean_texts(database: Path) -> dict[str, str]:
    """URL -> clean text of every page stored in the SQLite file `database`."""
    with sqlite3.connect(database) as connection:
        return dict(connection.execute("SELECT url, text FROM clean_pages").fetchall())


def refused_at_startup(tmp_path: Path, settings: dict[str, str]) -> str:
    """The log of a crawl that `settings` must stop at startup: it fails before requesting a page."""
    with serve_routes({"/": page(article("Home"))}) as site:
        run = run_crawl(tmp_path, f"{site.base}/", settings=settings)
    assert run.returncode != 0
    assert site.requested == []
    return run.log
