"""``scrapy crawl``: Scrapy's own command, with the crawl's configuration checked before it starts.

A setting that names nothing or holds a bad value (``EXTRACTION_*``, ``RECRAWL_*``), and a store whose
crawl lock another crawl holds (``CRAWL_LOCK``), end the command with one line on stderr and exit code 2,
before any request, instead of a traceback from inside Scrapy's start-up.
"""

from __future__ import annotations

import argparse
import sys

from scrapy.commands.crawl import Command as ScrapyCrawl

from crawler.addon import apply_defaults
from pipelines.config import ExtractionSettingError
from pipelines.context import check_settings
from pipelines.lock import CrawlLockHeldError


class Command(ScrapyCrawl):
    """Run a spider of the project, its configuration checked first."""

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """Scrapy's options over cleancrawl's defaults (the add-on sets them again when the crawl starts)."""
        assert self.settings is not None
        apply_defaults(self.settings)
        super().process_options(args, opts)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Check the settings and the store's lock, then crawl as Scrapy does."""
        assert self.settings is not None
        try:
            check_settings(self.settings)
        except (ExtractionSettingError, CrawlLockHeldError, ValueError) as error:
            print(f"scrapy crawl: {error}", file=sys.stderr)
            self.exitcode = 2
            return
        super().run(args, opts)
