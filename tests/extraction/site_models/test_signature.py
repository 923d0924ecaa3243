"""Structural signatures: pages of one template cluster together, other templates apart."""

from __future__ import annotations

from extraction import ExtractionConfig, ExtractionResult
from extraction.site_models import Cluster, assign, page_signature, similarity
from extraction.site_models.signature import layout_path

CONFIG = ExtractionConfig()


def _signature(result: ExtractionResult) -> frozenset[int]:
    return page_signature(result.blocks, CONFIG.site_shingle_size, CONFIG.site_signature_depth)


def test_layout_path_keeps_tag_and_first_class() -> None:
    path = "body.single.postid-0/div.main.site-main/article.post-0.category-linux/div.entry-content/p"
    assert layout_path(path, 3) == "body.single/div.main/article.post-0"
    assert layout_path(path) == "body.single/div.main/article.post-0/div.entry-content/p"


def test_whizzy_posts_share_one_cluster(whizzy_posts: dict[str, ExtractionResult]) -> None:
    clusters: list[Cluster] = []
    ids = {
        assign(_signature(post), clusters, CONFIG.site_cluster_threshold) for post in whizzy_posts.values()
    }
    assert ids == {0}
    assert clusters[0].pages == len(whizzy_posts)


def test_python_docs_and_whizzy_posts_are_apart(
    whizzy_posts: dict[str, ExtractionResult], python_docs: list[ExtractionResult]
) -> None:
    post = _signature(next(iter(whizzy_posts.values())))
    assert all(similarity(post, _signature(page)) < 0.05 for page in python_docs)
    clusters: list[Cluster] = []
    whizzy = {assign(_signature(page), clusters, 0.5) for page in whizzy_posts.values()}
    docs = {assign(_signature(page), clusters, 0.5) for page in python_docs}
    assert whizzy.isdisjoint(docs)


def test_similarity_is_jaccard() -> None:
    assert similarity(frozenset({1, 2, 3}), frozenset({2, 3, 4})) == 0.5
    assert similarity(frozenset(), frozenset()) == 1.0
