"""Seeds 001/004's GetBlocks partition and Debnath et al.'s FeatureExtractor and K-FE (text probability)."""

from __future__ import annotations

import numpy as np

from extraction.config import ExtractionConfig
from extraction.dom import clean_tree, parse_html
from extraction.methods.getblocks import GetBlocksParams, getblocks, nearest_nodes, runs, tag_set
from extraction.methods.kfe import FeatureExtractor, KFeatureExtractor, KfeParams, kmeans_1d, text_probability
from extraction.segment import Page
from tests.extraction.pages import NEWS, find_block, fixture_bytes

CONFIG = ExtractionConfig()
PAGE = """<html><body><table><tr><td><a href="/">Home</a> <a href="/n">News</a> <a href="/s">Sport</a></td>
<td><div><h1>River search</h1><div>Police searched the river banks until dawn, and found the boat.</div>
<p>The search resumed at noon, with divers, dogs and a helicopter.</p><hr><p>Reporting by A. Writer.</p>
</div></td></tr></table></body></html>"""


def partition(html: str, tags: str) -> Page:
    root = parse_html(html).root
    assert root is not None
    body = clean_tree(root)
    assert body is not None
    return getblocks(body, tag_set(tags), CONFIG)


def test_getblocks_cuts_only_at_the_tag_set() -> None:
    texts = [block.text for block in partition(PAGE, "table tr td p hr").blocks]
    # DIV and H1 are not in the set: the heading and the first paragraph-like div stay one block.
    assert texts == [
        "Home News Sport",
        "River search\nPolice searched the river banks until dawn, and found the boat.",
        "The search resumed at noon, with divers, dogs and a helicopter.",
        "Reporting by A. Writer.",
    ]


def test_getblocks_with_the_table_alone_keeps_cells_together() -> None:
    blocks = partition(PAGE, "table").blocks
    assert len(blocks) == 1 and blocks[0].text.startswith("Home News Sport")


def test_an_hr_separates_text_of_one_element() -> None:
    texts = [
        block.text
        for block in partition("<html><body><td>before<hr>after</td></body></html>", "td hr").blocks
    ]
    assert texts == ["before", "after"]


def test_nearest_nodes_and_runs() -> None:
    tables = "<table><tr><td>a</td></tr></table><table><tr><td>b</td></tr></table>"
    html = f"<html><body><p>intro</p>{tables}</body></html>"
    page = partition(html, "table p")
    nearest = nearest_nodes(page, frozenset({"table"}))
    tables = [nearest[node] for node in page.block_nodes]
    assert tables[0] == -1 and -1 != tables[1] != tables[2] != -1
    assert runs([5, 5, 7, 5]) == [0, 0, 1, 2]


def test_text_probability_is_the_share_of_text_features() -> None:
    blocks = partition(PAGE, GetBlocksParams().tags).blocks
    menu = find_block(blocks, "Home News Sport")
    prose = find_block(blocks, "The search resumed")
    assert text_probability(menu) < 0.2  # the spaces between its anchors are its only own text
    assert text_probability(prose) == 1.0


def test_kmeans_orders_clusters_by_centroid() -> None:
    values = np.array([0.1, 0.95, 0.12, 0.5, 0.97, 0.52])
    assert kmeans_1d(values, 3, 100).tolist() == [2, 0, 2, 1, 0, 1]
    assert kmeans_1d(np.array([0.4, 0.4]), 3, 100).tolist() == [0, 0]


def test_feature_extractor_keeps_one_block() -> None:
    result = FeatureExtractor().extract(fixture_bytes(NEWS))
    assert len(result.content_blocks) == 1
    assert result.content_blocks[0].text.startswith("The home-improvement retailer earned $2.8 billion")


def test_k_fe_keeps_the_text_cluster_of_the_news_page() -> None:
    result = KFeatureExtractor().extract(fixture_bytes(NEWS))
    for snippet in ("Dow component Home Depot reported", "Looking ahead, Home Depot sees"):
        assert find_block(result.blocks, snippet).is_content
    for snippet in ("Channel Finder", "Personal Finance"):
        assert not find_block(result.blocks, snippet).is_content
    assert "best k-means cluster" in result.content_blocks[0].reason


def test_one_cluster_keeps_every_block() -> None:
    result = KFeatureExtractor(params=KfeParams(clusters=1)).extract(fixture_bytes(NEWS))
    assert len(result.content_blocks) == len(result.blocks)
