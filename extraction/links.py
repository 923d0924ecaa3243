"""Links of a page for the crawl: hrefs gathered during segmentation, resolved, normalised, deduplicated.

The crawler builds requests from these instead of running a link extractor over the response: the page
was parsed once already, and normalising here (fragments dropped, scheme and host lower-cased, only
http and https) lets it skip URLs it has seen before any request object exists.
"""

from __future__ import annotations

import re
from ipaddress import IPv6Address
from urllib.parse import urljoin, urlsplit

from lxml import etree

# libxml2's HTML parser roots every tree at <html> and drops a <head> anywhere but directly below it, so this
# is `//head/base/@href` without gathering every node of the page first (50 times faster).
_BASE_HREF = etree.XPath("string(/html/head/base/@href)")
# Only metas with an http-equiv reach the costly translate().
_REFRESH = etree.XPath(
    "string(/descendant::meta[@http-equiv][translate(@http-equiv, 'REFSH', 'refsh')='refresh']/@content)"
)
# The page's `<link rel="canonical">` (rel is a list of tokens, matched without case).
_CANONICAL = etree.XPath(
    "string(/descendant::link[contains("
    "concat(' ', translate(normalize-space(@rel), 'CANOIL', 'canoil'), ' '), ' canonical ')"
    "][@href][1]/@href)"
)
# "5; url=/next", "0;URL='/next'", "0, /next": a delay, a separator, then the target.
_REFRESH_URL = re.compile(r"""^\s*\d+(?:\.\d*)?\s*[;,]\s*(?:url\s*=\s*)?["']?([^"'\s]+)""", re.IGNORECASE)
_FOLLOWED_SCHEMES = frozenset({"http", "https"})
_ABSOLUTE = ("http://", "https://")
# scheme, authority, then path and query up to the fragment.
_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)([^#]*)")
# An authority without these is a plain host name: only one with them needs a closer look.
_AUTHORITY_MARKS = re.compile(r"[:\[\]\\]|[^\x00-\x7f]")
_MAX_PORT = 65535


def base_url(root: etree._Element, url: str | None) -> str | None:
    """The URL relative links resolve against: `<base href>` when the page sets one, else its own URL.

    A `<base href>` that is no usable URL (an unclosed IPv6 bracket, a port out of range) is ignored, as a
    browser ignores it: the page's links resolve against the page's own URL.
    """
    base = str(_BASE_HREF(root)).strip()
    if not base:
        return url
    try:
        joined = urljoin(url, base) if url else base
    except ValueError:
        return url
    match = _URL.match(joined)
    if match is not None and not _valid_authority(match.group(2)):
        return url
    return joined


def refresh_target(root: etree._Element, base: str | None) -> str | None:
    """The target of a `<meta http-equiv="refresh">` redirect, resolved, or None."""
    match = _REFRESH_URL.match(str(_REFRESH(root)))
    return normalise_url(match.group(1), base) if match else None


def canonical_target(root: etree._Element, base: str | None) -> str | None:
    """The URL the page names as its canonical one (`<link rel="canonical">`), resolved, or None."""
    href = str(_CANONICAL(root))
    return normalise_url(href, base) if href else None


def resolve_links(hrefs: list[str], base: str | None) -> list[str]:
    """Absolute, normalised http(s) URLs of the hrefs, each once, in page order."""
    seen: dict[str, None] = {}
    # Menus repeat the same hrefs on every page; resolve each distinct one once.
    for href in dict.fromkeys(hrefs):
        url = normalise_url(href, base)
        if url is not None:
            seen.setdefault(url)
    return list(seen)


def normalise_url(href: str, base: str | None = None) -> str | None:
    """Resolve `href` against `base`; lower-case scheme and host, drop the fragment; None if not http(s).

    A crawl resolves about a hundred hrefs a page, so the common shapes skip `urljoin` and the URL is
    taken apart once, by one regular expression, rather than split and unsplit again.
    """
    href = href.strip()
    if not href or href.startswith("#"):
        return None
    try:
        absolute = href if href.startswith(_ABSOLUTE) or not base else urljoin(base, href)
    except ValueError:
        return None
    match = _URL.match(absolute)
    if match is None:
        return None
    scheme, netloc, rest = match.groups()
    scheme = scheme.lower()
    if scheme not in _FOLLOWED_SCHEMES or not netloc or not _valid_authority(netloc):
        return None
    return f"{scheme}://{netloc.lower()}{rest if rest.startswith('/') else '/' + rest}"


def _valid_authority(netloc: str) -> bool:
    """False for an authority no request can be made for, which Scrapy's `Request` (w3lib) would refuse with a
    ValueError: a port that is not a number from 0 to 65535, brackets around anything but an IPv6 address or
    anywhere but around the host, a backslash (browsers end the host there, urllib does not), or a non-ASCII
    character that NFKC normalisation turns into a delimiter."""
    if _AUTHORITY_MARKS.search(netloc) is None:
        return True
    userinfo, _, host_port = netloc.rpartition("@")
    if "\\" in netloc or "[" in userinfo or "]" in userinfo:
        return False
    if host_port.startswith("["):
        host, closed, after = host_port[1:].partition("]")
        if not closed or not _is_ipv6(host) or (after and not after.startswith(":")):
            return False
        port = after[1:]
    elif "[" in host_port or "]" in host_port:
        return False
    else:
        port = host_port.partition(":")[2]
    if port and not (port.isascii() and port.isdigit() and int(port) <= _MAX_PORT):
        return False
    return netloc.isascii() or _splits(netloc)


def _is_ipv6(host: str) -> bool:
    try:
        IPv6Address(host)
    except ValueError:
        return False
    return True


def _splits(netloc: str) -> bool:
    """True when urllib accepts the authority (it checks what NFKC normalisation makes of non-ASCII)."""
    try:
        urlsplit(f"//{netloc}")
    except ValueError:
        return False
    return True
