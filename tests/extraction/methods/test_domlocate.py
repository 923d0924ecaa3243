"""Seed 001's steps as the paper states them: content node top-down, qualified siblings, no forms."""

from __future__ import annotations

from extraction.methods.domlocate import DomLocate, DomLocateParams
from tests.extraction.pages import NEWS, find_block, fixture_bytes

PROSE = "The council met on Tuesday evening, and after a long debate, it approved the budget; it was close. "
COMMENT = "I was at the meeting, and frankly, the debate was better than usual; well done to the council. "
LINKS = "".join(f'<li><a href="/section/{n}">Section number {n}</a></li>' for n in range(12))
RELATED = "".join(f'<li><a href="/story/{n}">Related story {n}</a></li>' for n in range(40))
PAGE = f"""<html><body>
<div id="nav"><ul>{LINKS}</ul></div>
<div id="main">
  <div id="article"><h1>Budget approved</h1><p>{PROSE * 4}</p><p>{PROSE * 3}</p></div>
  <div id="comments"><p>{COMMENT * 3}</p></div>
  <div id="related"><ul>{RELATED}</ul></div>
</div>
<div id="footer"><p>Contact us</p><ul>{LINKS}</ul></div>
</body></html>"""


def test_the_content_node_is_found_top_down_and_widened_by_siblings() -> None:
    # The body and #main hold too much anchor text; #article, the child with the most text that is
    # not anchor text, qualifies; on its level #comments qualifies too, #related does not.
    blocks = DomLocate().extract(PAGE).blocks
    assert find_block(blocks, "Budget approved").reason == "in the content node"
    assert find_block(blocks, "The council met").is_content
    comment = find_block(blocks, "I was at the meeting")
    assert (comment.is_content, comment.reason) == (True, "in a qualified sibling of the content node")
    for noise in ("Section number 3", "Related story 7", "Contact us"):
        assert not find_block(blocks, noise).is_content
    assert sum(block.is_content for block in blocks) == 4


def test_a_lax_link_density_stops_at_a_wrapper() -> None:
    # With no limit on anchor text the body itself qualifies: everything is content.
    blocks = DomLocate(params=DomLocateParams(max_link_density=1.0)).extract(PAGE).blocks
    assert all(block.is_content for block in blocks)


def test_no_node_qualifies_without_punctuation() -> None:
    page = PAGE.replace(".", "").replace(",", "").replace(";", "")
    result = DomLocate().extract(page)
    assert not result.content_blocks
    assert result.reason == "no node qualifies as the content node"


def test_forms_are_removed_as_unrelated_to_the_content() -> None:
    page = PAGE.replace('<div id="comments">', '<form action="/post"><div id="comments">').replace(
        '</div>\n  <div id="related">', '</div></form>\n  <div id="related">'
    )
    result = DomLocate().extract(page)
    assert "I was at the meeting" not in result.visible_text
    assert "The council met" in result.text
    kept = DomLocate(params=DomLocateParams(unrelated_tags="")).extract(page)
    assert "I was at the meeting" in kept.text


def test_news_article_is_the_content_node() -> None:
    result = DomLocate().extract(fixture_bytes(NEWS), "https://fixture.test/news")
    assert find_block(result.blocks, "Rival Lowe's was also lower").is_content
    for noise in ("Fox Business", "Quotes delayed at least 15 minutes"):
        assert not find_block(result.blocks, noise).is_content
    # The plain method keeps all of the node: the article's own advertisement slot too.
    assert find_block(result.blocks, "Advertisement", exact=True).is_content
    assert result.hrefs
