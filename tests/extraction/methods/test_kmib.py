"""Seed 004's k-MIB (WISDOM): CII, API and SII, the information coverage tree, MIB under the SII threshold."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from extraction.methods.base import SitePage
from extraction.methods.common import Subtrees
from extraction.methods.kmib import CoverageTree, KMib, KMibParams, content_information, structure_information
from extraction.result import Block, BlockFeatures, BlockKind
from tests.extraction.methods.sites import whizzy_extractions
from tests.extraction.pages import find_block, segment_html

STORY = "Police searched the river banks until dawn, and divers found the boat near the old bridge."
PAGE = f"""<html><body>
<div id="nav"><ul>{"".join(f'<li><a href="/s{n}">Section {n}</a></li>' for n in range(6))}</ul></div>
<div id="main"><h1>River search</h1>
<div id="story">{"".join(f"<p>{STORY} Part {n}.</p>" for n in range(6))}</div>
<div id="share"><a href="/share">Share</a></div></div>
<div id="footer"><p>Copyright the site</p></div></body></html>"""


def test_sii_is_the_normalised_entropy_of_the_childrens_shares() -> None:
    assert structure_information([5, 5, 5, 5]) == pytest.approx(1.0)
    assert structure_information([100, 1]) == pytest.approx(
        -(100 / 101 * math.log(100 / 101) + 1 / 101 * math.log(1 / 101)) / math.log(2)
    )
    assert structure_information([7]) == 0.0 and structure_information([3, 0, 0]) == 0.0


def test_cii_counts_the_information_of_own_terms() -> None:
    features = BlockFeatures(text_length=40, link_text_length=10)
    block = Block(0, "body/p", "p", BlockKind.PARAGRAPH, "river river menu bridge", features)
    site_wide = {"menu": 1.0, "river": 0.5}
    # (1 - 0.5) * 2 + (1 - 1) + (1 - 0) = 2, times the share of text outside anchors, 30 / 40.
    assert content_information(block, lambda term: site_wide.get(term, 0.0)) == pytest.approx(1.5)


def test_mib_goes_down_to_the_evenly_shared_story() -> None:
    page = segment_html(PAGE)
    values = [content_information(block, lambda _: 0.0) for block in page.blocks]
    tree = CoverageTree(Subtrees.of(page), values)
    (candidate, sii), *rest = tree.mine(k=1, threshold=0.7)
    assert not rest and sii > 0.9
    texts = [page.blocks[position].text for position in tree.span(candidate)]
    assert texts == [f"{STORY} Part {n}." for n in range(6)]
    # A threshold no node reaches takes the largest leaf-most candidates instead.
    assert len(tree.mine(k=3, threshold=1.01)) == 3


def test_the_site_lowers_the_information_of_template_terms() -> None:
    other = PAGE.replace("River search", "Fire drill").replace(
        STORY, "A school held a fire drill in the rain."
    )
    method = KMib()
    method.learn([SitePage(other, "https://example.test/other")])
    result = method.extract(PAGE, "https://example.test/page")
    assert find_block(result.blocks, "Part 3.").is_content
    assert not find_block(result.blocks, "Section 2").is_content
    assert not find_block(result.blocks, "Copyright").is_content
    assert "article block 1 of 1" in find_block(result.blocks, "Part 0.").reason


def test_toc_blocks_are_anchors_to_the_sites_pages() -> None:
    posts = [
        SitePage(
            f"<html><head><title>Section {n} news</title></head><body><p>Section {n} today</p></body></html>",
            f"https://example.test/s{n}",
        )
        for n in range(6)
    ]
    method = KMib(params=KMibParams(toc_blocks=True))
    method.learn(posts)
    result = method.extract(PAGE, "https://example.test/")
    assert find_block(result.blocks, "Section 4").is_content
    assert "TOC block" in find_block(result.blocks, "Section 4").reason
    assert not find_block(result.blocks, "Share").is_content


def test_without_other_pages_cii_counts_terms() -> None:
    result = KMib().extract(PAGE)
    assert find_block(result.blocks, "Part 5.").is_content
    assert "CII counts terms" in result.reason


def test_whizzy_posts(shared_dir: Path) -> None:
    scores = [score for _, score in whizzy_extractions(shared_dir, KMib(), slice(15))]
    assert sum(score.recall for score in scores) / len(scores) > 0.8
    assert sum(score.precision for score in scores) / len(scores) > 0.7
