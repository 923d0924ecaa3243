"""Seed 000's key patterns and virtual nodes on the paper's own example, then on real pages."""

from __future__ import annotations

from extraction.methods.keypattern import (
    KeyPattern,
    KeyPatternParams,
    VirtualNode,
    key_patterns,
    repetitions,
    virtual_nodes,
)
from tests.extraction.pages import FORUM, NEWS, find_block, fixture_bytes

# Section 3.3: the sequence of one-depth child nodes of a sample page.
EXAMPLE = ["h2", "p", "p", "ul", "p", "p", "h2", "p", "p", "p", "p", "p", "p", "div"]
NO_CAP = len(EXAMPLE)


def test_the_papers_repetitions() -> None:
    # Section 3.4: "The repetitions obtained here are [h2, p], [p, p], [h2, p, p] and [p, p, p]."
    assert set(repetitions(EXAMPLE, NO_CAP)) == {("h2", "p"), ("p", "p"), ("h2", "p", "p"), ("p", "p", "p")}


def test_the_papers_key_patterns() -> None:
    # "[h2, p] and [p, p] are properly contained in [h2, p, p] and [p, p, p]."
    assert key_patterns(EXAMPLE, NO_CAP) == [("h2", "p", "p"), ("p", "p", "p")]


def test_the_papers_virtual_nodes() -> None:
    # Section 3.5 and Fig. 4: [h2, p, p] matches at positions 1 and 7, separating "h2 p p ul p p" (v1)
    # from "h2 p p p p p p div" (v2); inside v2, [p, p, p] groups "p p p p p p" (v3).
    v3 = VirtualNode([7, 8, 9, 10, 11, 12])
    assert virtual_nodes(EXAMPLE, key_patterns(EXAMPLE, NO_CAP)) == [
        VirtualNode([0, 1, 2, 3, 4, 5]),
        VirtualNode([6, v3, 13]),
    ]


def test_equal_elements_repeat_without_overlap() -> None:
    # Fig. 3, case 2: in "a a a a" the repetition "a a" occurs twice, not three times.
    assert repetitions(["a"] * 4, NO_CAP)[("a", "a")][0] == 2
    assert repetitions(["a"] * 3, NO_CAP) == {}
    # A repetition must fit twice: m <= n/2.
    assert max(len(pattern) for pattern in repetitions(["a", "b"] * 4, NO_CAP)) == 4


def test_a_run_of_equal_siblings_is_one_virtual_node() -> None:
    sequence = ["li"] * 5
    assert virtual_nodes(sequence, key_patterns(sequence, NO_CAP)) == [VirtualNode([0, 1, 2, 3, 4])]


def test_pattern_length_is_capped() -> None:
    sequence = ["dt", "dd"] * 50
    assert max(map(len, repetitions(sequence, 8))) == 8
    assert max(map(len, repetitions(sequence, 100))) == 50


def test_article_paragraphs_form_virtual_blocks() -> None:
    result = KeyPattern().extract(fixture_bytes(NEWS), "https://fixture.test/news")
    # After the quote table the article runs p p p p, a photo caption, p p p p: [p, p, p, p] is the key
    # pattern and each run of it is one block of four important tags (links inside were unwrapped).
    first = find_block(result.blocks, "earned $2.8 billion, or $2.53 per diluted share")
    second = find_block(result.blocks, "Looking ahead, Home Depot sees fiscal year 2019")
    for block in (first, second):
        assert (block.tag, block.score, block.text.count("\n") + 1) == ("virtual", 4, 4)
        assert block.is_content
    assert result.hrefs, "the links are read before <a> is unwrapped"


def test_the_threshold_drops_blocks_with_fewer_tags() -> None:
    result = KeyPattern(params=KeyPatternParams(threshold=2)).extract(fixture_bytes(NEWS))
    assert find_block(result.blocks, "earned $2.8 billion, or $2.53 per diluted share").is_content
    # The article's first paragraph stands alone before the quote table: one tag, dropped as noise.
    lone = find_block(result.blocks, "Dow component Home Depot reported third-quarter earnings")
    assert (lone.tag, lone.score, lone.is_content) == ("p", 1, False)
    assert "under the threshold 2" in lone.reason


def test_loose_text_has_no_important_tag() -> None:
    result = KeyPattern().extract(fixture_bytes(FORUM))
    posts = find_block(result.blocks, "Hi to all, I have tested a Power Color Radeon RX7800XT")
    assert posts.is_content
    html = "<html><body><div>Loose words between <p>a paragraph</p> and more loose words</div></body></html>"
    blocks = KeyPattern().extract(html).blocks
    assert [(block.text, block.is_content) for block in blocks] == [
        ("Loose words between", False),
        ("a paragraph", True),
        ("and more loose words", False),
    ]
