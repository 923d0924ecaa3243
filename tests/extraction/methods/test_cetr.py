"""Seed 004's CETR: tag ratios of the paper's Example 1, smoothing, and the three ways to select lines."""

from __future__ import annotations

import numpy as np
import pytest

from extraction.methods.cetr import (
    Cetr,
    CetrParams,
    away_from_origin,
    derivatives,
    smooth,
    source_lines,
    tag_ratios,
)
from tests.extraction.pages import NEWS, find_block, fixture_bytes

# Example 1 of seed 004 (line 2 is not printed there; the ". . ." marking the cut lines are left out).
EXAMPLE_1 = """<div id="topnav">
<div id="author">James Smith</div>
OKLAHOMA CITY - Police were told that
The Oklahoman reported Sunday. <br><br> Jones had"""

PROSE = "Police were told that the man had been seen near the river, and they searched the banks until dawn."
MENU = "\n".join(f'<li><a href="/s/{n}">Section {n}</a></li>' for n in range(15))
PAGE = f"""<html><body>
<ul>
{MENU}
</ul>
<div class="story">
<h1>River search</h1>
{chr(10).join(f"<p>{PROSE} {PROSE}</p>" for _ in range(8))}
</div>
<ul>
{MENU}
</ul>
</body></html>"""


def test_tag_ratios_of_example_1() -> None:
    # "Text=0, Tags=1, TR=0; Text=11, Tags=2, TR=5.5; Text=37, Tags=0, TR=37; Text=41, Tags=2, TR=20.5"
    lines = source_lines(EXAMPLE_1, 65)
    assert [(line.tags, line.chars) for line in lines] == [(1, 0), (2, 11), (0, 37), (2, 41)]
    assert lines[3].text == "The Oklahoman reported Sunday. Jones had"
    assert tag_ratios(lines).tolist() == [0.0, 5.5, 37.0, 20.5]


def test_block_level_tags_separate_words_inline_tags_do_not() -> None:
    (line,) = source_lines("<td>Price</td><td>£3</td> <b>Bold</b>ly <i>it</i>alic<br>end", 200)
    assert line.text == "Price £3 Boldly italic end"
    assert line.chars == len("Price£3 Boldly italicend")


def test_empty_lines_are_removed_and_long_lines_wrapped() -> None:
    assert len(source_lines("<p>a</p>\n\n   \n<p>b</p>", 65)) == 2
    minified = "<div>" + "<p>" + " ".join(["word"] * 60) + "</p>" * 2 + "<a>x</a>" * 20
    lines = source_lines(minified, 65)
    assert len(lines) > 4
    # A line ends at the first space once it has 65 characters (tags count: they are source characters).
    assert all(len(line.text) < 65 + len("word ") for line in lines)
    assert sum(line.tags for line in lines) == 2 + 2 + 40


def test_smoothing_keeps_a_flat_histogram_and_spreads_a_peak() -> None:
    flat = smooth(np.full(20, 7.0), sigma=1.0, radius=3)
    assert np.allclose(flat[3:-3], 7.0)
    peak = smooth(np.array([0.0] * 5 + [10.0] + [0.0] * 5), sigma=1.0, radius=3)
    assert peak.argmax() == 5 and 0 < peak[4] == peak[6] < peak[5] < 10
    assert peak.sum() == pytest.approx(10.0)


def test_derivative_is_the_distance_from_the_lines_ahead() -> None:
    assert derivatives(np.array([1.0, 4.0, 7.0, 1.0]), 3).tolist() == [3.0, 0.0, 6.0, 0.0]


def test_the_origin_cluster_is_not_content() -> None:
    points = np.array([[0.0, 0.0], [1.0, 0.5], [0.5, 1.0], [40.0, 3.0], [42.0, 1.0], [90.0, 20.0]])
    assert away_from_origin(points, 3, 100, fixed_origin=True).tolist() == [False] * 3 + [True] * 3
    ratios = np.array([0.0, 1.0, 2.0, 40.0, 41.0, 80.0])[:, None]
    assert away_from_origin(ratios, 3, 100, fixed_origin=False).tolist() == [False] * 3 + [True] * 3


@pytest.mark.parametrize("model", ["tm", "km", "2d"])
def test_each_model_keeps_the_story_and_drops_the_menus(model: str) -> None:
    blocks = Cetr(params=CetrParams(model=model)).extract(PAGE).blocks
    story = [block for block in blocks if "Police were told" in block.text]
    assert story and all(block.is_content for block in story)
    menu = [block for block in blocks if block.text.startswith("Section")]
    assert len(menu) == 30 and not any(block.is_content for block in menu)
    assert all(block.reason.startswith(f"CETR-{model.upper()}: ") for block in blocks)


def test_news_article_lines() -> None:
    result = Cetr().extract(fixture_bytes(NEWS), "https://fixture.test/news")
    assert find_block(result.blocks, "Rival Lowe's was also lower").is_content
    assert not find_block(result.blocks, "Fox Business", exact=True).is_content
    assert result.hrefs


def test_an_unknown_model_is_refused() -> None:
    with pytest.raises(ValueError, match="the CETR model must be one of"):
        Cetr(params=CetrParams(model="3d"))
