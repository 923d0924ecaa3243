"""The revise step: siblings and repeated records join the area; stranded short blocks leave it."""

from __future__ import annotations

from extraction import ExtractionConfig, Label, extract
from extraction.result import Block, BlockFeatures, BlockKind
from extraction.revise import drop_stranded_short_blocks
from tests.extraction.pages import find_block

PROSE = (
    "The committee met on Tuesday to discuss the budget, and after a long debate it agreed, with two "
    "abstentions, to fund the new library for another three years."
)


def _block(position: int, text: str, label: Label) -> Block:
    features = BlockFeatures(text_length=len(text))
    return Block(position, "/body/div", "p", BlockKind.PARAGRAPH, text, features, label)


def test_short_content_between_noise_is_dropped() -> None:
    blocks = [
        _block(0, "Home About Contact Shop Blog Careers Press", Label.NOISE),
        _block(1, "In stock!", Label.CONTENT),
        _block(2, "Add to cart", Label.CONTENT),
        _block(3, "Copyright 2024 Example Ltd. All rights reserved.", Label.NOISE),
    ]
    drop_stranded_short_blocks(blocks, ExtractionConfig())
    assert [block.label for block in blocks] == [Label.NOISE] * 4
    assert blocks[1].reason == "short text between noise blocks"


def test_short_heading_next_to_content_stays() -> None:
    blocks = [
        _block(0, "Home About Contact Shop Blog Careers Press", Label.NOISE),
        _block(1, "Library funding", Label.CONTENT),
        _block(2, PROSE, Label.CONTENT),
    ]
    drop_stranded_short_blocks(blocks, ExtractionConfig())
    assert blocks[1].label is Label.CONTENT


def test_a_product_page_drops_its_buttons_but_keeps_its_description() -> None:
    html = (
        '<html><body><nav><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/c">Contact us</a></nav>'
        '<main><div class="buy"><p>$549.00</p><p>Add to cart</p></div>'
        f'<div class="description"><h2>About this microphone</h2><p>{PROSE}</p><p>{PROSE}</p></div></main>'
        "<footer><p>Copyright 2024 Example Ltd. All rights reserved, everywhere.</p></footer></body></html>"
    )
    result = extract(html)
    assert find_block(result.blocks, "About this microphone").is_content
    assert find_block(result.blocks, PROSE).is_content
    assert not find_block(result.blocks, "Add to cart").is_content
