"""Small HTML pages for crawl tests: an article with navigation links, and a meta-refresh stub."""

from __future__ import annotations

from collections.abc import Iterable

_PROSE = (
    "The valley road climbs for twelve kilometres through pine forest, and the gradient never drops "
    "below six percent, which makes it a favourite training ground for local cyclists. "
    "In winter the upper section is closed, although the lower villages remain reachable by bus, "
    "and the council clears the snow twice a day when the weather turns."
)


def article(title: str, links: Iterable[str] = (), head: str = "") -> str:
    """A page with a navigation list of `links`, an article about `title` and a footer."""
    nav = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links)
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>{head}</head><body>"
        f"<nav class='menu'><ul>{nav}</ul></nav>"
        f"<article><h1>{title}</h1><p>{title}: {_PROSE}</p><p>{_PROSE} {title}.</p></article>"
        "<footer><p>Copyright the Valley Society</p></footer></body></html>"
    )


def refresh_stub(target: str, delay: int = 0) -> str:
    """A meta-refresh page that sends the browser to `target`."""
    return (
        f"<!DOCTYPE html><html><head><title>Redirecting</title>"
        f'<meta http-equiv="refresh" content="{delay};url={target}"></head>'
        f'<body><p>You are being redirected to <a href="{target}">{target}</a></p></body></html>'
    )
