"""``scrapy search "terms"``: the stored pages whose clean text holds every word, best first.

Reads the store in ``DATABASE_URL`` (``-s DATABASE_URL=...`` picks another; it must exist). Prints one
hit per line: rank, BM25 score, URL and title, then the page's best-matching block with the words found in
brackets. ``-a site=HOST`` keeps the pages of one site, ``-a limit=N`` prints at most N (default 10).

Only clean text is indexed: a phrase of a site's template (a menu label, a footer line) finds nothing.
The same search in SQL is in docs/sql.md.
"""

from __future__ import annotations

import argparse
from typing import Any, ClassVar

from scrapy.exceptions import UsageError
from scrapy.utils.conf import arglist_to_dict
from sqlalchemy.exc import SQLAlchemyError

from crawler.addon import apply_defaults
from crawler.command_base import ProjectCommand
from pipelines.storage.db import StoreError, describe, existing_engine, session_factory
from pipelines.storage.search import Hit, search

_DEFAULT_LIMIT = 10


class Command(ProjectCommand):
    """Search the clean text of the stored pages."""

    usage = '"terms" [-a site=HOST] [-a limit=N]'
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """Scrapy's options, and -a NAME=VALUE for the site and the number of hits."""
        super().add_options(parser)
        parser.add_argument(
            "-a",
            dest="search_args",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="site=HOST, limit=N",
        )

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """Scrapy's options (``-s``), over cleancrawl's defaults (a command runs without add-ons)."""
        assert self.settings is not None
        apply_defaults(self.settings)
        super().process_options(args, opts)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Search and print the hits."""
        if len(args) != 1 or not args[0].strip():
            raise UsageError('search takes one argument: the words to look for, quoted ("...")')
        site, limit = _arguments(opts.search_args)
        assert self.settings is not None
        url = self.settings.get("DATABASE_URL")
        if not url:
            raise UsageError("DATABASE_URL is empty: there is no store to search")
        try:
            engine = existing_engine(url)
        except StoreError as error:
            raise UsageError(str(error)) from error
        try:
            with session_factory(engine)() as session:
                hits = search(session, args[0], site=site, limit=limit)
        except SQLAlchemyError as error:
            raise UsageError(describe(error)) from error
        finally:
            engine.dispose()
        print(render_hits(args[0], hits))


def _arguments(pairs: list[str]) -> tuple[str, int]:
    """The site and the limit from -a NAME=VALUE pairs; a bad one is a usage error."""
    try:
        values = arglist_to_dict(pairs)
    except ValueError:
        raise UsageError("-a takes NAME=VALUE, for example -a site=example.com") from None
    unknown = sorted(set(values) - {"site", "limit"})
    if unknown:
        raise UsageError(f"unknown argument {unknown[0]!r}: search takes -a site=HOST and -a limit=N")
    limit = values.get("limit", str(_DEFAULT_LIMIT))
    if not limit.isdigit() or int(limit) < 1:
        raise UsageError(f"limit must be a whole number above 0, not {limit!r}")
    return values.get("site", ""), int(limit)


def render_hits(terms: str, hits: list[Hit]) -> str:
    """The hits as text: one line per page, its best block under it."""
    if not hits:
        return f"No stored page holds every word of {terms!r}."
    lines = []
    for rank, hit in enumerate(hits, start=1):
        lines.append(f"{rank:>3}. {hit.score:6.2f}  {hit.url}  {hit.title}")
        lines.append(f"     {hit.snippet}")
    return "\n".join(lines)
