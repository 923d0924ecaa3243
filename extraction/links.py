"""Links of a page for the crawl: hrefs gathered during segmentation, resolved, normalised, deduplicated.

The crawler builds requests from these instead of running a link extractor over the response: the page
was parsed once already, and normalising here (fragments dropped, scheme and host lower-cased, only
http and https) lets it skip URLs it has seen before any request object exists.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

from lxml import etree

# libxml2's HTML parser roots every tree at <html> and drops a <head> anywhere but directly below it, so this
# is `//head/base/@href` without gathering every node of the page first (50 times faster).
_BASE_HREF = etree.XPath("string(/html/head/base/@href)")
# Only metas with an http-equiv reach the costly translate().
_REFRESH = etree.XPath(
    "string(/descendant::meta[@http-equiv][translate(@http-equiv, 'REFSH', 'refsh')='refresh']/@content)"
)
# "5; url=/next", "0;URL='/next'", "0, /next": a delay, a separator, then the target.
_REFRESH_URL = re.compile(r"""^\s*\d+(?:\.\d*)?\s*[;,]\s*(?:url\s*=\s*)?["']?([^"'\s]+)""", re.IGNORECASE)
_FOLLOWED_SCHEMES = frozenset({"http", "https"})
_ABSOLUTE = ("http://", "https://")
# scheme, authority, then path and query up to the fragment.
_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)([^#]*)")


def base_url(root: etree._Element, url: str | None) -> str | None:
    """The URL relative links resolve against: `<base href>` when the page sets one, else its own URL."""
    base = str(_BASE_HREF(root)).strip()
    if base and url:
        return urljoin(url, base)
    return base or url


def refresh_target(root: etree._Element, base: str | None) -> str | None:
    """The target of a `<meta http-equiv="refresh">` redirect, resolved, or None."""
    match = _REFRESH_URL.match(str(_REFRESH(root)))
    return normalise_url(match.group(1), base) if match else None


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
    if scheme not in _FOLLOWED_SCHEMES or not netloc or ("[" in netloc and "]" not in netloc):
        return None
    return f"{scheme}://{netloc.lower()}{rest if rest.startswith('/') else '/' + rest}"
