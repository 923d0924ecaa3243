"""Focused crawling (`crawler.focus`): the topic arguments, and link priorities from where links sit."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.settings import Settings

from crawler import default_settings
from crawler.checks import settings_group
from crawler.focus import Focus, FocusWeights, Saturation, parse_topic
from extraction import ExtractionConfig, extract
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
    assert parse_topic(None, None) is None
    assert parse_topic("Growing tomatoes", None).terms == ("grow", "tomato")  # type: ignore[union-attr]
    path = tmp_path / "topic.txt"
    path.write_text("Tomatoes: sowing, planting out and pinching side shoots.\n", encoding="utf-8")
    assert parse_topic(None, str(path)).terms[:2] == ("tomato", "sow")  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="not both"):
        parse_topic("tomatoes", str(path))
    with pytest.raises(ValueError, match="topic_file"):
        parse_topic(None, str(tmp_path / "missing.txt"))


def test_a_content_link_outranks_a_menu_link_of_equal_words() -> None:
    result = extract(PAGE, url="http://garden.test/notes/may", config=ExtractionConfig(anchor_texts=True))
    focus = Focus(Topic.of("growing tomatoes"), weights())
    priorities = focus.priorities(result, focus.page_relevance(result))
    assert priorities["http://garden.test/guide/tomatoes"] > priorities["http://garden.test/menu/tomatoes"]
    assert priorities["http://garden.test/menu/tomatoes"] > priorities["http://garden.test/about"]


def test_without_the_block_signal_equal_words_rank_equal() -> None:
    result = extract(PAGE, url="http://garden.test/notes/may", config=ExtractionConfig(anchor_texts=True))
    focus = Focus(Topic.of("growing tomatoes"), weights(FOCUS_BLOCK_SIGNAL=False))
    priorities = focus.priorities(result, focus.page_relevance(result))
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
