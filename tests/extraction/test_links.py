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


# The fuzz findings of `python -m benchmarks.fuzz` (.cache/fuzz/minimal/): each raised ValueError from
# urllib or from Scrapy's Request. A link, a redirect or a <base> that no request can be made for is skipped.
BAD_AUTHORITIES = [
    "http://fuzz.test:99999/",  # min-port-link.html: a port out of range
    "http://fuzz.test:-1/",
    "http://fuzz.test:8o/",  # not a number
    "http://fuzz.test:80:81/",
    "http://fuzz.test:\u0661\u0662/",  # digits, but not ASCII ones
    "http://[x]/",  # min-bracket-link.html: a bracketed host that is no IP address
    "http://[127.0.0.1]/",  # IPv4 cannot be bracketed
    "http://[::1/",  # an unclosed bracket
    "http://::1]/",
    "http://a[::1]/",  # something before the bracket
    "http://[::1]x/",  # something after it that is not a port
    "http://[::1]:99999/",
    "http://us[er@fuzz.test/",
    "http://fuzz.test\\@other.test/",  # a browser ends the host at the backslash, urllib does not
    "http://fuzz\uff0etest\uff0fa/",  # NFKC turns the full-width solidus into "/"
]


@pytest.mark.parametrize("href", BAD_AUTHORITIES)
def test_a_link_no_request_can_be_made_for_is_skipped(href: str) -> None:
    assert normalise_url(href) is None
    assert normalise_url(href.removeprefix("http:"), "http://fuzz.test/min") is None  # protocol-relative
    assert resolve_links([href, "/next"], "http://fuzz.test/min") == ["http://fuzz.test/next"]


@pytest.mark.parametrize(
    ("href", "url"),
    [
        ("http://[::1]:8000/a", "http://[::1]:8000/a"),
        ("http://[2001:DB8::1]/", "http://[2001:db8::1]/"),
        ("http://fuzz.test:0/", "http://fuzz.test:0/"),
        ("http://fuzz.test:65535/", "http://fuzz.test:65535/"),
        ("http://fuzz.test:/", "http://fuzz.test:/"),
        ("http://user:pass@fuzz.test:8080/", "http://user:pass@fuzz.test:8080/"),
        ("http://bücher.example/", "http://bücher.example/"),
    ],
)
def test_valid_ports_ipv6_hosts_and_user_info_are_kept(href: str, url: str) -> None:
    assert normalise_url(href) == url


def test_a_base_href_that_is_no_url_is_ignored() -> None:
    # min-base-ipv6-extract.html: urljoin raised "Invalid IPv6 URL" from extract().
    html = '<base href="http://[::1"><p>text <a href="/next">next</a></p>'
    result = extract(html, url="http://fuzz.test/min")
    assert result.base_url == "http://fuzz.test/min"
    assert result.links == ["http://fuzz.test/next"]


@pytest.mark.parametrize("base", ["http://[::1", "http://[x]/", "http://fuzz.test:99999/", "//[::1"])
def test_a_base_href_with_a_bad_authority_is_ignored(base: str) -> None:
    root = parse_html(f"<base href='{base}'><p>x</p>").root
    assert root is not None
    assert base_url(root, "http://fuzz.test/min") == "http://fuzz.test/min"


def test_a_bad_page_url_leaves_links_unresolved_instead_of_raising() -> None:
    result = extract(
        '<base href="a/"><p>text <a href="b">b</a> <a href="http://fuzz.test/c">c</a></p>', url="http://[::1"
    )
    assert result.links == ["http://fuzz.test/c"]


def test_a_refresh_to_a_port_out_of_range_is_not_followed() -> None:
    # min-port-refresh.html: the spider's Request() raised "Port out of range 0-65535".
    html = '<meta http-equiv="refresh" content="0;url=http://fuzz.test:99999/">'
    assert extract(html, url="http://fuzz.test/min").refresh_url is None


def test_the_canonical_link_of_a_real_page(shared_dir: Path) -> None:
    # whizzy (WordPress) names each post's own URL, relative; the Python docs name a file:// URL.
    post = shared_dir / "sites/whizzy/2014/02/04/raspberry-pi-powered-heating-controller-part-4/index.html"
    url = "http://127.0.0.1:8000/2014/02/04/raspberry-pi-powered-heating-controller-part-4/"
    assert extract(post.read_bytes(), url=url).canonical_url == url
    docs = b'<html><head><link rel="canonical" href="file:///usr/share/doc/os.html" /></head><p>x</p></html>'
    assert extract(docs, url="http://127.0.0.1:8000/os.html").canonical_url is None


@pytest.mark.parametrize("rel", ["canonical", "Canonical", "  canonical  amphtml", "alternate CANONICAL"])
def test_the_canonical_link_is_found_by_its_rel_token(rel: str) -> None:
    html = f'<html><head><link rel="{rel}" href="/post/"></head><body><p>x</p></body></html>'
    assert extract(html, url="http://news.test/amp/post/").canonical_url == "http://news.test/post/"


def test_a_rel_that_only_contains_the_word_is_no_canonical_link() -> None:
    html = '<html><head><link rel="noncanonical" href="/post/"></head><body><p>x</p></body></html>'
    assert extract(html, url="http://news.test/amp/post/").canonical_url is None
