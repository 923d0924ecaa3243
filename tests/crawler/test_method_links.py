"""Every extraction method gives the page's links, as `extract` does: a crawl with it follows them all."""

from __future__ import annotations

import pytest

from extraction import extract
from extraction.methods.base import Method, SitePage
from extraction.methods.registry import METHODS, get_method
from tests.crawler.pages import article

URL = "http://127.0.0.1:8000/posts/first/"
# A drop-down menu the style sheet hides (evbe drops what CSS hides) and a <form> around links (domlocate
# removes forms): their links are still the page's links.
_MENU = (
    "<style>.sub-menu { display: none }</style>"
    "<ul class='menu'><li><a href='/topics/'>Topics</a><ul class='sub-menu'>"
    "<li><a href='/topics/roads/'>Roads</a></li><li><a href='/topics/rail/'>Rail</a></li></ul></li></ul>"
    "<form action='/search'><a href='/search/help/'>Search help</a><input name='q'></form>"
)


def _page(title: str) -> bytes:
    html = article(title, ["/", "../second/", "/about/?ref=nav#top"])
    return html.replace("<body>", "<body>" + _MENU, 1).encode("utf-8")


@pytest.fixture(params=list(METHODS), ids=str)
def method(request: pytest.FixtureRequest) -> Method:
    """Each method; a site-level one has learned another page of the site first."""
    method = get_method(request.param)
    method.learn([SitePage(_page("Second"), "http://127.0.0.1:8000/posts/second/")])
    return method


def test_every_method_gives_the_links_extract_gives(method: Method) -> None:
    html = _page("First")
    links = method.extract(html, URL).links
    assert links == extract(html, url=URL).links
    assert "http://127.0.0.1:8000/topics/rail/" in links
    assert "http://127.0.0.1:8000/search/help/" in links
    assert "http://127.0.0.1:8000/posts/second/" in links
