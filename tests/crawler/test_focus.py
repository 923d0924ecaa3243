"""Focused crawling (`crawler.focus`): the topic arguments, and link priorities from where links sit."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.settings import Settings

from crawler import default_settings
from crawler.checks import settings_group
from crawler.focus import Focus, FocusWeights, Saturation, block_runs, parse_topic
from extraction import Block, ExtractionConfig, ExtractionResult, Label, extract
from extraction.topic import Topic

# A menu and an article that link with the same words: the article's link sits in content.
PAGE = """<!DOCTYPE html><html><head><title>Garden notes</title></head><body>
<nav class="menu"><ul><li><a href="/menu/tomatoes">Growing tomatoes</a></li>
<li><a href="/about">About</a></li>
<li><a href="/contact">Contact</a></li><li><a href="/archive">Archive</a></li></ul></nav>
<article><h1>Garden notes for May</h1>
<p>May is the month to plant out tomatoes, once the last frost has gone and the soil is warm. Water them
deeply twice a week and pinch out the side shoots; our guide on <a href="/guide/tomatoes">growing tomatoes</a>
has the details, with the varieties that did best here.</p>
<p>The beans went in at the same time, and the courgettes a week later, under fleece for the first nights.</p>
</article><footer><p>Copyright the Garden Club</p></footer></body></html>"""


def weights(**settings: object) -> FocusWeights:
    """The focus weights of the default settings, but for `settings`."""
    values = Settings()
    values.setmodule(default_settings)
    values.setdict(settings)
    return settings_group(FocusWeights, values, "FOCUS_")


def test_parse_topic_reads_words_or_a_file(tmp_path: Path) -> None:
    assert parse_topic(None, None) == (None, ())
    assert parse_topic("Growing tomatoes", None) == (Topic.of("Growing tomatoes"), ())
    path = tmp_path / "topic.txt"
    path.write_text("Tomatoes: sowing, planting out and pinching side shoots.\n", encoding="utf-8")
    topic, examples = parse_topic(None, str(path))
    assert topic is not None and topic.terms[:2] == ("tomato", "sow") and examples == ()
    with pytest.raises(ValueError, match="not both"):
        parse_topic("tomatoes", str(path))
    with pytest.raises(ValueError, match="topic_file"):
        parse_topic(None, str(tmp_path / "missing.txt"))


def test_a_topic_file_of_urls_names_example_pages(tmp_path: Path) -> None:
    path = tmp_path / "examples.txt"
    path.write_text(
        "https://garden.test/tomatoes\n\nhttp://garden.test/beans\nhttps://garden.test/tomatoes\n"
    )
    assert parse_topic(None, str(path)) == (
        None,
        ("https://garden.test/tomatoes", "http://garden.test/beans"),
    )
    # A line that is not a URL makes the file a text: its words are the topic.
    path.write_text("https://garden.test/tomatoes\ntomatoes and beans\n")
    topic, examples = parse_topic(None, str(path))
    assert examples == () and topic is not None and "tomato" in topic.terms


def test_a_content_link_outranks_a_menu_link_of_equal_words() -> None:
    result = extract(PAGE, url="http://garden.test/notes/may", config=ExtractionConfig(anchor_texts=True))
    focus = Focus(Topic.of("growing tomatoes"), weights())
    focus.page_relevance(result)
    priorities = focus.priorities(result)
    assert priorities["http://garden.test/guide/tomatoes"] > priorities["http://garden.test/menu/tomatoes"]
    assert priorities["http://garden.test/menu/tomatoes"] > priorities["http://garden.test/about"]


def test_without_the_block_signal_equal_words_rank_equal() -> None:
    result = extract(PAGE, url="http://garden.test/notes/may", config=ExtractionConfig(anchor_texts=True))
    focus = Focus(Topic.of("growing tomatoes"), weights(FOCUS_BLOCK_SIGNAL=False))
    focus.page_relevance(result)
    priorities = focus.priorities(result)
    assert priorities["http://garden.test/guide/tomatoes"] == priorities["http://garden.test/menu/tomatoes"]


def test_saturation_comes_when_relevant_pages_stop_bringing_new_words() -> None:
    saturation = Saturation(pages=3, new_share=0.2)
    saturation.add(["tomato", "seed", "sowing", "compost"])
    saturation.add(["tomato", "pinching", "side", "shoots"])
    assert not saturation.saturated  # two pages only
    saturation.add(["tomato", "seed", "compost", "water"])  # one new word of four
    assert not saturation.saturated  # (1 + 0.75 + 0.25) / 3 new on average
    for _ in range(3):
        saturation.add(["tomato", "seed", "sowing", "compost"])
    assert saturation.saturated
    assert not Saturation(pages=0, new_share=0.2).saturated


def test_block_runs_are_consecutive_blocks_of_one_path() -> None:
    menu, article = "body/nav/ul/li", "body/main/p"
    paths = [menu, menu, "body/main/h1", article, article, menu]
    runs = block_runs([Block(position, path) for position, path in enumerate(paths)])
    assert runs == [(0, 2), (0, 2), (2, 3), (3, 5), (3, 5), (5, 6)]
    assert block_runs([]) == []


# Two lists of links in a page's content: the same anchor words, in a list about the topic and in another.
LISTS = """<!DOCTYPE html><html><head><title>Garden guides</title></head><body><main><h1>Guides</h1>
<p>Every guide the club has written over the years, with the notes of the members who tried them out.</p>
<h2>Vegetables</h2><ul><li><a href="/veg/sowing">Sowing tomatoes under glass</a></li>
<li><a href="/veg/pinching">Pinching out tomato side shoots</a></li>
<li><a href="/veg/watering">Watering</a></li></ul>
<h2>The club</h2><ul><li><a href="/club/history">Our history</a></li>
<li><a href="/club/watering">Watering</a></li><li><a href="/club/hours">Opening hours</a></li></ul>
</main></body></html>"""


def test_a_link_is_judged_by_the_list_it_sits_in() -> None:
    result = extract(LISTS, url="http://garden.test/guides", config=ExtractionConfig(anchor_texts=True))
    focus = Focus(Topic.of("growing tomatoes"), weights())
    focus.page_relevance(result)
    priorities = focus.priorities(result)
    assert priorities["http://garden.test/veg/watering"] > priorities["http://garden.test/club/watering"]
    plain = Focus(Topic.of("growing tomatoes"), weights(FOCUS_BLOCK_SIGNAL=False))
    plain.page_relevance(result)
    priorities = plain.priorities(result)
    assert priorities["http://garden.test/veg/watering"] == priorities["http://garden.test/club/watering"]


def _page(labels: list[Label]) -> ExtractionResult:
    """A page of one-line blocks, each with a link of the same words, labelled `labels`."""
    blocks = [
        Block(position, "body/div/ul/li", text="Growing tomatoes", label=label)
        for position, label in enumerate(labels)
    ]
    return ExtractionResult(
        url="http://garden.test/",
        title="Guides",
        blocks=blocks,
        hrefs=[f"/page-{position}" for position in range(len(labels))],
        href_blocks=list(range(len(labels))),
        href_texts=["Growing tomatoes"] * len(labels),
        base_url="http://garden.test/",
    )


def test_a_page_whose_content_holds_no_link_keeps_its_lists_whole() -> None:
    # A contents page judged alone: its list of links is all noise. Demoted only beside content links.
    focus = Focus(Topic.of("growing tomatoes"), weights())
    undemoted = Focus(Topic.of("growing tomatoes"), weights(FOCUS_TEMPLATE_FACTOR=1.0))
    hub = _page([Label.NOISE, Label.NOISE])
    assert focus.priorities(hub) == undemoted.priorities(hub)
    mixed = focus.priorities(_page([Label.CONTENT, Label.NOISE]))
    assert mixed["http://garden.test/page-1"] < mixed["http://garden.test/page-0"]


def test_a_link_is_judged_by_its_url_words_as_well_as_its_anchor() -> None:
    page = extract(
        """<html><head><title>Club news</title></head><body><main><h1>News</h1>
        <p>What the members wrote this month, <a href="/growing-tomatoes-under-glass">read on</a>, and
        <a href="/opening-hours">read on</a> for the new opening hours of the allotments.</p>
        </main></body></html>""",
        url="http://garden.test/news",
        config=ExtractionConfig(anchor_texts=True),
    )
    focus = Focus(Topic.of("growing tomatoes"), weights())
    focus.page_relevance(page)
    priorities = focus.priorities(page)
    assert (
        priorities["http://garden.test/growing-tomatoes-under-glass"]
        > priorities["http://garden.test/opening-hours"]
    )


def test_a_page_whose_title_names_the_topic_lifts_its_links() -> None:
    focus = Focus(Topic.of("growing tomatoes"), weights())
    about, other = _page([Label.CONTENT]), _page([Label.CONTENT])
    about.title = "Growing tomatoes"
    assert (
        focus.priorities(about)["http://garden.test/page-0"]
        > focus.priorities(other)["http://garden.test/page-0"]
    )
