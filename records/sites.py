"""A site is a host and a port: the one place a URL's site is read.

Scrapy's `allowed_domains` compares host names only, so two servers on one host but different ports would
be one site there. Here the port counts, except the scheme's default port, so that `http://example.org/`
and `http://example.org:80/` are one site.
"""

from __future__ import annotations

from urllib.parse import SplitResult, urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443}


def site_of(url: str) -> str:
    """The site of a URL: its lower-cased host, with `:port` when the port is not the scheme's default.

    A URL without a valid port is its host alone (the URL of a fetched page always has a valid one).
    """
    parts = urlsplit(url)
    try:
        port = _site_port(parts)
    except ValueError:
        port = None
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 address keeps its brackets, or its last group would read as the port
        host = f"[{host}]"
    return host if port is None else f"{host}:{port}"


def host_port(url: str) -> tuple[str, int | None]:
    """Host and port of a URL; port None when it is the scheme's default.

    Raises ValueError for a URL no request can be made for: a port out of range or not a number, a
    bracketed host that is no IP address.
    """
    parts = urlsplit(url)
    return (parts.hostname or "", _site_port(parts))


def _site_port(parts: SplitResult) -> int | None:
    """The URL's port, None when it is the scheme's default (raises ValueError when it is no valid port)."""
    port = parts.port
    return None if port == DEFAULT_PORTS.get(parts.scheme.lower()) else port
