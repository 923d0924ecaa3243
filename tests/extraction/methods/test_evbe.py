"""Seed 003's EVBE (visual blocks by rules 1 to 10, from the page's CSS) and EIFCE (the informative block)."""

from __future__ import annotations

from collections import defaultdict

from extraction.config import ExtractionConfig
from extraction.methods.evbe import Evbe, EvbeParams, visual_blocks
from extraction.prepare import prepare
from tests.extraction.pages import NEWS, find_block, fixture_bytes

CONFIG = ExtractionConfig()
PARAMS = EvbeParams()
ARTICLE = " ".join(
    f"Sentence {n} of the article tells what happened, where, and why it matters to readers."
    for n in range(12)
)
# Fig. 4 of seed 003: masthead, then main = header + content > main-content > block-a (float left) and
# block-b (float right, clear none) whose widths add up to less than main-content's. Expected: BL1 masthead,
# BL2 header, BL3 block-a, BL4 block-b.
FIGURE_4 = f"""<html><head><style>
body {{ width: 1000px; background: #fff }}
#masthead {{ background-color: #036; color: #fff; height: 90px }}
#main, #main-content {{ width: 960px }}
.block-a {{ float: left; width: 640px }}
.block-b {{ float: right; clear: none; width: 300px }}
</style></head><body>
<div id="masthead"><h1>The Site</h1><p>News every day</p></div>
<div id="main">
  <div id="header"><h2>World news</h2><p>Today's stories from around the world.</p></div>
  <div id="content"><div id="main-content">
    <div class="block-a"><h2>River search</h2><p>{ARTICLE}</p></div>
    <div class="block-b"><ul><li><a href="/1">Other story one</a></li>
    <li><a href="/2">Other story two</a></li></ul></div>
  </div></div>
</div></body></html>"""


def groups(html: str, params: EvbeParams = PARAMS) -> list[list[str]]:
    """The texts of the page grouped by visual block, in page order."""
    prepared = prepare(html, None, CONFIG)
    assert prepared.body is not None
    visual = visual_blocks(html, None, prepared.body, CONFIG, params)
    grouped: dict[int, list[str]] = defaultdict(list)
    for block, owner in zip(visual.page.blocks, visual.owners, strict=True):
        grouped[owner].append(block.text[:20])
    return list(grouped.values())


def test_figure_4_gives_the_papers_four_blocks() -> None:
    assert groups(FIGURE_4) == [
        ["The Site", "News every day"],
        ["World news", "Today's stories from"],
        ["River search", ARTICLE[:20]],
        ["Other story one", "Other story two"],
    ]


def test_eifce_keeps_the_article_block_of_figure_4() -> None:
    result = Evbe().extract(FIGURE_4)
    assert [block.text[:12] for block in result.content_blocks] == ["River search", ARTICLE[:12]]
    assert "rule 8" in result.content_blocks[0].reason


def test_floats_that_do_not_fit_are_blocks_by_visual_distance_only() -> None:
    wide = FIGURE_4.replace("width: 300px", "width: 400px")
    result = Evbe().extract(wide)
    assert "visual distance" in result.content_blocks[0].reason


def test_rule_5_an_hr_or_an_empty_node_separates() -> None:
    html = """<html><body><div><p>First part</p><p>still first</p><hr><p>Second part</p><div></div>
    <p>Third</p></div></body></html>"""
    assert groups(html) == [["First part", "still first"], ["Second part"], ["Third"]]


def test_rule_9_borders_split_the_siblings() -> None:
    html = """<html><body><div><p>one</p><p style="border-top: 1px solid red">two</p><p>three</p>
    <p style="border-bottom: 2px solid red">four</p><p>five</p>
    <p style="border-top: 1px solid; border-bottom: 1px solid">six</p><p>seven</p></div></body></html>"""
    assert groups(html) == [["one"], ["two", "three", "four"], ["five"], ["six"], ["seven"]]


def test_rule_10_a_boxed_node_is_a_block() -> None:
    html = """<html><body><div><p>before</p><div style="border: 1px solid #ccc"><p>boxed</p></div>
    <p>after</p></div></body></html>"""
    assert groups(html) == [["before", "after"], ["boxed"]]


def test_rule_6_table_columns_of_different_backgrounds() -> None:
    rows = "".join(f"<tr><td style='background:#eee'>menu {n}</td><td>story {n}</td></tr>" for n in range(3))
    assert groups(f"<html><body><table>{rows}</table></body></html>") == [
        ["menu 0", "menu 1", "menu 2"],
        ["story 0", "story 1", "story 2"],
    ]
    plain = rows.replace(" style='background:#eee'", "")
    assert groups(f"<html><body><table>{plain}</table></body></html>") == [
        ["menu 0 | story 0", "menu 1 | story 1", "menu 2 | story 2"]
    ]


def test_rule_7_a_coloured_bar_closes_a_block() -> None:
    html = """<html><body><div><div><p>intro</p></div>
    <div><p>boxed text</p><div style="height: 4px; background: #c00"></div></div>
    <p>rest</p></div></body></html>"""
    assert ["intro"] in groups(html) and ["boxed text"] in groups(html)


def test_rule_1_hidden_nodes_are_dropped() -> None:
    html = """<html><head><style>.menu { display: none } .gone { visibility: hidden }</style></head><body>
    <ul class="menu"><li>Hidden menu</li></ul><p class="gone">Hidden text</p><p>Shown</p> tail
    </body></html>"""
    result = Evbe().extract(html)
    assert result.visible_text == "Shown\ntail"


def test_visual_distance_starts_a_block() -> None:
    html = """<html><body><div><p>plain one</p>
    <div style="background: #ffd; font-size: 12px; color: #333"><p>notice</p></div><p>plain two</p>
    </div></body></html>"""
    assert groups(html) == [["plain one", "plain two"], ["notice"]]
    assert groups(html, EvbeParams(max_visual_distance=3)) == [["plain one", "notice", "plain two"]]


def test_without_style_sheets_the_page_is_one_block() -> None:
    # The fixture's styles were trimmed away (and linked sheets are never fetched): nothing sets a block
    # apart, so EIFCE can only keep the page.
    result = Evbe().extract(fixture_bytes(NEWS))
    assert find_block(result.blocks, "Dow component Home Depot reported").is_content
    assert all("(the page;" in block.reason for block in result.blocks)
