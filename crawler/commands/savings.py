"""``scrapy savings``: what the store costs on disk, per site and per part, against what was fetched.

Reads the store in ``DATABASE_URL`` (``-s DATABASE_URL=...`` picks another; it must exist: a mistyped
path is an error, not a new empty store), and prints:
- per site (`index_savings`): pages, raw HTML bytes, visible text bytes, clean text bytes and the bytes on
  disk its rows take, with the ratios to the HTML and to the visible text, then a total row;
- the store by part (`store_size`): clean text, page structure and hashes, search index, model state, crawl
  state, schema, free pages; their sum against the file or database on disk, and what an empty store takes.

``--baseline URL`` adds a store of the same crawl that holds every page's visible text in one row with the
same full-text index (written by a crawl with ``BASELINE_DATABASE_URL``), and ``--plot FILE`` writes an SVG
chart of the bytes per site: raw HTML, baseline store, cleancrawl's store split by part.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, ClassVar

from scrapy.exceptions import UsageError
from sqlalchemy.exc import SQLAlchemyError

from crawler.addon import apply_defaults
from crawler.command_base import ProjectCommand
from crawler.report import render_report, write_plot
from pipelines.storage.baseline import baseline_size
from pipelines.storage.db import StoreError, describe
from pipelines.storage.sizes import savings_report


class Command(ProjectCommand):
    """Print what the store costs on disk, per site and per part, against the HTML fetched."""

    usage = "[--baseline URL] [--plot FILE.svg]"
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """Scrapy's options, and the baseline store and the plot."""
        super().add_options(parser)
        parser.add_argument("--baseline", metavar="URL", default="", help="the baseline store of the crawl")
        parser.add_argument("--plot", metavar="FILE", default="", help="write an SVG chart of the sizes")

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """Scrapy's options (``-s``), over cleancrawl's defaults (a command runs without add-ons)."""
        assert self.settings is not None
        apply_defaults(self.settings)
        super().process_options(args, opts)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Measure the store (and the baseline), print the report, write the plot."""
        if args:
            raise UsageError("savings takes no arguments")
        assert self.settings is not None
        url = self.settings.get("DATABASE_URL")
        if not url:
            raise UsageError("DATABASE_URL is empty: there is no store to report on")
        plot = Path(opts.plot) if opts.plot else None
        if plot is not None and not plot.parent.is_dir():
            raise UsageError(f"cannot write the plot to {plot}: no such directory: {plot.parent}")
        try:
            report = savings_report(url)
            baseline = baseline_size(opts.baseline) if opts.baseline else None
        except (StoreError, SQLAlchemyError) as error:
            raise UsageError(str(error) if isinstance(error, StoreError) else describe(error)) from error
        print(render_report(report, baseline))
        if plot is not None:
            try:
                write_plot(plot, report, baseline)
            except OSError as error:
                raise UsageError(f"cannot write the plot to {plot}: {error.strerror}") from error
            print(f"\nPlot written to {plot}")
