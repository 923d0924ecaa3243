"""``scrapy savings``: what the store holds per site against the HTML and visible text that were fetched.

Reads the `index_savings` view of the database in ``DATABASE_URL`` (``-s DATABASE_URL=...`` picks another),
after bringing its schema up to date, and prints one row per site and a total row.
"""

from __future__ import annotations

import argparse
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawler.addon import apply_defaults
from pipelines.storage import SiteSavings, make_engine, migrate, savings_by_site, session_factory

HEADERS = (
    "site",
    "pages",
    "raw HTML bytes",
    "visible text bytes",
    "stored bytes",
    "stored/HTML",
    "stored/text",
)


class Command(ScrapyCommand):
    """Print the `index_savings` view as a table, one row per site plus a total."""

    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def short_desc(self) -> str:
        """One line for `scrapy -h`."""
        return "Print how much smaller the stored text is than the fetched HTML, per site"

    def long_desc(self) -> str:
        """The text of `scrapy savings -h`."""
        return (
            "Print the index_savings view of the database in DATABASE_URL: per site, pages, raw HTML bytes, "
            "visible text bytes, stored bytes (distinct informative block texts + 8 bytes per block hash "
            "row) and the ratios stored/HTML and stored/text, then a total row."
        )

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """Scrapy's options (``-s``), over cleancrawl's defaults (a command runs without add-ons)."""
        assert self.settings is not None
        apply_defaults(self.settings)
        super().process_options(args, opts)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Migrate the database, read the view, print the table."""
        if args:
            raise UsageError("savings takes no arguments")
        assert self.settings is not None
        url = self.settings.get("DATABASE_URL")
        if not url:
            raise UsageError("DATABASE_URL is empty: there is no store to report on")
        engine = make_engine(url)
        try:
            migrate(engine)
            with session_factory(engine)() as session:
                rows = savings_by_site(session)
        finally:
            engine.dispose()
        if not rows:
            print(f"No pages stored yet in {engine.url}: run a crawl first (scrapy crawl site -a seeds=...).")
            return
        print(format_table(rows))


def format_table(rows: list[SiteSavings]) -> str:
    """The rows and their total as an aligned text table (bytes with thousands separators, ratios in %)."""
    cells = [HEADERS, *(_cells(row) for row in rows), _cells(total(rows))]
    widths = [max(len(line[index]) for line in cells) for index in range(len(HEADERS))]
    lines = [_line(line, widths) for line in cells]
    rule = "-" * len(lines[0])
    return "\n".join([lines[0], rule, *lines[1:-1], rule, lines[-1]])


def total(rows: list[SiteSavings]) -> SiteSavings:
    """The sum of the sites' rows, ratios recomputed from the sums."""
    raw = sum(row.raw_html_bytes for row in rows)
    visible = sum(row.visible_text_bytes for row in rows)
    stored = sum(row.stored_bytes for row in rows)
    pages = sum(row.pages for row in rows)
    return SiteSavings("total", pages, raw, visible, stored, _ratio(stored, raw), _ratio(stored, visible))


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _cells(row: SiteSavings) -> tuple[str, ...]:
    return (
        row.site,
        f"{row.pages:,}",
        f"{row.raw_html_bytes:,}",
        f"{row.visible_text_bytes:,}",
        f"{row.stored_bytes:,}",
        _percent(row.stored_vs_html),
        _percent(row.stored_vs_text),
    )


def _percent(ratio: float | None) -> str:
    return "-" if ratio is None else f"{100 * ratio:.1f}%"


def _line(cells: tuple[str, ...], widths: list[int]) -> str:
    # The site name reads best left-aligned, the figures right-aligned.
    first, *rest = zip(cells, widths, strict=True)
    return "  ".join([first[0].ljust(first[1]), *(cell.rjust(width) for cell, width in rest)])
