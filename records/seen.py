"""Sets of URLs in about 12 bytes a URL: those one crawl process has met, those a cluster model has seen.

A set of URL strings costs some 150 bytes a URL, and a crawl of a large site meets several URLs per page
it stores (every link it saw, off-site and non-HTML ones too). `UrlSet` keeps a 64-bit BLAKE2b hash of each
(`extraction.compact.KeySet`): two distinct URLs collide with a chance of n²/2⁶⁵, under one in a billion
for a million URLs, and a collision costs one page not fetched.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from hashlib import blake2b

from extraction.compact import KeySet

_MASK = (1 << 64) - 1


def url_key(url: str) -> int:
    """The 64-bit key of a URL."""
    return int.from_bytes(blake2b(url.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "big")


class UrlSet:
    """A set of URLs that only grows: `add`, `update` and `in`, and a checksum that compares it with a set of
    strings (`same_as`) without keeping the strings."""

    __slots__ = ("_keys", "_sum")

    def __init__(self, urls: Iterable[str] = ()) -> None:
        self._keys = KeySet()
        self._sum = 0
        self.update(urls)

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, url: str) -> bool:
        return url_key(url) in self._keys

    def add(self, url: str) -> bool:
        """Add the URL; True when it was not there."""
        return self.add_all((url,))[0]

    def add_all(self, urls: Sequence[str]) -> list[bool]:
        """Add each URL in turn (the set searched once for all); for each, True when it was not there."""
        keys = [url_key(url) for url in urls]
        new = self._keys.add_all(keys)
        self._sum = (self._sum + sum(key for key, added in zip(keys, new, strict=True) if added)) & _MASK
        return new

    def update(self, urls: Iterable[str]) -> None:
        """Add every URL."""
        self.add_all(list(urls))

    def same_as(self, urls: Collection[str]) -> bool:
        """True when `urls` (distinct) are the URLs of this set: as many, and the same sum of keys."""
        return len(urls) == len(self) and sum(url_key(url) for url in urls) & _MASK == self._sum
