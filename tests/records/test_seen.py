"""URL sets kept as 64-bit keys: membership, and the checksum that compares them with a set of strings."""

from __future__ import annotations

from records.seen import UrlSet


def test_a_url_set_holds_what_was_added_and_says_when_a_url_is_new() -> None:
    urls = [f"https://example.test/post/{number}/" for number in range(3000)]
    seen = UrlSet(urls[:2000])
    assert len(seen) == 2000
    assert all(url in seen for url in urls[:2000])
    assert not any(url in seen for url in urls[2000:])
    assert seen.add(urls[2500]) is True
    assert seen.add(urls[2500]) is False
    assert seen.add("https://example.test/post/\udcff/") is True  # a lone surrogate is a key too


def test_same_as_tells_the_very_same_urls_from_others() -> None:
    urls = {f"https://example.test/{number}" for number in range(50)}
    seen = UrlSet(urls)
    assert seen.same_as(urls)
    assert not seen.same_as(urls - {"https://example.test/1"})
    assert not seen.same_as((urls - {"https://example.test/1"}) | {"https://example.test/x"})
