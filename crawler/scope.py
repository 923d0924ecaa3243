"""The crawl's scope: seeds and the sites (host[:port], `records.sites`) they allow.

A site is a host and a port. Scrapy's `allowed_domains` compares host names only (and admits
subdomains), so two servers on one host but different ports would count as one site there. The spider
checks `Scope.allows` before it builds a request, and `crawler.middlewares.ScopeOffsiteMiddleware` (in
place of Scrapy's offsite middleware) applies the same scope to redirects; `allowed_domains` is set to
the seeds' host names for anything that still reads it.

A seed on its scheme's default port (http://example.org/) allows both default ports, 80 and 443, so a
site that moves from http to https stays in scope; a seed with an explicit other port allows that port.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from extraction.links import normalise_url
from records.sites import host_port, site_of


class SeedError(ValueError):
    """A seed is not an absolute http(s) URL, or no seed was given."""


def parse_seeds(seeds: str | None = None, seeds_file: str | Path | None = None) -> list[str]:
    """Normalised seed URLs from a comma-separated list and/or a file of one URL a line, in order, once each.

    Blank lines and lines starting with `#` in the file are ignored. Raises `SeedError` for a value that
    is not an absolute http(s) URL, or when neither source yields a seed.
    """
    raw = [part for part in (seeds or "").split(",") if part.strip()]
    if seeds_file:
        raw.extend(_file_lines(Path(seeds_file)))
    urls: dict[str, None] = {}
    for value in raw:
        url = normalise_url(value)
        if url is None:
            raise SeedError(f"seed {value.strip()!r} is not an absolute http(s) URL")
        urls.setdefault(url)
    if not urls:
        raise SeedError("no seed URL given: pass -a seeds=URL[,URL...] or -a seeds_file=PATH")
    return list(urls)


def _file_lines(path: Path) -> list[str]:
    """The non-blank, non-comment lines of a seeds file."""
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


class Scope:
    """The sites a crawl may visit: the host:port pairs of its seeds, over http and https only."""

    def __init__(self, seeds: Iterable[str]) -> None:
        seeds = list(seeds)
        self._sites = frozenset(host_port(url) for url in seeds)
        # The same sites as the store names them (`records.sites.site_of`).
        self.sites = frozenset(site_of(url) for url in seeds)

    @property
    def hostnames(self) -> list[str]:
        """The seeds' host names, sorted: the spider's `allowed_domains`."""
        return sorted({host for host, _ in self._sites})

    def allows(self, url: str) -> bool:
        """True when `url` is a valid http(s) URL on one of the seeds' sites."""
        if not url[:8].lower().startswith(("http://", "https://")):
            return False
        try:
            return host_port(url) in self._sites
        except ValueError:
            # A port out of range, a bracketed host that is no IP address: no request could fetch it.
            return False
