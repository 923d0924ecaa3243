"""Seed 002's raw chunks: the noise score rules chunks out, the content weight picks the tag window."""

from __future__ import annotations

from extraction.config import ExtractionConfig
from extraction.methods.chunkweight import ChunkWeight, ChunkWeightParams
from tests.extraction.pages import NEWS, find_block, fixture_bytes

PROSE = "The council met on Tuesday, and after a long debate, it approved the budget; the vote was close. "
NAV = "".join(f'<li><a href="/section/{n}">Section {n}</a></li>' for n in range(5))
# Five of seed 002's noise words: a window holding this footer loses 0.6 of its weight.
FOOTER = "Contact us. Copyright 2024, all rights reserved. Privacy policy. Terms of use. About us."
PAGE = f"""<html><body>
<div id="header"><ul>{NAV}</ul></div>
<div id="article"><h1>Budget approved</h1><p>{PROSE * 5}</p><p>{PROSE * 4}</p></div>
<div id="footer"><p>{FOOTER}</p></div>
</body></html>"""


def test_the_noise_words_move_the_weight_from_the_body_to_the_article() -> None:
    # The body holds all the text and punctuation (NATD = PMD = 1) but also the footer's noise words.
    blocks = ChunkWeight().extract(PAGE).blocks
    assert find_block(blocks, "The council met").is_content
    assert find_block(blocks, "Budget approved").is_content
    for noise in ("Section 3", "Contact us"):
        assert not find_block(blocks, noise).is_content


def test_without_the_penalty_the_whole_body_weighs_most() -> None:
    blocks = ChunkWeight(ExtractionConfig(noise_word_penalty=0.0)).extract(PAGE).blocks
    assert all(block.is_content for block in blocks)


def test_every_window_is_scanned_for_noise_words() -> None:
    # cleancrawl scans only short blocks for noise words; seed 002 penalises a window of any length.
    params = ChunkWeightParams(noise_word_max_chars=400)
    assert find_block(ChunkWeight(params=params).extract(PAGE).blocks, "Contact us").is_content


def test_a_chunk_over_the_noise_threshold_is_removed_from_the_window() -> None:
    # The box holds most of the page's links (a hub: anchor text dominates) and its only e-mail address:
    # F = 0.2 * (1 + 20/25 + 1) = 0.56 > 0.5, while the article around it stays under the threshold.
    links = "".join(f'<li><a href="/story/{n}">Another story {n}</a></li>' for n in range(20))
    box = f'<div id="box"><ul>{links}</ul>Write to editor@example.com</div>'
    blocks = (
        ChunkWeight()
        .extract(PAGE.replace('</p></div>\n<div id="footer">', f'</p>{box}</div>\n<div id="footer">'))
        .blocks
    )
    assert find_block(blocks, "The council met").is_content
    for noise in ("Another story 7", "Write to editor@example.com"):
        block = find_block(blocks, noise)
        assert (block.is_content, block.reason) == (
            False,
            "in a raw chunk whose noise score is over the threshold",
        )


def test_no_window_meets_the_judgment_without_punctuation() -> None:
    result = ChunkWeight().extract(PAGE.replace(".", "").replace(",", "").replace(";", ""))
    assert not result.content_blocks
    assert result.reason == "no tag window meets the content node judgment parameters"


def test_news_article_window() -> None:
    result = ChunkWeight().extract(fixture_bytes(NEWS), "https://fixture.test/news")
    assert find_block(result.blocks, "Rival Lowe's was also lower").is_content
    for noise in ("Fox Business", "Quotes delayed at least 15 minutes"):
        assert not find_block(result.blocks, noise).is_content
    assert find_block(result.blocks, "Rival Lowe's").features.natd > 0, "block features are seed 002's"
