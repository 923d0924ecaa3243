"""Template slots: how much each place of the template varies, and where the content region lies."""

from __future__ import annotations

from extraction.result import Block, BlockKind, Label
from extraction.site_models.frequency import BlockFrequency, block_key
from extraction.site_models.slots import TemplateSlots, id_group, in_region, page_region

ARTICLE = "body/div.main/article/p"
HEADING = "body/div.main/article/h2"
BYLINE = "body/div.main/article/footer/p"
SIDEBAR = "body/aside/ul/li"


def _page(number: int) -> list[Block]:
    """One page: a new article paragraph and heading, a byline and a sidebar line repeated on every page."""
    return [
        Block(0, ARTICLE, "p", BlockKind.PARAGRAPH, f"Story {number} " * 40, label=Label.CONTENT),
        Block(0, HEADING, "h2", BlockKind.HEADING, f"Part {number} " * 12, label=Label.CONTENT),
        Block(1, BYLINE, "p", BlockKind.PARAGRAPH, "Posted by will", label=Label.CONTENT),
        Block(2, SIDEBAR, "li", BlockKind.LIST_ITEM, "Recent posts"),
    ]


def _observe(slots: TemplateSlots, frequency: BlockFrequency, blocks: list[Block]) -> None:
    """Count a page as a site model does: its shapes' page counts first, then the slots."""
    keys = [block_key(block, 80) for block in blocks]
    shapes = frequency.observe(keys)
    slots.observe([(block, key.slot) for block, key in zip(blocks, keys, strict=True)], shapes)


def _slots(pages: int) -> TemplateSlots:
    slots, frequency = TemplateSlots(), BlockFrequency()
    for number in range(pages):
        _observe(slots, frequency, _page(number))
    return slots


def test_a_slot_of_new_texts_is_important_and_one_of_the_same_text_is_not() -> None:
    slots = _slots(6)
    assert slots.importance(ARTICLE) == 1.0
    assert slots.importance(BYLINE) == 0.0
    assert slots.distinct(ARTICLE) == 6
    assert slots.distinct(SIDEBAR) == 1


def test_the_region_is_the_deepest_path_holding_most_content_text() -> None:
    region = _slots(6).region(0.8)
    assert region == "body/div.main/article"
    assert in_region(ARTICLE, region)
    assert not in_region(SIDEBAR, region)


def test_blocks_without_a_path_do_not_loop_the_region_search() -> None:
    slots = TemplateSlots()
    block = Block(0, "", "p", BlockKind.PARAGRAPH, "Text", label=Label.CONTENT)
    _observe(slots, BlockFrequency(), [block])
    assert slots.region(0.8) is None


def test_the_region_is_a_container_not_the_slot_of_the_paragraphs_it_holds() -> None:
    # A book's text is all paragraphs in one slot; its side notes sit beside them, in the same section.
    paragraph, note = "body/div.section/div.para", "body/div.section/div.sidebar/div.para"
    slots, frequency = TemplateSlots(), BlockFrequency()
    for number in range(6):
        block = Block(
            0, paragraph, "div", BlockKind.PARAGRAPH, f"Chapter {number} " * 40, label=Label.CONTENT
        )
        _observe(slots, frequency, [block])
    region = slots.region(0.8)
    assert region == "body/div.section"
    assert in_region(note, region)


def test_a_pages_own_region_is_a_container_too() -> None:
    content = [("body/div.chapter/div.para", 900), ("body/div.other/p", 100)]
    assert page_region(content, 0.8, "body/div.section") == "body/div.chapter"


def test_sections_told_apart_by_their_ids_alone_form_the_region_together() -> None:
    # As on SQLAlchemy's documentation (Sphinx): each page's content is a `<section id=...>` of its own, in
    # the same container as the sidebar's table of contents, which is unique to each page too.
    slots, frequency = TemplateSlots(), BlockFrequency()
    for number in range(6):
        text = Block(
            0,
            f"body/div.body/section#part-{number}/p",
            "p",
            BlockKind.PARAGRAPH,
            f"Part {number} " * 40,
            label=Label.CONTENT,
        )
        toc = Block(1, "body/div.body/div#sidebar/ul/li", "li", BlockKind.LIST_ITEM, f"Part {number}")
        _observe(slots, frequency, [text, toc])
    region = slots.region(0.8)
    assert region == "body/div.body/section"
    assert in_region("body/div.body/section#part-9/div.note/p", region)
    assert in_region("body/div.body/section/p", region)
    assert not in_region("body/div.body/div#sidebar/ul/li", region)
    assert not in_region("body/div.body/sectionx#a/p", region)
    assert id_group("body/div.body/section#part-1") == "body/div.body/section"
    assert id_group("body/div.sect1#id-1.2") == "body/div.sect1#id-1.2"  # a class names it, not its id
