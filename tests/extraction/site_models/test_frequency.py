"""Block frequency: per-page counts of exact texts and of near-identical shapes."""

from __future__ import annotations

from extraction import ExtractionResult
from extraction.result import Block, BlockKind
from extraction.site_models import SiteModelConfig
from extraction.site_models.frequency import BlockFrequency, BlockKey, block_key, mask_text
from tests.extraction.pages import find_block
from tests.extraction.site_models.pages import HEATING_POST

SHAPE_MAX_CHARS = SiteModelConfig().shape_max_chars


def _key(block: Block) -> BlockKey:
    return block_key(block, SHAPE_MAX_CHARS)


def _frequency(posts: dict[str, ExtractionResult]) -> BlockFrequency:
    frequency = BlockFrequency()
    for post in posts.values():
        frequency.observe([_key(block) for block in post.blocks])
    return frequency


def test_sidebar_block_is_on_every_page(whizzy_posts: dict[str, ExtractionResult]) -> None:
    frequency = _frequency(whizzy_posts)
    sidebar = find_block(whizzy_posts[HEATING_POST].blocks, "Recent Posts", exact=True)
    assert frequency.pages_of([_key(sidebar)])[0][0] == frequency.pages == len(whizzy_posts)


def test_article_paragraph_is_on_one_page(whizzy_posts: dict[str, ExtractionResult]) -> None:
    frequency = _frequency(whizzy_posts)
    paragraph = max(whizzy_posts[HEATING_POST].content_blocks, key=lambda block: len(block.text))
    assert frequency.pages_of([_key(paragraph)])[0][0] == 1


def test_a_block_repeated_on_a_page_counts_once() -> None:
    block = Block(0, "body/p", "p", BlockKind.PARAGRAPH, "Share this post")
    frequency = BlockFrequency()
    frequency.observe([_key(block)] * 3)
    assert frequency.pages_of([_key(block)])[0][0] == 1


def test_a_dated_line_s_names_are_masked_but_a_heading_s_are_not() -> None:
    first = "Submitted by Robert Wall on Mon, 03/06/2013 - 21:44."
    second = "Submitted by PhilThy on Tue, 04/06/2013 - 10:12."
    masked = "Submitted by X on X, 0/0/0 - 0:0."
    assert mask_text(first, names=True) == mask_text(second, names=True) == masked
    assert mask_text(first) != mask_text(second)
    # Without a date, the names are the text: "Chapter 5. Server Setup" is no byline.
    assert mask_text("Chapter 5. Server Setup", names=True) == "Chapter 0. Server Setup"
    slot = "body/div.node/span.submitted"
    headings = [Block(0, slot, "h2", BlockKind.HEADING, f"{name} on 3 May 2014") for name in ("Jazz", "Poem")]
    assert _key(headings[0]).shape != _key(headings[1]).shape
    lines = [Block(0, slot, "span", BlockKind.TEXT, f"By {name} on 3 May 2014") for name in ("Ann Lee", "Bo")]
    assert _key(lines[0]).shape == _key(lines[1]).shape


def test_changing_dates_share_a_shape() -> None:
    assert mask_text("Posted on 12 May 2014") == mask_text("Posted on  3 June 2019") == "Posted on 0 0 0"
    rows = [Block(0, "body/table/tr", "tr", BlockKind.TABLE_ROW, text) for text in ("1 | 3 | 4", "2 | 7")]
    assert [_key(row).shape for row in rows] == [None, None]


def test_a_long_block_is_its_own_shape() -> None:
    long = "Posted on 12 May 2014. " * 20
    assert (
        _key(Block(0, "body/p", "p", BlockKind.PARAGRAPH, long)).shape
        == _key(Block(0, "body/p", "p", BlockKind.PARAGRAPH, long)).shape
    )
    other = long.replace("2014", "2019")
    assert (
        _key(Block(0, "body/p", "p", BlockKind.PARAGRAPH, other)).shape
        != _key(Block(0, "body/p", "p", BlockKind.PARAGRAPH, long)).shape
    )


def test_post_date_line_counts_as_repeated(whizzy_posts: dict[str, ExtractionResult]) -> None:
    frequency = _frequency(whizzy_posts)
    meta = find_block(whizzy_posts[HEATING_POST].blocks, "Posted by will / ")
    assert frequency.pages_of([_key(meta)])[0][0] < frequency.pages / 2
    assert frequency.pages_of([_key(meta)])[0][1] == frequency.pages


def test_threshold_is_a_share_with_a_floor() -> None:
    frequency = BlockFrequency(pages=3)
    assert frequency.threshold(0.5, 2) == 2
    frequency.pages = 45
    assert frequency.threshold(0.5, 2) == 23
