"""A URL's site: host and port, the scheme's default port left out."""

from __future__ import annotations

import pytest

from records import site_of
from records.sites import host_port


@pytest.mark.parametrize(
    "url", ["http://Example.org:80/a", "https://example.org/a", "https://example.org:443/a"]
)
def test_site_of_leaves_out_the_schemes_default_port(url: str) -> None:
    assert site_of(url) == "example.org"


def test_site_of_keeps_a_port_other_than_the_default() -> None:
    assert site_of("http://127.0.0.1:8001/a") == "127.0.0.1:8001"


def test_an_ipv6_host_keeps_its_brackets() -> None:
    assert site_of("http://[::1]:8000/") == "[::1]:8000"
    assert site_of("http://[2001:db8::1]/") == "[2001:db8::1]"


def test_a_url_without_a_valid_port_is_its_host() -> None:
    assert site_of("http://example.org:99999/") == "example.org"


@pytest.mark.parametrize("url", ["http://example.org:99999/", "http://example.org:8o/", "http://[x]/"])
def test_host_port_refuses_a_url_no_request_can_be_made_for(url: str) -> None:
    # Fuzz findings min-port-link.html and min-bracket-link.html: the scope let such URLs through (the port
    # read as the default), and Scrapy's Request() raised ValueError on them.
    with pytest.raises(ValueError):
        host_port(url)
