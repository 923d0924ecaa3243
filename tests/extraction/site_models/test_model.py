"""SiteModel: content blocks that repeat across a cluster's pages are dropped, with guardrails."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from extraction import ExtractionResult, Label, extract
from extraction.evaluate.metric import score_page, summarize
from extraction.result import RULE_LABELS, Block, BlockKind, Rule
from extraction.site_models import SiteClusters, SiteModel, SiteModelConfig, page_signature
from tests.extraction.pages import APACHE, extract_fixture, find_block
from tests.extraction.site_models.pages import (
    HEATING_POST,
    POSTGRESQL_DOCS,
    PYTHON_DOCS,
    SHORT_POST,
    TITLE_ONLY_POST,
    fresh,
)


def _model(pages: dict[str, ExtractionResult], config: SiteModelConfig | None = None) -> SiteModel:
    model = SiteModel(config or SiteModelConfig())
    for page in pages.values():
        model.observe(page.blocks)
    return model


def _learned_but_last(pages: list[ExtractionResult]) -> tuple[SiteModel, ExtractionResult]:
    """A model of the cluster that observed every page but the last, and the last page."""
    *others, last = pages
    model = SiteModel()
    for other in others:
        model.observe(other.blocks)
    return model, last


def _all_content(result: ExtractionResult) -> list[Block]:
    # As a single-page labeller that found no template would leave them: every block content.
    blocks = fresh(result)
    for block in blocks:
        block.label, block.rule, block.reason = Label.CONTENT, Rule.CONTENT_AREA, "single page"
    return blocks


def test_nothing_changes_before_the_model_is_ready(whizzy_posts: dict[str, ExtractionResult]) -> None:
    model = _model(dict(list(whizzy_posts.items())[:4]))
    blocks = _all_content(whizzy_posts[HEATING_POST])
    model.apply(blocks)
    assert not model.ready
    assert all(block.is_content for block in blocks)


def test_sidebar_and_footer_are_dropped_and_the_article_kept(
    whizzy_posts: dict[str, ExtractionResult],
) -> None:
    model = _model(whizzy_posts)
    blocks = _all_content(whizzy_posts[HEATING_POST])
    model.apply(blocks)
    pages = len(whizzy_posts)
    for snippet in ("Recent Posts", "© Copyright", "Comments have moved"):
        block = find_block(blocks, snippet)
        assert block.label is Label.NOISE
        assert block.reason == f"same text on {pages} of {pages} pages of this cluster"
    article = max(blocks, key=lambda block: len(block.text))
    assert article.is_content
    assert article.reason == "single page"


def test_a_changing_date_in_a_repeated_block_is_dropped(whizzy_posts: dict[str, ExtractionResult]) -> None:
    model = _model(whizzy_posts)
    blocks = _all_content(whizzy_posts[HEATING_POST])
    decisions = model.revise(blocks)
    meta = find_block(blocks, "Posted by will / ")
    decision = decisions[blocks.index(meta)]
    assert decision.label is Label.NOISE
    assert decision.reason.startswith("same block, changing digits, on 20 of 20 pages")


def test_the_whole_page_is_never_dropped(whizzy_posts: dict[str, ExtractionResult]) -> None:
    page = whizzy_posts[TITLE_ONLY_POST]
    kept = [block.text for block in page.content_blocks]
    assert kept, "the title-only post keeps its template blocks on its own"
    # Without its headline, the page holds template lines only: dropping them would empty it.
    blocks = [block for block in fresh(page) if block.tag != "h1"]
    _model(whizzy_posts).apply(blocks)
    assert [block.text for block in blocks if block.is_content] == kept
    assert all("would leave the page empty" in block.reason for block in blocks if block.is_content)


def test_code_that_changes_only_in_digits_is_kept() -> None:
    model = SiteModel(SiteModelConfig(min_pages=3))
    pages = [
        [Block(0, "body/pre", "pre", BlockKind.CODE, f"sleep {n}", label=Label.CONTENT)] for n in range(5)
    ]
    for blocks in pages:
        model.observe(blocks)
    decisions = model.revise(pages[0])
    assert decisions[0].label is Label.CONTENT
    assert decisions[0].pages == 5


def test_extract_applies_a_ready_model(whizzy_dir: Path, whizzy_posts: dict[str, ExtractionResult]) -> None:
    # The title-only post: its headline is its content, the template lines around it are not.
    model = _model(whizzy_posts)
    result = extract((whizzy_dir / TITLE_ONLY_POST).read_bytes(), site_model=model)
    assert result.text == "The Same"
    headline = find_block(result.blocks, "The Same", exact=True)
    assert headline.reason.startswith("the page's headline")


def test_a_short_post_set_aside_by_the_page_is_restored(
    whizzy_dir: Path, whizzy_posts: dict[str, ExtractionResult]
) -> None:
    # Two one-line paragraphs are too short for the single-page model; the cluster knows where posts live.
    html = (whizzy_dir / SHORT_POST).read_bytes()
    single = extract(html)
    assert "Apart from Matt Lucas." not in single.text
    result = extract(html, site_model=_model(whizzy_posts))
    assert result.text.splitlines() == [
        "Krod Mandoon and The Flaming Sword of Fire",
        "Shit.",
        "Apart from Matt Lucas.",
    ]
    assert find_block(result.blocks, "Shit.", exact=True).reason.startswith("in the content region")


def test_a_veiled_block_set_aside_by_the_page_is_not_restored(
    whizzy_dir: Path, whizzy_posts: dict[str, ExtractionResult]
) -> None:
    # A closed panel (`aria-hidden`) outside the page's own content area, in the cluster's region: a FAQ
    # module after the article. The page drew its area from what a reader is shown; the cluster's region,
    # drawn by what its pages show, says nothing of a panel the page left closed.
    model = _model(whizzy_posts)
    single = extract((whizzy_dir / SHORT_POST).read_bytes())
    blocks = fresh(single)
    veiled = find_block(blocks, "Apart from Matt Lucas.", exact=True)
    veiled.rule, veiled.reason = Rule.VEILED, "outside the content area, hidden from screen readers"
    model.apply(blocks, single.title)
    assert find_block(blocks, "Shit.", exact=True).label is Label.CONTENT
    assert (veiled.label, veiled.rule) == (Label.NOISE, Rule.VEILED)


def test_a_page_of_another_kind_keeps_its_own_content_region() -> None:
    # A cluster of the manual's page, and a page of another kind in it (its article under another
    # container, with new text): its side note, set aside by its class name, is unique to the page and
    # sits in the page's own content region; the footer, set aside too, stays out.
    page = extract_fixture(APACHE)
    model = SiteModel()
    for _ in range(6):
        model.observe(page.blocks)
    container = "/".join(find_block(page.blocks, "Apache Module mod_asis").path.split("/")[:2]) + "/"
    other = [copy.copy(block) for block in page.blocks]
    for block in other:
        if block.path.startswith(container):
            block.path = "body/div#reference/" + block.path.removeprefix(container)
            block.text = block.text[::-1]
    note = find_block(other, ":setoN", exact=True)
    note.label, note.rule = Label.NOISE, Rule.TEMPLATE_CONTAINER
    decisions = model.revise(other, page.title)
    assert decisions[note.position].rule is Rule.RESTORED
    assert decisions[find_block(other, "Copyright").position].label is Label.NOISE


def test_whizzy_f1_with_and_without_site_models(
    whizzy_pages: dict[str, ExtractionResult], whizzy_truth: list[dict[str, str]]
) -> None:
    # Observe every page of the site in its cluster, then revise each post with its cluster's model.
    config = SiteModelConfig()
    clusters = SiteClusters(config.cluster_threshold)
    cluster_of: dict[str, str] = {}
    models: dict[str, SiteModel] = {}
    for name, page in whizzy_pages.items():
        signature = page_signature(page.blocks, config.shingle_size, config.signature_depth)
        cluster_of[name] = clusters.assign(signature)
        models.setdefault(cluster_of[name], SiteModel(config)).observe(page.blocks)
    without, with_models = [], []
    for row in whizzy_truth:
        page = whizzy_pages[row["file"]]
        without.append(score_page(row["main_text"], page.text))
        revised = copy.copy(page)
        revised.blocks = fresh(page)
        models[cluster_of[row["file"]]].apply(revised.blocks, page.title)
        with_models.append(score_page(row["main_text"], revised.text))
    before, after = summarize(without), summarize(with_models)
    print(f"whizzy F1 without site models {before.f1:.4f}, with {after.f1:.4f}")
    assert after.f1 >= before.f1 + 0.02
    assert after.f1 >= 0.98


def test_lin_and_ho_entropy_drops_recurring_words_outside_the_region_only_when_asked() -> None:
    if not PYTHON_DOCS.is_dir():
        pytest.skip(f"Python docs not installed at {PYTHON_DOCS}")
    paths = sorted(path for path in PYTHON_DOCS.glob("genindex*.html") if path.name != "genindex-all.html")
    pages = [extract(path.read_bytes()) for path in paths]
    index = next(page for page, path in zip(pages, paths, strict=True) if path.name == "genindex.html")
    line = find_block(index.blocks, "Full index on one page")
    for drop_redundant in (False, True):
        model = SiteModel(SiteModelConfig(drop_redundant=drop_redundant))
        for page in pages:
            model.observe(page.blocks)
        decision = model.revise(index.blocks, index.title)[index.blocks.index(line)]
        # The index's words ("index", "page") are on every page of the cluster: entropy near its floor.
        assert (decision.label is Label.NOISE) is drop_redundant
        assert ("its words recur over the cluster (entropy" in decision.reason) is drop_redundant
    assert model.terms.pages == len(pages)


def test_each_decision_names_its_rule(whizzy_posts: dict[str, ExtractionResult]) -> None:
    model = _model(whizzy_posts)
    # A page whose single-page labeller kept everything: the template's blocks are repeated text.
    decisions = model.revise(_all_content(whizzy_posts[HEATING_POST]))
    assert {Rule.REPEATED_TEXT, Rule.CONTENT_AREA} <= {decision.rule for decision in decisions}
    assert {decision.rule for decision in model.revise(fresh(whizzy_posts[HEATING_POST]))} >= {Rule.HEADLINE}
    for decision in decisions:
        implied = RULE_LABELS[decision.rule]
        assert implied is None or implied is decision.label


def _word(number: int) -> str:
    # Digits would be masked: a text of its own per page is spelled in letters.
    return "".join(chr(ord("a") + int(digit)) for digit in str(number))


def _card_page(number: int, cards_content: bool) -> list[Block]:
    """A page of a cluster whose article is followed by teaser cards of other pages (all link text): on
    some pages the single page takes the cards for content, on others it sets them aside as link text."""
    article, cards = "body/main/article", "body/main/section.cards/a.card"
    card_label, card_rule = (
        (Label.CONTENT, Rule.CONTENT_AREA) if cards_content else (Label.NOISE, Rule.LINK_DENSE)
    )
    blocks = [
        Block(0, "body/nav/a", "a", BlockKind.TEXT, "Home", label=Label.NOISE, rule=Rule.LINK_DENSE),
        Block(
            1, f"{article}/p", "p", BlockKind.PARAGRAPH, f"Story {_word(number)} " * 30, label=Label.CONTENT
        ),
        Block(
            2,
            f"{cards}/p",
            "p",
            BlockKind.PARAGRAPH,
            f"Teaser {_word(number)} " * 20,
            label=card_label,
            rule=card_rule,
        ),
        Block(
            3,
            f"{cards}/p",
            "p",
            BlockKind.PARAGRAPH,
            f"Other {_word(number)} " * 20,
            label=card_label,
            rule=card_rule,
        ),
    ]
    return blocks


def test_teaser_cards_outside_the_pages_own_content_stay_out() -> None:
    # The cluster's content region spans the article and the cards (some pages' content is their cards),
    # so a card is in the region; being link text outside its page's own content, it is not restored.
    # Link text inside the article (a lone link) and prose beside it (a forum's replies) still are.
    model = SiteModel()
    for number in range(8):
        model.observe(_card_page(number, cards_content=number % 2 == 0))
    page = _card_page(100, cards_content=False)
    lone_link = Block(
        4, "body/main/article/p", "p", BlockKind.PARAGRAPH, "See the guide", rule=Rule.LINK_DENSE
    )
    reply = Block(
        5, "body/main/section.cards/div", "div", BlockKind.PARAGRAPH, "A reply " * 20, rule=Rule.OUTSIDE_AREA
    )
    decisions = model.revise([*page, lone_link, reply])
    assert [decision.label for decision in decisions] == [
        Label.NOISE,
        Label.CONTENT,
        Label.NOISE,
        Label.NOISE,
        Label.CONTENT,
        Label.CONTENT,
    ]
    assert decisions[4].rule is Rule.RESTORED and decisions[5].rule is Rule.RESTORED


def _single_page_block(
    position: int, path: str, tag: str, kind: BlockKind, text: str, content: bool
) -> Block:
    """A block as the single page labelled it: content in its area, or noise outside it."""
    label, rule = (Label.CONTENT, Rule.CONTENT_AREA) if content else (Label.NOISE, Rule.OUTSIDE_AREA)
    return Block(position, path, tag, kind, text, label=label, rule=rule)


def _manual_page(number: int) -> list[Block]:
    """A manual page: headings and an option's term repeated on every page, each over text of its own; a
    "Related" heading over a list the template repeats."""
    section = "body/div.content/div.sect"
    word = _word(number)

    return [
        _single_page_block(0, f"{section}/h2", "h2", BlockKind.HEADING, "DESCRIPTION", False),
        _single_page_block(
            1, f"{section}/div.body/p", "p", BlockKind.PARAGRAPH, f"Describes {word} " * 20, True
        ),
        _single_page_block(2, f"{section}/h2", "h2", BlockKind.HEADING, "OPTIONS", False),
        _single_page_block(3, f"{section}/div.body/dl/dt", "dt", BlockKind.LIST_ITEM, "-v", False),
        _single_page_block(
            4, f"{section}/div.body/dl/dd/p", "p", BlockKind.PARAGRAPH, f"Tells {word} " * 20, True
        ),
        _single_page_block(5, f"{section}/div.body/h3", "h3", BlockKind.HEADING, "SEE ALSO", False),
        # Text straight in the heading's container: the block's slot is the container itself.
        _single_page_block(6, f"{section}/div.body", "div", BlockKind.TEXT, f"Also {word} " * 20, True),
        _single_page_block(7, "body/div.related/h2", "h2", BlockKind.HEADING, "Related", False),
        _single_page_block(8, "body/div.related/ul/li", "li", BlockKind.LIST_ITEM, "Other pages", False),
    ]


def test_repeated_heads_of_the_pages_content_are_kept() -> None:
    model = SiteModel()
    for number in range(8):
        model.observe(_manual_page(number))
    decisions = model.revise(_manual_page(100))
    assert [(decision.label, decision.rule) for decision in decisions] == [
        (Label.CONTENT, Rule.SECTION_HEAD),
        (Label.CONTENT, Rule.CONTENT_AREA),
        (Label.CONTENT, Rule.SECTION_HEAD),
        (Label.CONTENT, Rule.SECTION_HEAD),
        (Label.CONTENT, Rule.CONTENT_AREA),
        (Label.CONTENT, Rule.SECTION_HEAD),
        (Label.CONTENT, Rule.CONTENT_AREA),
        (Label.NOISE, Rule.OUTSIDE_AREA),
        (Label.NOISE, Rule.OUTSIDE_AREA),
    ]
    assert decisions[2].reason == "heads content of the page (block 4) in its container"


def test_replies_stay_content_but_not_their_restatements_of_the_topic(
    forum_threads: list[ExtractionResult],
) -> None:
    # A thread's replies outweigh its post, so the single page keeps them (`scoring`, a thread); the cluster
    # (threads and topic lists) keeps them too: new on every page, in its content region. Each reply's
    # subject line, "Re: <topic>", is new on the page as well, but restates the topic's heading and goes.
    model, thread = _learned_but_last(forum_threads)
    blocks = fresh(thread)
    topic = "Not updated inputs after update to 8.0.9"
    subject_lines = [block for block in blocks if block.text == f"Re: {topic}"]
    reply = find_block(blocks, "The latest version of rfm12piphp")
    assert len(subject_lines) > 20 and reply.label is Label.CONTENT
    model.apply(blocks, thread.title)
    assert reply.label is Label.CONTENT
    assert find_block(blocks, topic).label is Label.CONTENT
    assert all(block.label is Label.NOISE for block in subject_lines)


def test_a_books_side_notes_are_content_where_its_sub_sections_are_the_region(
    handbook_sections: list[ExtractionResult],
) -> None:
    # The cluster's region is the sections' sub-sections; a page's intro and its side notes sit just above,
    # in the page's own section. The single page sets the notes aside for their container's name alone.
    model, page = _learned_but_last(handbook_sections)
    blocks = fresh(page)
    note = find_block(blocks, "The system files mentioned in this chapter")
    title = find_block(blocks, "NOTE Editing system files")
    assert note.rule is Rule.TEMPLATE_CONTAINER and title.rule is Rule.TEMPLATE_CONTAINER
    model.apply(blocks, page.title)
    assert note.label is Label.CONTENT and note.rule is Rule.RESTORED
    assert title.label is Label.CONTENT
    assert find_block(blocks, "Download the ebook").label is Label.NOISE


# Pages of the PostgreSQL manual's appendix of modules: an intro paragraph, then sub-sections.
_MODULES = [
    "amcheck",
    "auth-delay",
    "auto-explain",
    "bloom",
    "btree-gin",
    "btree-gist",
    "citext",
    "cube",
    "dblink",
]


def test_an_intro_beside_the_region_is_content_but_not_the_table_of_contents() -> None:
    # The cluster's region is the module pages' sub-sections. pg_surgery's intro sits directly in the
    # element that holds them, and the single page, which took the longest sub-section, set it aside; the
    # table of contents beside it is links, and stays out (the manual's own content rule leaves it out).
    if not POSTGRESQL_DOCS.is_dir():
        pytest.skip(f"{POSTGRESQL_DOCS} is missing (make docs-data installs postgresql-doc-15)")
    pages = [extract((POSTGRESQL_DOCS / f"{name}.html").read_bytes()) for name in [*_MODULES, "pgsurgery"]]
    model, page = _learned_but_last(pages)
    blocks = fresh(page)
    intro = find_block(blocks, "The pg_surgery module provides various functions")
    entry = find_block(blocks, "F.34.1. Functions", exact=True)
    assert intro.label is Label.NOISE and entry.label is Label.NOISE
    model.apply(blocks, page.title)
    assert intro.label is Label.CONTENT and intro.rule is Rule.RESTORED
    assert entry.label is Label.NOISE


def test_what_the_page_header_says_beside_the_headline_is_content(
    git_manual_pages: list[ExtractionResult],
) -> None:
    # git's manual pages: the header holds the headline and the NAME section (what the command does), outside
    # the region that the sections below make. The single page sets the NAME section aside.
    model, page = _learned_but_last(git_manual_pages)
    blocks = fresh(page)
    purpose, name = find_block(blocks, "git-add - Add file contents"), find_block(blocks, "NAME", exact=True)
    assert purpose.label is Label.NOISE and name.label is Label.NOISE
    model.apply(blocks, page.title)
    assert find_block(blocks, "git-add(1) Manual Page").label is Label.CONTENT
    assert purpose.label is Label.CONTENT and purpose.rule is Rule.RESTORED
    assert name.label is Label.CONTENT and name.rule is Rule.SECTION_HEAD
    # What the header holds is restored only beside the headline: the footer's lines stay out.
    assert find_block(blocks, "Last updated").label is Label.NOISE


def test_a_headline_that_every_page_lists_in_its_menu_is_content(lxml_manual: list[ExtractionResult]) -> None:
    # lxml's manual: the side menu of every page lists every page by its title, so the tutorial's headline
    # text is on each page of the cluster. Its place holds it on the tutorial only.
    model, page = _learned_but_last(lxml_manual)
    blocks = fresh(page)
    menu_entry, headline = [block for block in blocks if block.text == "The lxml.etree Tutorial"]
    assert headline.tag == "h1"
    assert headline.label is Label.NOISE
    model.apply(blocks, page.title)
    assert headline.label is Label.CONTENT
    assert menu_entry.label is Label.NOISE


def _headed_page(number: int) -> list[Block]:
    """A page whose header, outside the region, holds its headline, a byline and a labelled section."""
    word = _word(number)

    return [
        _single_page_block(0, "body/div.header/h1", "h1", BlockKind.HEADING, f"Command {word}", False),
        _single_page_block(
            1, "body/div.header/p.meta", "p", BlockKind.PARAGRAPH, f"By {word} on {word}day", False
        ),
        _single_page_block(2, "body/div.header/h2", "h2", BlockKind.HEADING, "NAME", False),
        _single_page_block(
            3, "body/div.header/div.body/p", "p", BlockKind.PARAGRAPH, f"Runs {word} for you", False
        ),
        _single_page_block(4, "body/div.content/p", "p", BlockKind.PARAGRAPH, f"Explains {word} " * 30, True),
    ]


def test_a_header_section_under_a_recurring_label_is_content_but_not_a_byline() -> None:
    model = SiteModel()
    for number in range(8):
        model.observe(_headed_page(number))
    decisions = model.revise(_headed_page(100), f"Command {_word(100)} - Manual")
    assert [(decision.label, decision.rule) for decision in decisions] == [
        (Label.CONTENT, Rule.HEADLINE),
        (Label.NOISE, Rule.OUTSIDE_AREA),  # new on every page too, but no label heads it
        (Label.CONTENT, Rule.SECTION_HEAD),
        (Label.CONTENT, Rule.RESTORED),
        (Label.CONTENT, Rule.CONTENT_AREA),
    ]
    # Without the title, no headline: the header is not told from the rest of the layout.
    assert model.revise(_headed_page(100))[3].label is Label.NOISE


def test_each_posts_byline_goes_though_its_poster_and_date_are_new(
    forum_threads: list[ExtractionResult],
) -> None:
    # oemforum: every post and reply carries "Submitted by <poster> on <weekday>, <date> - <time>", in a
    # place of the thread's content region. Its text is new on each page, so it used to be restored as
    # content (a byline on each of 1,166 pages of the crawl); with names and dates masked, its shape is
    # on every thread. A name in lower case ("rbreuss") is no name to the mask: that byline stays.
    model, thread = _learned_but_last(forum_threads)
    blocks = fresh(thread)
    bylines = [block for block in blocks if block.text.startswith("Submitted by ")]
    named = [block for block in bylines if block.text.split()[2][0].isupper()]
    assert len(named) > 10
    model.apply(blocks, thread.title)
    assert find_block(blocks, "The latest version of rfm12piphp").label is Label.CONTENT
    assert [block.text for block in named if block.label is Label.CONTENT] == []


def test_the_pager_between_threads_is_not_restored(forum_threads: list[ExtractionResult]) -> None:
    # Its link text is new on every thread (the neighbouring topics' titles) and it sits in the thread's
    # own content, where a block of new link text is restored; framed by arrows, it is a pager.
    model, thread = _learned_but_last(forum_threads)
    blocks = fresh(thread)
    pagers = [block for block in blocks if block.text.startswith("‹ ")]
    assert len(pagers) == 1 and pagers[0].rule is Rule.LINK_DENSE
    model.apply(blocks, thread.title)
    assert pagers[0].label is Label.NOISE
