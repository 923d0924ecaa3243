"""features: seed 002's NLTD, NATD, PMD, noise score F and content weight against hand-computed values."""

from __future__ import annotations

import pytest

from extraction import ExtractionConfig
from extraction.features import PageTotals, compute_features, count_noise_words
from tests.extraction.pages import DOCS, NEWS, fixture_text, segment_html

# Four blocks, counted by hand:
#   A "Alpha beta, gamma."        18 chars, no link,               2 punctuation marks
#   B "Link text and more"        18 chars, one link of 9 chars,   0 punctuation marks
#   C "Home"                       4 chars, one link of 4 chars,   0 punctuation marks
#   D "Mail me@example.org now!"  24 chars, no link, one e-mail,   2 punctuation marks ('.' and '!')
# Page totals: text 64, non-link text 64 - 9 - 4 = 51, links 2, punctuation 4, e-mails 1.
TINY_PAGE = (
    "<html><body><p>Alpha beta, gamma.</p><p><a href='/x'>Link text</a> and more</p>"
    "<p><a href='/home'>Home</a></p><p>Mail me@example.org now!</p></body></html>"
)
CONFIG = ExtractionConfig()


def test_raw_counts_and_page_totals_of_the_tiny_page() -> None:
    blocks = segment_html(TINY_PAGE).blocks
    assert [block.text for block in blocks] == [
        "Alpha beta, gamma.",
        "Link text and more",
        "Home",
        "Mail me@example.org now!",
    ]
    totals = compute_features(blocks, CONFIG)
    assert totals == PageTotals(
        text=64,
        non_link_text=51,
        links=2,
        images=0,
        image_size=0,
        interactions=0,
        forms=0,
        emails=1,
        punctuation=4,
    )


def test_nltd_natd_pmd_by_hand() -> None:
    blocks = segment_html(TINY_PAGE).blocks
    compute_features(blocks, CONFIG)
    nltd = [block.features.nltd for block in blocks]
    natd = [block.features.natd for block in blocks]
    pmd = [block.features.pmd for block in blocks]
    assert nltd == pytest.approx([0.0, 9 / 18, 1.0, 0.0])
    assert natd == pytest.approx([18 / 51, 9 / 51, 0.0, 24 / 51])
    assert pmd == pytest.approx([2 / 4, 0.0, 0.0, 2 / 4])
    assert [block.features.position for block in blocks] == pytest.approx([0.0, 0.25, 0.5, 0.75])


def test_noise_score_by_hand() -> None:
    blocks = segment_html(TINY_PAGE).blocks
    compute_features(blocks, CONFIG)
    # F = 0.2 * (e-mail share + link share + hub + interaction share + form share); the hub term is 1 only
    # when NLTD is strictly above 0.5, so B (NLTD exactly 0.5) is not a hub and C (NLTD 1) is.
    expected = [0.0, 0.2 * (1 / 2), 0.2 * (1 / 2 + 1), 0.2 * 1]
    assert [block.features.noise_score for block in blocks] == pytest.approx(expected)


def test_content_weight_by_hand() -> None:
    blocks = segment_html(TINY_PAGE).blocks
    compute_features(blocks, CONFIG)
    # (1 - NLTD) + NATD + 0.7 * PMD
    expected = [1 + 18 / 51 + 0.7 * 0.5, 0.5 + 9 / 51, 0.0, 1 + 24 / 51 + 0.7 * 0.5]
    assert [block.features.content_weight for block in blocks] == pytest.approx(expected)


FOUR_NOISE_WORDS = "Contact us, privacy policy, terms of use, copyright 2019."
FIVE_NOISE_WORDS = "Contact us, privacy policy, terms of use, copyright 2019, sitemap."


def single_block_weight(text: str, config: ExtractionConfig = CONFIG) -> float:
    (block,) = segment_html(f"<body><p>{text}</p></body>").blocks
    compute_features([block], config)
    return block.features.content_weight


def test_noise_words_are_counted_once_each() -> None:
    assert count_noise_words(FOUR_NOISE_WORDS) == 4
    assert count_noise_words(FIVE_NOISE_WORDS) == 5
    assert count_noise_words("COOKIE cookie Cookies cookie cookie") == 1
    assert count_noise_words("A plain sentence about cooking.") == 0


def test_noise_word_penalty_applies_at_five_words() -> None:
    # One block alone on its page: NLTD 0, NATD 1, PMD 1, so the weight before any penalty is 2.7.
    assert single_block_weight(FOUR_NOISE_WORDS) == pytest.approx(2.7)
    assert single_block_weight(FIVE_NOISE_WORDS) == pytest.approx(2.7 - 0.6)


def test_noise_word_penalty_follows_the_config() -> None:
    assert single_block_weight(FIVE_NOISE_WORDS, ExtractionConfig(noise_word_count=6)) == pytest.approx(2.7)
    penalised = single_block_weight(FIVE_NOISE_WORDS, ExtractionConfig(noise_word_penalty=1.0))
    assert penalised == pytest.approx(1.7)


def test_densities_on_a_real_page_are_shares_of_the_page() -> None:
    for name in (NEWS, DOCS):
        blocks = segment_html(fixture_text(name)).blocks
        totals = compute_features(blocks, CONFIG)
        # Joined table cells' " | " separators are not page text, so they are not counted.
        separators = sum(3 * block.text.count(" | ") for block in blocks)
        assert totals.text == sum(len(block.text) for block in blocks) - separators
        assert sum(block.features.natd for block in blocks) == pytest.approx(1.0)
        assert sum(block.features.pmd for block in blocks) == pytest.approx(1.0)
        for block in blocks:
            assert 0.0 <= block.features.nltd <= 1.0
            assert 0.0 <= block.features.noise_score <= 1.0


def test_link_only_blocks_of_a_real_page_are_hubs() -> None:
    blocks = segment_html(fixture_text(NEWS)).blocks
    compute_features(blocks, CONFIG)
    promo = next(block for block in blocks if block.text == "GET FOX BUSINESS ON THE GO BY CLICKING HERE")
    prose = next(block for block in blocks if block.text.startswith("The home-improvement retailer earned"))
    assert promo.features.nltd == 1.0
    assert promo.features.content_weight < 0.1 < 1.0 < prose.features.content_weight
    assert promo.features.noise_score > prose.features.noise_score == 0.0
