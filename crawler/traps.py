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
from dataclasses import dataclass
from urllib.parse import urlsplit

from extraction.compact import PageCounts
from records.seen import url_key
from records.sites import site_of

_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class TrapLimits:
    """How many URLs each guard admits (0: no limit): the ``TRAP_*`` settings, read by
    `crawler.checks.settings_group`."""

    max_pages_per_site: int = 0
    max_query_variants: int = 0
    max_pattern_urls: int = 0
    max_segment_repeats: int = 0


class TrapGuards:
    """Count the URLs a crawl schedules by site, path and path pattern; refuse those past a limit."""

    def __init__(self, limits: TrapLimits) -> None:
        self.limits = limits
        self._sites: Counter[str] = Counter()
        # Nearly every path and pattern is met once (an article's URL): counted by 64-bit key, 12 bytes each.
        self._paths = PageCounts()
        self._patterns = PageCounts()

    def count(self, urls: Iterable[str]) -> None:
        """Count URLs scheduled before (the crawl state's), refusing none."""
        for url in urls:
            site, path, pattern, _ = _keys(url)
            self._add(site, path, pattern)

    def refusal(self, url: str) -> str | None:
        """The guard that refuses `url`, or None; an admitted URL is counted."""
        site, path, pattern, segments = _keys(url)
        limits = self.limits
        if limits.max_segment_repeats and _most_repeated(segments) > limits.max_segment_repeats:
            return "repeated_segment"
        if limits.max_pages_per_site and self._sites[site] >= limits.max_pages_per_site:
            return "site_pages"
        if (
            limits.max_query_variants
            and path != url
            and self._paths.count(url_key(path)) >= limits.max_query_variants
        ):
            return "query_variants"
        if limits.max_pattern_urls and self._patterns.count(url_key(pattern)) >= limits.max_pattern_urls:
            return "path_pattern"
        self._add(site, path, pattern)
        return None

    def _add(self, site: str, path: str, pattern: str) -> None:
        self._sites[site] += 1
        self._paths.add(url_key(path))
        self._patterns.add(url_key(pattern))


def _keys(url: str) -> tuple[str, str, str, list[str]]:
    """A URL's site, its URL less the query string, that with digits masked, and its path's segments."""
    parts = urlsplit(url)
    path = url.partition("?")[0]
    segments = [segment for segment in parts.path.split("/") if segment]
    return site_of(url), path, _DIGITS.sub("#", path), segments


def _most_repeated(segments: list[str]) -> int:
    return max(Counter(segments).values(), default=0)
