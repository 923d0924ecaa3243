"""``scrapy crawl``: Scrapy's own command, with the crawl's configuration checked before it starts.

A setting that names nothing, is misspelt in lower case or holds a bad value (cleancrawl's own settings,
``EXTRACTION_*``, ``RECRAWL_*``), a store that cannot be opened (a bad ``DATABASE_URL``, a directory that is
not there, a server that does not answer), and a store whose crawl lock another crawl holds
(``CRAWL_LOCK``), end the command with one line on stderr and exit code 2, before any request, instead of
a traceback from inside Scrapy's start-up (`crawler.commands._errors`).
"""

from __future__ import annotations

import argparse
import sys

from scrapy import Spider
from scrapy.commands.crawl import Command as ScrapyCrawl
from scrapy.crawler import Crawler
from scrapy.exceptions import UsageError
from scrapy.settings import Settings
from scrapy.spiderloader import get_spider_loader

from crawler.addon import apply_defaults
from crawler.checks import check_crawl_settings
from crawler.commands._errors import one_line_errors
from crawler.fleet import check_redis
from pipelines.context import check_settings
from pipelines.lock import CrawlLockHeldError
from pipelines.storage.db import StoreError
from records import stats


class Command(ScrapyCrawl):
    """Run a spider of the project, its configuration checked first (Scrapy's `run` crawls)."""

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """Scrapy's options; errors reported in one line."""
        super().add_options(parser)
        assert self.settings is not None
        one_line_errors(parser, "crawl", self.settings)

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """Scrapy's options over cleancrawl's defaults (the add-on sets them again when the crawl starts);
        then the checks, here so that an error is the only line (Scrapy logs its start-up before `run`)."""
        assert self.settings is not None
        apply_defaults(self.settings)
        super().process_options(args, opts)
        if len(args) > 1:
            raise UsageError("running 'scrapy crawl' with more than one spider is not supported")
        try:
            check_crawl_settings(self.settings)
            if args:
                check_spider_arguments(args[0], opts.spargs, self.settings)
            check_settings(self.settings)
            check_redis(self.settings.get("REDIS_URL") or "")
        except (StoreError, CrawlLockHeldError, ValueError) as error:
            raise UsageError(str(error)) from error

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Crawl as Scrapy does; exit code 1, with one line, when pages could not be stored, a re-clean
        failed after its retries or the spider raised (the log has the details)."""
        super().run(args, opts)
        crawler = getattr(self, "_crawler", None)
        values = crawler.stats.get_stats() if crawler is not None and crawler.stats is not None else {}
        failures = [
            f"{values[key]} {what}"
            for key, what in (
                (stats.PAGES_STORE_FAILED, "pages not stored"),
                (stats.RECLEAN_FAILED, "re-cleanings failed"),
            )
            if values.get(key)
        ]
        # An exception in the spider's callbacks is a bug, not bad input: Scrapy logs it and goes on.
        errors = sum(count for key, count in values.items() if key.startswith("spider_exceptions/"))
        if errors:
            failures.append(f"{errors} pages failed with an error in the spider")
        if failures:
            print(f"scrapy crawl: {', '.join(failures)}; see the log", file=sys.stderr)
            self.exitcode = 1

    def _create_crawler(self, spidercls: type[Spider] | str) -> Crawler:
        """Scrapy's crawler, kept to read its stats when the crawl ends."""
        self._crawler = super()._create_crawler(spidercls)
        return self._crawler


def check_spider_arguments(name: str, arguments: dict[str, str], settings: Settings) -> None:
    """Let the spider check its arguments before the crawl starts (a spider class's `check_arguments`,
    raising ValueError), so that a bad seed is one line, not a traceback from inside the start-up."""
    try:
        spider_class = get_spider_loader(settings).load(name)
    except KeyError:
        return  # Scrapy says so itself
    check = getattr(spider_class, "check_arguments", None)
    if check is not None:
        check(settings, **arguments)
