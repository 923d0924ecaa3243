"""Structural signatures: pages of one template cluster together, other templates apart."""

from __future__ import annotations

from extraction import ExtractionResult
from extraction.site_models import SiteClusters, SiteModelConfig, page_signature, similarity
from extraction.site_models.signature import layout_path

CONFIG = SiteModelConfig()


def _signature(result: ExtractionResult) -> frozenset[int]:
    return page_signature(result.blocks, CONFIG.shingle_size, CONFIG.signature_depth)


def test_layout_path_keeps_tag_and_first_class() -> None:
    path = "body.single.postid-0/div.main.site-main/article.post-0.category-linux/div.entry-content/p"
    assert layout_path(path, 3) == "body.single/div.main/article.post-0"
    assert layout_path(path) == "body.single/div.main/article.post-0/div.entry-content/p"


def test_whizzy_posts_share_one_cluster(whizzy_posts: dict[str, ExtractionResult]) -> None:
    clusters = SiteClusters(CONFIG.cluster_threshold)
    names = {clusters.assign(_signature(post)) for post in whizzy_posts.values()}
    assert len(names) == 1
    assert clusters.clusters[names.pop()].pages == len(whizzy_posts)


def test_python_docs_and_whizzy_posts_are_apart(
    whizzy_posts: dict[str, ExtractionResult], python_docs: list[ExtractionResult]
) -> None:
    post = _signature(next(iter(whizzy_posts.values())))
    assert all(similarity(post, _signature(page)) < 0.05 for page in python_docs)
    clusters = SiteClusters(0.5)
    whizzy = {clusters.assign(_signature(page)) for page in whizzy_posts.values()}
    docs = {clusters.assign(_signature(page)) for page in python_docs}
    assert whizzy.isdisjoint(docs)


def test_similarity_is_jaccard() -> None:
    assert similarity(frozenset({1, 2, 3}), frozenset({2, 3, 4})) == 0.5
    assert similarity(frozenset(), frozenset()) == 1.0
