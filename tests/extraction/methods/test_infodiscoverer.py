"""Seed 004's InfoDiscoverer (Lin & Ho): term entropy over a cluster, block entropy, greedy threshold."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from extraction.methods.base import SitePage
from extraction.methods.cluster_terms import ClusterTerms
from extraction.methods.infodiscoverer import ContentBlock, InfoDiscoverer, InfoDiscovererParams, threshold
from extraction.result import Block, BlockKind
from tests.extraction.methods.sites import whizzy_extractions
from tests.extraction.pages import find_block

PARAMS = InfoDiscovererParams()
MENU = (
    "<table><tr><td>Home</td><td>World news</td><td>Sport results</td><td>Weather forecast</td></tr></table>"
)
FOOTER = "<table><tr><td>Copyright Daily Planet newspaper company</td></tr></table>"
STORIES = (
    "Elephants crossed the river at dawn, watched by rangers and lucky tourists.",
    "Markets fell sharply as traders weighed the central bank decision.",
    "Heavy rain soaked the festival, but the crowd stayed for the headline band.",
    "Scientists mapped a glacier retreating faster than any model predicted.",
)


def tabular(story: str) -> str:
    return f"<html><body>{MENU}<table><tr><td><p>{story}</p></td></tr></table>{FOOTER}</body></html>"


def block(text: str) -> Block:
    return Block(0, "body/p", "p", BlockKind.PARAGRAPH, text)


def test_cluster_entropy_counts_the_page_being_labelled_once() -> None:
    terms = ClusterTerms()
    terms.observe("a", [block("menu river")])
    terms.observe("a", [block("menu river")])
    terms.observe("b", [block("menu lake")])
    entropy = terms.entropy_of("new", [block("menu owls")])
    # "menu" once on each of the three pages: entropy log 3 / log 3 = 1; "owls" on this page only: 0.
    assert entropy("menu") == pytest.approx(1.0)
    assert entropy("owls") == 0.0
    assert entropy("river") == 0.0  # on one of three pages
    assert terms.entropy_of("a", [])("river") == 0.0 and terms.other_pages("a") == 1
    # Two of three pages, once each: log 2 / log 3.
    assert terms.entropy_of("new", [block("lake")])("lake") == pytest.approx(math.log(2) / math.log(3))


def test_the_threshold_rises_while_blocks_bring_new_terms() -> None:
    def content(entropy: float, *words: str) -> ContentBlock:
        return ContentBlock([], frozenset(words), entropy)

    blocks = [
        content(0.05, "unique"),
        content(0.35, "river", "elephants", "rangers"),
        content(0.42, "tourists", "dawn", "watched", "lucky"),
        content(0.95, "home", "world", "news"),
    ]
    # 0.1 and 0.4 and 0.5 bring terms; the next occupied step (1.0) is past the redundant bound.
    assert threshold(blocks, PARAMS) == pytest.approx(0.5)
    flat = [*blocks[:3], content(0.55, "river", "dawn"), content(0.65, "new", "terms", "here")]
    # 0.6 adds nothing new: the growth stops there.
    assert threshold(flat, PARAMS) == pytest.approx(0.5)


def test_table_blocks_of_the_template_are_redundant() -> None:
    method = InfoDiscoverer()
    method.learn([SitePage(tabular(story)) for story in STORIES[:3]])
    result = method.extract(tabular(STORIES[3]))
    assert find_block(result.blocks, "glacier").is_content
    assert not find_block(result.blocks, "Weather forecast").is_content
    assert not find_block(result.blocks, "Copyright").is_content
    assert "content block entropy" in find_block(result.blocks, "glacier").reason


def test_a_layout_without_tables_is_refined_into_getblocks_blocks() -> None:
    def divs(story: str) -> str:
        return f"<html><body><div><ul><li>Home</li><li>World news</li></ul><p>{story}</p></div></body></html>"

    method = InfoDiscoverer()
    method.learn([SitePage(divs(story)) for story in STORIES[:3]])
    result = method.extract(divs(STORIES[3]))
    assert find_block(result.blocks, "glacier").is_content
    assert not find_block(result.blocks, "World news").is_content
    assert "refined block" in find_block(result.blocks, "glacier").reason


def test_without_other_pages_everything_is_informative() -> None:
    result = InfoDiscoverer().extract(tabular(STORIES[0]))
    assert all(block.is_content for block in result.blocks)
    assert "no other page" in result.reason


def test_whizzy_posts(shared_dir: Path) -> None:
    scores = [score for _, score in whizzy_extractions(shared_dir, InfoDiscoverer(), slice(20, 35))]
    assert sum(score.recall for score in scores) / len(scores) > 0.85
    assert sum(score.precision for score in scores) / len(scores) > 0.7
