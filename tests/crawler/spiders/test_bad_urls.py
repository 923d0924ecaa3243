"""The spider's handler on pages whose links, refresh or `<base>` no request can be made for: the fuzz
findings of `python -m benchmarks.fuzz` (`.cache/fuzz/minimal/`), where `Request()` or the scope raised
ValueError. Such a URL is not followed; the page itself is stored."""

from __future__ import annotations

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from crawler.spiders.site import SiteSpider
from records import PageRecord
from tests.crawler.spider_output import parsed

URL = "http://fuzz.test/min"


def _parse(body: bytes) -> list[Request | PageRecord]:
    """Everything `parse_page` yields for `body` served at URL, as a crawl of http://fuzz.test/ meets it."""
    spider = SiteSpider.from_crawler(get_crawler(SiteSpider), seeds="http://fuzz.test/")
    response = HtmlResponse(URL, body=body, headers={b"Content-Type": b"text/html"}, request=Request(URL))
    return parsed(spider, response)


@pytest.mark.parametrize(
    "body",
    [
        b'<p>text <a href="http://fuzz.test:99999/">link</a></p>',  # min-port-link.html
        b'<p>text <a href="http://[x]/">link</a></p>',  # min-bracket-link.html
        b'<p>text <a href="//fuzz.test:70000/x">link</a> <a href="http://fuzz.test:8o/">link</a></p>',
    ],
)
def test_a_link_no_request_can_be_made_for_is_not_followed(body: bytes) -> None:
    items = _parse(body)
    assert [type(item) for item in items] == [PageRecord]


def test_a_refresh_to_a_port_out_of_range_is_not_followed() -> None:
    # min-port-refresh.html: the page is no redirect a browser could follow, so it is stored as it is.
    items = _parse(b'<meta http-equiv="refresh" content="0;url=http://fuzz.test:99999/"><p>text</p>')
    assert [type(item) for item in items] == [PageRecord]


def test_a_base_href_that_is_no_url_is_ignored() -> None:
    # min-base-ipv6-spider.html: the links resolve against the page's URL.
    items = _parse(b'<base href="http://[::1"><p>text <a href="/next">next</a></p>')
    assert [type(item) for item in items] == [Request, PageRecord]  # the links first (fleet leases)
    assert isinstance(items[0], Request) and items[0].url == "http://fuzz.test/next"
