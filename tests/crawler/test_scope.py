"""Scope of a crawl: seeds, host:port sites, schemes."""

from __future__ import annotations

from pathlib import Path

import pytest

from crawler.scope import Scope, SeedError, parse_seeds


def test_seeds_from_a_comma_list_are_normalised_and_kept_once() -> None:
    seeds = parse_seeds("HTTP://Example.org/a#top, http://example.org/a ,https://b.example/")
    assert seeds == ["http://example.org/a", "https://b.example/"]


def test_seeds_file_skips_blank_lines_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "seeds.txt"
    path.write_text("# the blog\nhttp://a.example/\n\n   \n  # indented comment\nhttp://b.example:8080/x\n")
    assert parse_seeds(seeds_file=path) == ["http://a.example/", "http://b.example:8080/x"]


def test_seeds_and_seeds_file_combine(tmp_path: Path) -> None:
    path = tmp_path / "seeds.txt"
    path.write_text("http://b.example/\n")
    assert parse_seeds("http://a.example/", path) == ["http://a.example/", "http://b.example/"]


@pytest.mark.parametrize("value", ["example.org", "/relative/path", "ftp://example.org/", "mailto:a@b.c"])
def test_a_seed_that_is_not_an_absolute_http_url_is_refused(value: str) -> None:
    with pytest.raises(SeedError, match="not an absolute http"):
        parse_seeds(value)


def test_no_seed_at_all_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("# nothing yet\n")
    with pytest.raises(SeedError, match="no seed"):
        parse_seeds(" , ", path)


def test_scope_is_the_seeds_host_and_port() -> None:
    scope = Scope(["http://127.0.0.1:8001/", "http://docs.example/index.html"])
    assert scope.allows("http://127.0.0.1:8001/deep/page.html?x=1")
    assert not scope.allows("http://127.0.0.1:8002/")  # same host, another port: another site
    assert not scope.allows("http://127.0.0.1/")
    assert scope.allows("http://docs.example/other")
    assert not scope.allows("http://www.docs.example/")  # subdomains are other sites
    assert not scope.allows("http://elsewhere.example/")


def test_default_ports_cover_http_and_https_but_explicit_ports_do_not() -> None:
    scope = Scope(["http://example.org/", "http://local.example:8080/"])
    assert scope.allows("https://example.org/moved")
    assert scope.allows("http://example.org:80/")
    assert scope.allows("https://example.org:443/")
    assert not scope.allows("http://example.org:8080/")
    assert scope.allows("http://local.example:8080/")
    assert not scope.allows("https://local.example/")


@pytest.mark.parametrize("url", ["ftp://example.org/", "mailto:me@example.org", "javascript:void(0)", "/x"])
def test_other_schemes_are_out_of_scope(url: str) -> None:
    assert not Scope(["http://example.org/"]).allows(url)


def test_scheme_case_does_not_matter() -> None:
    assert Scope(["http://example.org/"]).allows("HTTPS://example.org/")


def test_hostnames_feed_allowed_domains_without_ports() -> None:
    scope = Scope(["http://127.0.0.1:8001/", "http://127.0.0.1:8002/", "https://b.example/"])
    assert scope.hostnames == ["127.0.0.1", "b.example"]


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:99999/", "http://127.0.0.1:8o/", "http://[x]/", "http://[::1"]
)
def test_a_url_no_request_can_be_made_for_is_out_of_scope(url: str) -> None:
    # Fuzz findings min-port-link.html and min-bracket-link.html: an invalid port read as the default one
    # put the URL in scope, and a bracketed host that is no IP address raised ValueError.
    assert not Scope(["http://127.0.0.1/", "http://[::1]/"]).allows(url)


@pytest.mark.parametrize("value", ["http://example.org:99999/", "http://[x]/"])
def test_a_seed_no_request_can_be_made_for_is_refused(value: str) -> None:
    with pytest.raises(SeedError):
        parse_seeds(value)
