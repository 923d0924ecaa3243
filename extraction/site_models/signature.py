"""Structural signatures of pages and an online clusterer that groups the pages of one template.

A page's signature is the set of hashed shingles of its block paths in page order (seed 004's site
style tree, reduced to what a crawler can keep per page): pages built from one template share most of
their layout (menus, sidebars, footers, the article's skeleton), so their signatures overlap, while
pages of another template or another site share next to nothing. A set, not a multiset: a long article
repeats the same paragraph path many times and must not outweigh the layout.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from extraction.result import Block

Signature = frozenset[int]


@dataclass(slots=True)
class Cluster:
    """A group of pages of one template: its id, a representative signature and its page count."""

    id: int
    signature: Signature
    pages: int = 0


def page_signature(blocks: Sequence[Block], size: int, depth: int) -> Signature:
    """The hashed shingles of `size` consecutive block layout paths (see `layout_path`)."""
    paths: list[str] = []
    for block in blocks:
        path = layout_path(block.path, depth)
        # A run of blocks in one container (a list, an article's paragraphs) is one layout element:
        # its length is content, not template.
        if not paths or paths[-1] != path:
            paths.append(path)
    return path_signature(paths, size)


def layout_path(path: str, depth: int | None = None) -> str:
    """The first `depth` steps (all when None) of a block path, each reduced to its tag and first class.

    The first class names the component (`article.post`, `div.widget`); the classes after it are
    per-page modifiers (`category-linux`, `postid-0`) that would split one template into many.
    """
    return "/".join(".".join(step.split(".", 2)[:2]) for step in path.split("/")[:depth])


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


def assign(signature: Signature, clusters: list[Cluster], threshold: float) -> int:
    """The id of the most similar cluster at or above `threshold`; else a new cluster's id.

    The representative is the cluster's first page: cheap, stable (a cluster cannot drift page by page
    into another template) and persistable as one set. The chosen cluster's page count is incremented.
    """
    best, best_similarity = None, threshold
    for cluster in clusters:
        score = similarity(signature, cluster.signature)
        if score >= best_similarity:
            best, best_similarity = cluster, score
    if best is None:
        best = Cluster(_next_id(clusters), signature)
        clusters.append(best)
    best.pages += 1
    return best.id


def _next_id(clusters: Iterable[Cluster]) -> int:
    return max((cluster.id for cluster in clusters), default=-1) + 1


def _shingle_hash(paths: Sequence[str]) -> int:
    # 64 bits, stable across processes (Python's hash() is salted), so signatures can be stored.
    digest = hashlib.blake2b("\x1f".join(paths).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")
