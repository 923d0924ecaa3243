"""Lin & Ho's entropy: template blocks score high, an article's own paragraphs low."""

from __future__ import annotations

import statistics

from extraction import ExtractionResult
from extraction.site_models.entropy import TermEntropy, greedy_threshold, terms
from tests.extraction.pages import find_block
from tests.extraction.site_models.pages import HEATING_POST


def _entropy(posts: dict[str, ExtractionResult]) -> TermEntropy:
    entropy = TermEntropy()
    for post in posts.values():
        entropy.observe(post.blocks)
    return entropy


def test_terms_drop_stop_words_and_numbers() -> None:
    assert terms("The Pi is on the wall, 240V since 2014") == ["pi", "wall", "since"]


def test_template_blocks_score_high_and_paragraphs_low(whizzy_posts: dict[str, ExtractionResult]) -> None:
    entropy = _entropy(whizzy_posts)
    page = whizzy_posts[HEATING_POST]
    for snippet in ("Recent Posts", "Comments have moved to Github Discussions"):
        template = entropy.block_entropy(find_block(page.blocks, snippet).text)
        assert template is not None and template > 0.9
    paragraphs = [
        value
        for block in page.content_blocks
        if len(block.text) > 200 and (value := entropy.block_entropy(block.text)) is not None
    ]
    assert statistics.median(paragraphs) < 0.3


def test_greedy_threshold_separates_template_from_article(whizzy_posts: dict[str, ExtractionResult]) -> None:
    entropy = _entropy(whizzy_posts)
    page = whizzy_posts[HEATING_POST]
    scored = [
        (value, terms(block.text))
        for block in page.blocks
        if (value := entropy.block_entropy(block.text)) is not None
    ]
    threshold = greedy_threshold(scored, 0.1, 0.02, 0.5)
    sidebar = entropy.block_entropy(find_block(page.blocks, "Recent Posts").text)
    assert sidebar is not None and sidebar > threshold
    article = [
        value
        for block in page.content_blocks
        if len(block.text) > 200 and (value := entropy.block_entropy(block.text)) is not None
    ]
    assert sum(value <= threshold for value in article) >= 0.9 * len(article)


def test_one_page_has_no_entropy() -> None:
    entropy = TermEntropy()
    entropy.observe([])
    assert entropy.term_entropy("anything") == 0.0
    assert entropy.block_entropy("42") is None
