"""Seed 004's site style tree as a method: blocks under the page's noisy element nodes are noise."""

from __future__ import annotations

from pathlib import Path

from extraction.methods.base import SitePage
from extraction.methods.styletree import SiteStyleTree
from tests.extraction.methods.sites import whizzy_extractions
from tests.extraction.pages import find_block

TEMPLATE = """<html><body><div><a href="/">Home</a> <a href="/news">News</a></div><div>{article}</div>
<p>Copyright the site, all rights reserved.</p></body></html>"""
STORIES = (
    "<h1>Elephants</h1><p>Elephants crossed the river at dawn.</p>",
    "<h1>Markets</h1><p>Markets fell.</p><p>Traders weighed the bank's decision.</p>",
    "<h2>Festival</h2><p>Heavy rain soaked the festival.</p>",
)


def test_template_nodes_are_noise_and_new_content_is_kept() -> None:
    method = SiteStyleTree()
    method.learn([SitePage(TEMPLATE.format(article=story)) for story in STORIES])
    result = method.extract(TEMPLATE.format(article="<h1>Glacier</h1><p>A glacier retreats.</p><p>Fast.</p>"))
    assert find_block(result.blocks, "A glacier retreats.").is_content
    for template in ("Home", "Copyright the site"):
        block = find_block(result.blocks, template)
        assert not block.is_content and "noisy element node" in block.reason


def test_a_page_seen_twice_counts_once() -> None:
    method = SiteStyleTree()
    page = SitePage(TEMPLATE.format(article=STORIES[0]))
    method.learn([page, page])
    assert method.tree.pages == 1


def test_without_other_pages_nothing_is_noise() -> None:
    method = SiteStyleTree()
    page = SitePage(TEMPLATE.format(article=STORIES[0]))
    method.learn([page])
    result = method.extract(page.html)
    assert all(block.is_content for block in result.blocks)
    assert "no other page" in result.reason


def test_whizzy_posts(shared_dir: Path) -> None:
    extractions = whizzy_extractions(shared_dir, SiteStyleTree(), slice(15))
    assert sum(score.recall for _, score in extractions) / len(extractions) > 0.9
    assert not find_block(extractions[0].result.blocks, "Recent Posts").is_content
