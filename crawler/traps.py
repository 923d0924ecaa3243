"""Guards against crawler traps: URL spaces a site can make endless (calendars, session ids and sort orders in
query strings, relative links that nest a path in itself), counted per site.

A URL is refused by the first guard it would break, and the guard's name is the reason:

- ``site_pages``: the site has had ``TRAP_MAX_PAGES_PER_SITE`` URLs scheduled;
- ``query_variants``: its path has had ``TRAP_MAX_QUERY_VARIANTS`` URLs with other query strings;
- ``path_pattern``: its path with every run of digits masked (``/day/#``, ``/#/#/#/``) has had
  ``TRAP_MAX_PATTERN_URLS`` URLs (calendars, endless numbered pages);
- ``repeated_segment``: one segment of its path occurs more than ``TRAP_MAX_SEGMENT_REPEATS`` times
  (``/a/b/a/b/a/b/a/``: a relative link resolved against itself).

The counts start from what the crawl state knows, so a recrawl goes on from the same counts and a trap
stays shut across crawls. A guard set to 0 is off.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import astuple, dataclass
from typing import Self
from urllib.parse import urlsplit

from scrapy.settings import BaseSettings

from records.sites import site_of

_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class TrapLimits:
    """How many URLs each guard admits (0: no limit)."""

    site_pages: int = 0
    query_variants: int = 0
    path_pattern: int = 0
    repeated_segment: int = 0

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> Self:
        """The ``TRAP_*`` settings; a negative value is an error."""
        limits = cls(
            site_pages=settings.getint("TRAP_MAX_PAGES_PER_SITE"),
            query_variants=settings.getint("TRAP_MAX_QUERY_VARIANTS"),
            path_pattern=settings.getint("TRAP_MAX_PATTERN_URLS"),
            repeated_segment=settings.getint("TRAP_MAX_SEGMENT_REPEATS"),
        )
        if min(astuple(limits)) < 0:
            raise ValueError(f"TRAP_* settings must not be negative: {limits}")
        return limits


class TrapGuards:
    """Count the URLs a crawl schedules by site, path and path pattern; refuse those past a limit."""

    def __init__(self, limits: TrapLimits) -> None:
        self.limits = limits
        self._sites: Counter[str] = Counter()
        self._paths: Counter[str] = Counter()
        self._patterns: Counter[str] = Counter()

    def count(self, urls: Iterable[str]) -> None:
        """Count URLs scheduled before (the crawl state's), refusing none."""
        for url in urls:
            site, path, pattern, _ = _keys(url)
            self._add(site, path, pattern)

    def refusal(self, url: str) -> str | None:
        """The guard that refuses `url`, or None; an admitted URL is counted."""
        site, path, pattern, segments = _keys(url)
        limits = self.limits
        if limits.repeated_segment and _most_repeated(segments) > limits.repeated_segment:
            return "repeated_segment"
        if limits.site_pages and self._sites[site] >= limits.site_pages:
            return "site_pages"
        if limits.query_variants and path != url and self._paths[path] >= limits.query_variants:
            return "query_variants"
        if limits.path_pattern and self._patterns[pattern] >= limits.path_pattern:
            return "path_pattern"
        self._add(site, path, pattern)
        return None

    def _add(self, site: str, path: str, pattern: str) -> None:
        self._sites[site] += 1
        self._paths[path] += 1
        self._patterns[pattern] += 1


def _keys(url: str) -> tuple[str, str, str, list[str]]:
    """A URL's site, its URL less the query string, that with digits masked, and its path's segments."""
    parts = urlsplit(url)
    path = url.partition("?")[0]
    segments = [segment for segment in parts.path.split("/") if segment]
    return site_of(url), path, _DIGITS.sub("#", path), segments


def _most_repeated(segments: list[str]) -> int:
    return max(Counter(segments).values(), default=0)
