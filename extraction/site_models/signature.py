"""Structural signatures of pages and an online clusterer that groups the pages of one template.

A page's signature is the set of hashed shingles of its blocks' layout paths in page order (seed 004's
site style tree, reduced to what a crawler can keep per page): pages built from one template share most
of their layout (menus, sidebars, footers, the container of the article), so their signatures overlap,
while pages of another template or another site share next to nothing. A set, not a multiset: a long
article repeats the same paragraph path many times and must not outweigh the layout. The article itself
is cut short at its container's children (`layout_signature`): on a thin template (a DocBook book, Sphinx, a
manual's XSLT), where little surrounds the text, the article's own sections, with their per-page ids,
made every page a template of its own.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from extraction.hashing import text_hash
from extraction.result import Block
from extraction.site_models.slots import common_path

Signature = frozenset[int]
# A step's id, as `extraction.segment` marks it (`div#main.content`).
_ID = re.compile(r"#[^./]*")


@dataclass(slots=True)
class Cluster:
    """A group of pages of one template: its name, a representative signature and its page count.

    The representative is the cluster's first page: cheap, stable (a cluster cannot drift page by page
    into another template) and storable as one set; the name is `signature_key` of it.
    """

    name: str
    signature: Signature
    pages: int = 0


class SharedClusters(Protocol):
    """Where the clusters of a site are shared with other processes (a crawl's database)."""

    def known(self) -> Iterable[Cluster]:
        """The clusters founded so far, by anyone."""

    def founded(self, cluster: Cluster) -> None:
        """Record a cluster this process founded."""


@dataclass(slots=True)
class SiteClusters:
    """The clusters of one site: a page joins the most similar one at or above `threshold`, or founds one.

    With `shared`, the clusters other processes founded are read at the start and again before founding
    one, so that processes sharing a database (and a later crawl) put a template's pages in one cluster.
    """

    threshold: float
    shared: SharedClusters | None = None
    clusters: dict[str, Cluster] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._merge()

    def assign(self, signature: Signature) -> str:
        """The name of the cluster the page of `signature` joins; its page count is incremented."""
        best = best_cluster(signature, self.clusters.values(), self.threshold)
        if best is None and self.shared is not None:
            self._merge()
            best = best_cluster(signature, self.clusters.values(), self.threshold)
        if best is None:
            best = Cluster(signature_key(signature), signature)
            self.clusters[best.name] = best
            if self.shared is not None:
                self.shared.founded(best)
        best.pages += 1
        return best.name

    def _merge(self) -> None:
        if self.shared is not None:
            for cluster in self.shared.known():
                self.clusters.setdefault(cluster.name, cluster)


def settled_clusters(signatures: Mapping[Signature, int], threshold: float) -> dict[Signature, Cluster]:
    """The cluster of each signature of a site's stored pages (with how many pages have it), whatever order
    the pages came in.

    `SiteClusters` founds a cluster with the first page that fits none, so processes that meet a site's
    pages in other orders can group them otherwise. Here the signatures are taken from the most common to
    the rarest (ties by key), each joining the most similar cluster so far or founding one: a cluster's
    representative is its most common layout, and the grouping depends only on the set of pages.
    """
    clusters = SiteClusters(threshold)
    ordered = sorted(signatures.items(), key=lambda item: (-item[1], signature_key(item[0])))
    settled: dict[Signature, Cluster] = {}
    for signature, pages in ordered:
        cluster = clusters.clusters[clusters.assign(signature)]
        cluster.pages += pages - 1
        settled[signature] = cluster
    return settled


def page_signature(blocks: Sequence[Block], size: int, depth: int) -> Signature:
    """The signature of a page's blocks, labelled by single-page extraction (see `layout_signature`)."""
    return layout_signature([(block.path, block.is_content) for block in blocks], size, depth)


def layout_signature(blocks: Sequence[tuple[str, bool]], size: int, depth: int) -> Signature:
    """The hashed shingles of `size` consecutive layout paths of a page given as (block path, is content)
    pairs in page order.

    The page's own content is cut short: every block under the container of all its content blocks (their
    common path) counts as the child of that container that holds it. What lies inside an article's
    sections, lists and tables, and the ids they carry, belongs to the article, not to the template; a
    thin template (a DocBook or Sphinx page with little around its text) would otherwise make every page
    a template of its own. Ids are left out of the signature, since the ids of content are anchors that
    change from page to page.
    """
    root = common_path([path for path, content in blocks if content])
    paths: list[str] = []
    if root and "/" not in root:
        # Content spread over the whole body (a page labelled with no content area) is no container:
        # collapsed, the page would be one path.
        root = None
    for block_path in _collapsed(blocks, root):
        path = layout_path(_without_ids(block_path), depth)
        # A run of blocks in one container (a list, a menu's items) is one layout element: its length is
        # content, not template.
        if not paths or paths[-1] != path:
            paths.append(path)
    return path_signature(paths, size)


def _collapsed(blocks: Sequence[tuple[str, bool]], root: str | None) -> list[str]:
    """Each block's path, cut under `root` to the child of `root` that holds it."""
    if not root:
        return [path for path, _ in blocks]
    under = root + "/"
    return [
        under + path[len(under) :].split("/", 1)[0] if path.startswith(under) else path for path, _ in blocks
    ]


@lru_cache(maxsize=1 << 16)
def _without_ids(path: str) -> str:
    return _ID.sub("", path)


@lru_cache(maxsize=1 << 16)
def layout_path(path: str, depth: int | None = None) -> str:
    """The first `depth` steps (all when None) of a block path, each reduced to its tag and first class,
    or to its tag and id when it has no class.

    The first class names the component (`article.post`, `div.widget`); the classes after it are
    per-page modifiers (`category-linux`, `postid-0`) that would split one template into many, and so is
    the id of an element with a class (DocBook's `div.sect1#id-1.5.3`). A theme's containers without a
    class keep their id (`div#sidebar`). Cached: a site's pages share a few hundred paths, met thousands
    of times.
    """
    return "/".join(_layout_step(step) for step in path.split("/")[:depth])


def _layout_step(step: str) -> str:
    head, _, classes = step.partition(".")
    if classes:
        return f"{head.partition('#')[0]}.{classes.split('.', 1)[0]}"
    return head


def path_signature(paths: Sequence[str], size: int) -> Signature:
    """The hashed shingles of `size` consecutive paths (one shingle for shorter pages)."""
    if not paths:
        return frozenset()
    count = max(1, len(paths) - size + 1)
    return frozenset(_shingle_hash(paths[i : i + size]) for i in range(count))


def similarity(a: Signature, b: Signature) -> float:
    """Jaccard similarity of two signatures (1.0 for two empty pages)."""
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def best_cluster(signature: Signature, clusters: Iterable[Cluster], threshold: float) -> Cluster | None:
    """The most similar cluster at or above `threshold`, or None."""
    best, best_similarity = None, threshold
    for cluster in clusters:
        score = similarity(signature, cluster.signature)
        if score >= best_similarity:
            best, best_similarity = cluster, score
    return best


def signature_key(signature: Signature) -> str:
    """A stable 16-hex-digit name of a signature (a cluster is named by its representative's)."""
    return text_hash(encode_signature(signature))


def encode_signature(signature: Signature) -> str:
    """The signature as text: its shingles in order, 16 hex digits each, space-separated."""
    return " ".join(f"{shingle:016x}" for shingle in sorted(signature))


def _shingle_hash(paths: Sequence[str]) -> int:
    # 64 bits, stable across processes (Python's hash() is salted), so signatures can be stored.
    digest = hashlib.blake2b("\x1f".join(paths).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")
