"""Page-normalised block features of seed 002: NLTD, NATD, PMD, the noise score F and the content weight."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from extraction.config import ExtractionConfig
from extraction.result import Block, BlockFeatures

# Seed 002's noise words: common in template blocks, rare together inside an article.
NOISE_WORDS = (
    "contact",
    "copyright",
    "privacy",
    "terms",
    "rights reserved",
    "about us",
    "subscribe",
    "newsletter",
    "cookie",
    "login",
    "sign in",
    "sign up",
    "follow us",
    "advertis",
    "sitemap",
    "faq",
    "careers",
)


@dataclass(frozen=True, slots=True)
class PageTotals:
    """Sums over the whole page that seed 002's equation (1) normalises by."""

    text: int
    non_link_text: int
    links: int
    images: int
    image_size: int
    interactions: int
    forms: int
    emails: int
    punctuation: int

    @classmethod
    def of(cls, blocks: list[Block]) -> PageTotals:
        """Add up the raw counts of every block."""
        # One pass with local sums: nine generator passes over the blocks cost three times as much.
        text = link_text = links = images = image_size = interactions = forms = emails = punctuation = 0
        for block in blocks:
            features = block.features
            length = features.text_length
            text += length
            link_text += min(features.link_text_length, length)
            links += features.link_count
            images += features.image_count
            image_size += features.image_size
            interactions += features.interaction_count
            forms += features.form_count
            emails += features.email_count
            punctuation += features.punctuation_count
        return cls(
            text, text - link_text, links, images, image_size, interactions, forms, emails, punctuation
        )


def compute_features(blocks: list[Block], config: ExtractionConfig) -> PageTotals:
    """Fill in the normalised features of every block and return the page totals."""
    totals = PageTotals.of(blocks)
    count = max(len(blocks), 1)
    non_link_total, punctuation_total = totals.non_link_text, totals.punctuation
    for block in blocks:
        features = block.features
        text_length = features.text_length
        link_text = features.link_text_length
        features.position = block.position / count
        if text_length:
            features.nltd = 1.0 if link_text > text_length else link_text / text_length
            non_link = text_length - link_text if link_text < text_length else 0
        else:
            features.nltd, non_link = 1.0, 0
        features.natd = non_link / non_link_total if non_link_total else 0.0
        features.pmd = features.punctuation_count / punctuation_total if punctuation_total else 0.0
        features.noise_score = noise_score(features, totals, config)
        features.content_weight = content_weight(features, block.text, config)
    return totals


def noise_score(features: BlockFeatures, totals: PageTotals, config: ExtractionConfig) -> float:
    """Seed 002's F = sum of alpha_i f_i over e-mails, links, the hub ratio, interaction elements, forms.

    Each f_i is the block's share of the page's count (equation 1); the hub feature is 1 when anchor
    text dominates the block (rule 2: TextLen / LinkTextLen under the threshold).
    """
    hub = 1.0 if features.link_text_length and features.nltd > config.max_link_density else 0.0
    shares = hub
    if totals.emails:
        shares += features.email_count / totals.emails
    if totals.links:
        shares += features.link_count / totals.links
    if totals.interactions:
        shares += features.interaction_count / totals.interactions
    if totals.forms:
        shares += features.form_count / totals.forms
    return config.noise_alpha * shares


def content_weight(features: BlockFeatures, text: str, config: ExtractionConfig) -> float:
    """Seed 002's weight (1 - NLTD) + NATD + beta * PMD, minus the penalty for many noise words.

    The paper writes NLTD with a plus sign while saying smaller values mean content; we use 1 - NLTD.
    The noise words mark template windows (a footer, a contact box), which are short: longer blocks are
    not scanned, nor blocks too short to hold `noise_word_count` of them.
    """
    weight = (1.0 - features.nltd) + features.natd + config.content_beta * features.pmd
    if (
        _shortest_text_with(config.noise_word_count) <= features.text_length <= config.noise_word_max_chars
        and count_noise_words(text) >= config.noise_word_count
    ):
        weight -= config.noise_word_penalty
    return weight


@functools.cache
def _shortest_text_with(count: int) -> int:
    lengths = sorted(len(word) for word in NOISE_WORDS)[:count]
    return sum(lengths) + len(lengths) - 1


def count_noise_words(text: str) -> int:
    """How many distinct noise words of seed 002 the text contains."""
    # Substring tests in C beat one regex alternation, which tries every word at every position.
    lowered = text.lower()
    count = 0
    for word in NOISE_WORDS:
        count += word in lowered
    return count
