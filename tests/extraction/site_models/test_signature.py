"""Structural signatures: pages of one template cluster together, other templates apart."""

from __future__ import annotations

import copy
import random
from collections import Counter

from extraction import ExtractionResult
from extraction.site_models import SiteClusters, SiteModelConfig, page_signature, settled_clusters, similarity
from extraction.site_models.signature import layout_path
from tests.extraction.pages import APACHE, extract_fixture

CONFIG = SiteModelConfig()


def _signature(result: ExtractionResult) -> frozenset[int]:
    return page_signature(result.blocks, CONFIG.shingle_size, CONFIG.signature_depth)


def test_layout_path_keeps_tag_and_first_class() -> None:
    path = "body.single.postid-0/div.main.site-main/article.post-0.category-linux/div.entry-content/p"
    assert layout_path(path, 3) == "body.single/div.main/article.post-0"
    assert layout_path(path) == "body.single/div.main/article.post-0/div.entry-content/p"


def test_layout_path_drops_the_id_of_an_element_with_a_class() -> None:
    # DocBook names each section by its own id; a theme's class-less containers are named by theirs.
    path = "body.book/div#id-0_0_0.sect0/div#sidebar/p.note.important"
    assert layout_path(path) == "body.book/div.sect0/div#sidebar/p.note"


def test_an_articles_own_structure_is_not_the_template() -> None:
    # The manual's page, and the same page with its article cut into sections named by their own ids:
    # one template, so one signature (the article counts as its container).
    page = extract_fixture(APACHE)
    container = "/".join(page.blocks[3].path.split("/")[:2]) + "/"
    restructured = [copy.copy(block) for block in page.blocks]
    for block in restructured:
        if block.is_content and block.path.startswith(container):
            section = block.text.split()[0].lower()
            block.path = f"{container}div#{section}.section/{block.path.removeprefix(container)}"
    restructured_signature = page_signature(restructured, CONFIG.shingle_size, CONFIG.signature_depth)
    assert similarity(_signature(page), restructured_signature) == 1.0


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


def test_the_order_pages_come_in_decides_online_clusters(postgresql_manual: list[ExtractionResult]) -> None:
    signatures = [_signature(page) for page in postgresql_manual]
    groupings = {_grouping(_online(signatures, order)) for order in _orders(len(signatures))}
    assert len(groupings) > 1


def test_settled_clusters_do_not_depend_on_the_order(postgresql_manual: list[ExtractionResult]) -> None:
    signatures = [_signature(page) for page in postgresql_manual]
    groupings = set()
    for order in _orders(len(signatures)):
        settled = settled_clusters(Counter(signatures[index] for index in order), CONFIG.cluster_threshold)
        groupings.add(_grouping([settled[signature].name for signature in signatures]))
    assert len(groupings) == 1


def test_a_settled_cluster_is_represented_by_its_most_common_layout(
    postgresql_manual: list[ExtractionResult],
) -> None:
    counts = Counter(_signature(page) for page in postgresql_manual)
    settled = settled_clusters(counts, CONFIG.cluster_threshold)
    for cluster in {cluster.name: cluster for cluster in settled.values()}.values():
        members = [signature for signature in counts if settled[signature] is cluster]
        assert counts[cluster.signature] == max(counts[signature] for signature in members)
        assert cluster.pages == sum(counts[signature] for signature in members)
        threshold = CONFIG.cluster_threshold
        assert all(similarity(signature, cluster.signature) >= threshold for signature in members)


def _orders(count: int) -> list[list[int]]:
    orders = [list(range(count)), list(reversed(range(count)))]
    for seed in range(3):
        shuffled = list(range(count))
        random.Random(seed).shuffle(shuffled)
        orders.append(shuffled)
    return orders


def _online(signatures: list[frozenset[int]], order: list[int]) -> list[str]:
    """Each page's cluster when an online clusterer meets the pages in `order`."""
    clusters = SiteClusters(CONFIG.cluster_threshold)
    names = [""] * len(signatures)
    for index in order:
        names[index] = clusters.assign(signatures[index])
    return names


def _grouping(names: list[str]) -> frozenset[frozenset[int]]:
    """The pages (by index) grouped by their cluster's name."""
    groups: dict[str, set[int]] = {}
    for index, name in enumerate(names):
        groups.setdefault(name, set()).add(index)
    return frozenset(frozenset(group) for group in groups.values())


def test_similarity_is_jaccard() -> None:
    assert similarity(frozenset({1, 2, 3}), frozenset({2, 3, 4})) == 0.5
    assert similarity(frozenset(), frozenset()) == 1.0
