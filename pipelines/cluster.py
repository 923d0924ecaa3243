"""`ClusterPipeline`: the site of a page and a signature of its template, which groups its cluster.

The signature is the set of distinct block-path prefixes a few levels deep, hashed. Those upper levels
are the page's layout (header, sidebar, main column, footer); the text and the deeper structure vary
from page to page of one template, the layout does not. The first path segment keeps its tag only:
sites put the page's own identity in the `<body>` classes (WordPress: post id, category slug), which
would give every page its own cluster. On whizzy all 72 posts share one signature and its listing pages
fall into a few; the Python docs fall into four (pages, indexes, others, the home page).

Settings: ``CLUSTER_ENABLED`` (default True) switches the pipeline off; ``CLUSTER_PATH_DEPTH`` (default 4)
is how many path levels the signature reads.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Self

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from crawler.items import PageItem
from crawler.scope import site_of

DEFAULT_PATH_DEPTH = 4


def template_signature(paths: Iterable[str], depth: int = DEFAULT_PATH_DEPTH) -> str:
    """A stable 16-hex-digit signature of a page's layout from its blocks' paths (`tag.class/...`)."""
    prefixes = {_layout_prefix(path, depth) for path in paths}
    joined = "\n".join(sorted(prefixes))
    return hashlib.blake2b(joined.encode("utf-8"), digest_size=8).hexdigest()


def _layout_prefix(path: str, depth: int) -> str:
    """The first `depth` segments of a block path, the first one (`body.classes`) reduced to its tag."""
    segments = path.split("/", depth)[:depth]
    segments[0] = segments[0].split(".", 1)[0]
    return "/".join(segments)


class ClusterPipeline:
    """Set `item.site` (host[:port] of the final URL) and `item.cluster` (its template signature)."""

    def __init__(self, depth: int = DEFAULT_PATH_DEPTH) -> None:
        self.depth = depth

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Read ``CLUSTER_*`` settings; NotConfigured when ``CLUSTER_ENABLED`` is false."""
        settings = crawler.settings
        if not settings.getbool("CLUSTER_ENABLED", True):
            raise NotConfigured("CLUSTER_ENABLED is False")
        depth = settings.getint("CLUSTER_PATH_DEPTH", DEFAULT_PATH_DEPTH)
        if depth < 1:
            raise ValueError(f"CLUSTER_PATH_DEPTH must be at least 1, not {depth}")
        return cls(depth)

    def process_item(self, item: PageItem) -> PageItem:
        """Fill in the page's site and cluster signature."""
        item.site = site_of(item.final_url)
        item.cluster = template_signature((block.path for block in item.blocks), self.depth)
        return item
