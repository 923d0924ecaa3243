"""Links for the crawl: resolved, normalised and deduplicated hrefs, `<base href>` and meta refresh."""

from __future__ import annotations

from pathlib import Path

import pytest

from extraction import extract
from extraction.dom import parse_html
from extraction.links import base_url, normalise_url, resolve_links


def test_relative_links_resolve_against_the_page_url() -> None:
    html = (
        b'<html><body><p>Read <a href="../b/c.html#top">this</a> and <a href="/d">that</a>.</p></body></html>'
    )
    result = extract(html, url="http://example.org:8080/a/x/index.html")
    assert result.links == ["http://example.org:8080/a/b/c.html", "http://example.org:8080/d"]


def test_base_href_wins_over_the_page_url() -> None:
    html = (
        b'<html><head><base href="http://other.org/root/"></head><body><a href="p">p</a> text</body></html>'
    )
    assert extract(html, url="http://example.org/").links == ["http://other.org/root/p"]


@pytest.mark.parametrize(
    ("html", "base"),
    [
        ("<base href='http://b.org/'><p>x</p>", "http://b.org/"),  # the parser opens the <head> itself
        ("<html><body><p>x</p></body><head><base href='http://b.org/'></head></html>", "http://b.org/"),
        ("<html><html><head><base href='http://b.org/'></head></html></html>", "http://b.org/"),
        ("<div><head><base href='http://b.org/'></head></div>", "http://a.org/x"),  # a misplaced <head>
        ("<p>x</p><base href='http://b.org/'>", "http://a.org/x"),  # a <base> in the body
    ],
)
def test_base_href_is_read_only_from_the_head(html: str, base: str) -> None:
    root = parse_html(html).root
    assert root is not None
    assert base_url(root, "http://a.org/x") == base


def test_duplicates_fragments_and_other_schemes_are_dropped() -> None:
    hrefs = ["/a#one", "/a#two", "mailto:x@example.org", "javascript:void(0)", "#top", "HTTP://EXAMPLE.org/a"]
    assert resolve_links(hrefs, "http://example.org/") == ["http://example.org/a"]


def test_normalise_url_lowercases_scheme_and_host_only() -> None:
    assert normalise_url("HTTPS://Example.ORG/Path?Q=1") == "https://example.org/Path?Q=1"
    assert normalise_url("ftp://example.org/") is None
    assert normalise_url("http://[broken") is None


def test_meta_refresh_stub_of_a_real_site(shared_dir: Path) -> None:
    # whizzy (sites/README.md): 17 stubs redirect with <meta http-equiv="refresh"> and no charset.
    page = shared_dir / "sites/whizzy/2014/02/raspberry-pi-powered-heating-controller-part-4/index.html"
    result = extract(
        page.read_bytes(), url="http://127.0.0.1:8000/2014/02/raspberry-pi-powered-heating-controller-part-4/"
    )
    assert (
        result.refresh_url
        == "http://127.0.0.1:8000/2014/02/04/raspberry-pi-powered-heating-controller-part-4/"
    )


def test_links_come_from_the_same_walk_on_a_real_page(fixtures_dir: Path) -> None:
    html = (fixtures_dir / "forum_archlinux.html").read_bytes()
    result = extract(html, url="https://bbs.archlinux.org/viewtopic.php?id=1")
    assert result.links
    assert all(link.startswith(("http://", "https://")) and "#" not in link for link in result.links)
    assert len(result.links) == len(set(result.links))
