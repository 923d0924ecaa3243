"""A site is a host and a port: the one place a URL's site is read.

Scrapy's `allowed_domains` compares host names only, so two servers on one host but different ports would
be one site there. Here the port counts, except the scheme's default port, so that `http://example.org/`
and `http://example.org:80/` are one site.
"""

from __future__ import annotations

from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443}


def site_of(url: str) -> str:
    """The site of a URL: its lower-cased host, with `:port` when the port is not the scheme's default."""
    host, port = host_port(url)
    if ":" in host:  # an IPv6 address keeps its brackets, or its last group would read as the port
        host = f"[{host}]"
    return host if port is None else f"{host}:{port}"


def host_port(url: str) -> tuple[str, int | None]:
    """Host and port of a URL; port None when it is the scheme's default (or the URL has no valid port)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    if port == DEFAULT_PORTS.get(parts.scheme.lower()):
        port = None
    return (parts.hostname or "", port)
