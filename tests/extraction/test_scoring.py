"""scoring: where the content area is and how every block of a real page is labelled."""

from __future__ import annotations

import pytest

from extraction import ExtractionConfig, Label, Rule, scoring
from extraction.features import compute_features
from extraction.scoring import label_blocks, locate_content, node_hint
from extraction.segment import Node
from tests.extraction.pages import (
    DOCS,
    FIXTURE_NAMES,
    FORUM,
    FORUM_ARCH,
    NEWS,
    extract_fixture,
    find_block,
    fixture_text,
    segment_html,
)

CONTENT: dict[str, tuple[str, ...]] = {
    NEWS: (
        "Dow component Home Depot reported third-quarter earnings",
        "HD | THE HOME DEPOT INC. | 225.86 | -12.99 | -5.44%",
        "The home-improvement retailer earned $2.8 billion, or $2.53",
        "“Our third quarter results reflected broad-based growth",
        '"We are largely on track with these investments',
        "Looking ahead, Home Depot sees fiscal year 2019 sales growth",
        "Home Depot shares are up 39 percent year-to-date",
    ),
    DOCS: (
        "In this tutorial, you'll get a brief introduction to Go programming.",
        "Install Go (if you haven't already).",
        "Some programming experience.",
        "Write some code¶",
        "Open a command prompt and cd to your home directory.",
        "package main",
        "Declare a main package",
        "$ go run .",
        "With this quick introduction, you got Go installed",
    ),
    FORUM: (
        "Hi to all,\nI have tested a Power Color Radeon RX7800XT",
        "Hi,\nDoes disabling hardware decoding or acceleration do anything?",
    ),
    FORUM_ARCH: ("archlinux-2024.05.01-x86_64.iso changed the UEFI boot loader",),
}

NOISE: dict[str, tuple[str, ...]] = {
    NEWS: (
        "Personal Finance",  # header and footer menus
        "Futures & Commodities",
        "Login",
        "Watch TV",
        "Facebook",
        "New Terms of Use",  # footer
        "Quotes delayed at least 15 minutes.",
        "This material may not be published",
        "Continue Reading Below",  # ad slot inside the article
        "GET FOX BUSINESS ON THE GO BY CLICKING HERE",  # link-only promo inside the article
        "Advertisement",  # sidebar
    ),
    DOCS: (
        "Skip to Main Content",
        "Why Go",
        "Common problems companies solve with Go",  # header menu description
        "Documentation",  # breadcrumb
        "Playground",  # footer
        "Terms of Service",
        "go.dev uses cookies from Google",
    ),
    FORUM: (
        "Welcome to Doom9's Forum",
        "User Name | Remember Me?",
        "Register | FAQ",
        "Join Date: Mar 2016",
        "Posting Rules",
        "You may not post new threads",
        "Powered by vBulletin",
    ),
    FORUM_ARCH: (
        "Packages",
        "You are not logged in.",
        "Registered: 2016-07-02",
        "Board footer",
        "Powered by FluxBB",
    ),
}


# The snippets of each fixture by the label their blocks must get.
SNIPPETS_BY_LABEL = {Label.CONTENT: CONTENT, Label.NOISE: NOISE}


@pytest.mark.parametrize("label", list(SNIPPETS_BY_LABEL), ids=lambda label: label.name.lower())
@pytest.mark.parametrize("name", [NEWS, DOCS, FORUM, FORUM_ARCH])
def test_article_text_is_content_and_navigation_and_footer_are_noise(name: str, label: Label) -> None:
    result = extract_fixture(name)
    for snippet in SNIPPETS_BY_LABEL[label][name]:
        block = find_block(result.blocks, snippet)
        assert block.label is label, (snippet, block.reason)


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_every_block_has_a_reason(name: str) -> None:
    result = extract_fixture(name)
    assert result.blocks
    for block in result.blocks:
        assert block.reason.strip(), block.text


def test_the_whole_table_is_content_with_its_article() -> None:
    rows = [
        block
        for block in extract_fixture(NEWS).blocks
        if block.path.endswith("table.stock-fundamentals/tbody/tr")
    ]
    assert len(rows) == 2
    assert all(row.is_content for row in rows)


def test_every_code_block_of_the_tutorial_is_content() -> None:
    result = extract_fixture(DOCS)
    code = [block for block in result.blocks if block.tag == "pre"]
    assert len(code) == 6
    assert all(block.is_content for block in code), [(b.text, b.reason) for b in code if not b.is_content]


def test_both_posts_of_the_archlinux_thread_are_content() -> None:
    result = extract_fixture(FORUM_ARCH)
    block = find_block(result.blocks, "According to https://archlinux.org/releng/releases/")
    assert block.label is Label.CONTENT, block.reason


def test_no_content_area_when_no_block_qualifies() -> None:
    page = segment_html(
        "<body><ul><li><a href='/a'>Home</a></li><li><a href='/b'>About</a></li></ul><p>Hi.</p></body>"
    )
    config = ExtractionConfig()
    compute_features(page.blocks, config)
    area = locate_content(page, config)
    assert area is None
    label_blocks(page, area, "", config)
    assert [(block.label, block.rule) for block in page.blocks] == [
        (Label.NOISE, Rule.LINK_DENSE),
        (Label.NOISE, Rule.LINK_DENSE),
        (Label.NOISE, Rule.OUTSIDE_AREA),
    ]
    assert page.blocks[0].reason == "outside the content area, mostly link text"


def test_content_area_is_the_article_body_not_the_sidebar() -> None:
    page = segment_html(fixture_text(NEWS))
    config = ExtractionConfig()
    compute_features(page.blocks, config)
    area = locate_content(page, config)
    assert area is not None
    root = page.path(area.root)
    body = next(page.path(i) for i in range(len(page.nodes)) if page.path(i).endswith("/div.article-body"))
    assert body.startswith(root + "/") or body == root
    assert "/article.article-wrap/" in root
    # Everything in the sidebar and the site header is outside the area.
    blocks = extract_fixture(NEWS).blocks
    outside = [
        block for block in blocks if "aside.sidebar" in block.path or "header.site-header" in block.path
    ]
    assert len(outside) >= 10
    assert {(block.label, block.rule) for block in outside} == {
        (Label.NOISE, Rule.OUTSIDE_AREA),
        (Label.NOISE, Rule.LINK_DENSE),
    }
    # The menus are link text, the sidebar's prose is not.
    assert {block.rule for block in outside if block.features.nltd == 1.0} == {Rule.LINK_DENSE}


@pytest.mark.parametrize(
    ("names", "template"),
    [
        ("ad", True),
        ("top-ads", True),
        ("site-nav", True),
        ("nav menu-item", True),
        ("loading", False),  # "ad" inside a word
        ("ads_slot", False),  # "_" is a word character: no boundary after "ads"
        ("navx", False),
        ("canvas", False),
        ("shadow", False),
    ],
)
def test_ad_and_nav_are_template_names_only_as_whole_words(names: str, template: bool) -> None:
    config = ExtractionConfig()
    hint = node_hint(Node("div", -1, 1, "div", names, "div"), config)
    assert (hint < 1.0) is template


def test_names_that_differ_only_in_digits_share_a_cached_hint() -> None:
    # Per-page ids (post-4711) would add an entry per page to a cache that lives as long as the crawl.
    config = ExtractionConfig()
    scoring._name_hint.cache_clear()
    hints = {node_hint(Node("div", -1, 1, "div", f"menu-{n} item{n}x", "div"), config) for n in range(1000)}
    assert len(hints) == 1 and hints.pop() < 1.0
    assert scoring._name_hint.cache_info().currsize == 3  # one per length of the ids: 0-9, 10-99, 100-999
