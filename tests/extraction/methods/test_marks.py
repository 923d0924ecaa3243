"""Decisions on DOM elements carried over to the segmenter's blocks."""

from __future__ import annotations

from extraction.config import ExtractionConfig
from extraction.dom import clean_tree, parse_html
from extraction.methods.marks import block_marks, mark
from extraction.segment import segment


def test_blocks_find_their_nearest_marked_ancestor_and_paths_lose_the_marks() -> None:
    root = parse_html(
        "<html><body><div id='a' class='box'><p>one</p><p>two <b>three</b> <span>four</span></p></div>"
        "<p>five</p></body></html>"
    ).root
    assert root is not None
    body = clean_tree(root)
    assert body is not None
    box, second = body.xpath("//div")[0], body.xpath("//p")[1]
    span = body.xpath("//span")[0]
    mark(box, 3)
    mark(second, 12)
    mark(span, 7)
    page = segment(body, ExtractionConfig())
    assert [block.text for block in page.blocks] == ["one", "two three", "four", "five"]
    assert block_marks(page) == [3, 12, 7, -1]
    assert [block.path for block in page.blocks] == [
        "body/div#a.box/p",
        "body/div#a.box/p",
        "body/div#a.box/p/div",
        "body/p",
    ]
