"""segment: the one-pass walk that cuts a cleaned page into ordered blocks with their kinds and raw counts."""

from __future__ import annotations

import re
import time

from hypothesis import given
from hypothesis import strategies as st

from extraction import BlockKind, ExtractionConfig
from extraction.segment import _count_emails
from tests.extraction.pages import DOCS, FORUM, FORUM_ARCH, NEWS, find_block, fixture_text, segment_html

HELLO_GO = 'package main\n\nimport "fmt"\n\nfunc main() {\n    fmt.Println("Hello, World!")\n}'


def test_blocks_come_in_document_order() -> None:
    page = segment_html(fixture_text(DOCS))
    assert [block.position for block in page.blocks] == list(range(len(page.blocks)))
    order = [
        "Skip to Main Content",
        "Tutorial: Get started with Go",
        "In this tutorial, you'll get a brief introduction",
        "Prerequisites¶",
        "Open a command prompt and cd to your home directory.",
        "On Linux or Mac:",
        "On Windows:",
        HELLO_GO,
        "Write more code¶",
        "Copyright",
        "go.dev uses cookies",
    ]
    positions = [find_block(page.blocks, snippet).position for snippet in order]
    assert positions == sorted(positions)
    assert len(set(positions)) == len(positions)


def test_block_kinds_on_a_documentation_page() -> None:
    blocks = segment_html(fixture_text(DOCS)).blocks
    expected = {
        "Prerequisites¶": (BlockKind.HEADING, "h2"),
        "Install Go (if you haven't already).": (BlockKind.LIST_ITEM, "li"),
        "Open a command prompt and cd to your home directory.": (BlockKind.LIST_ITEM, "li"),
        "On Linux or Mac:": (BlockKind.PARAGRAPH, "p"),
        "cd %HOMEPATH%": (BlockKind.CODE, "pre"),
        "Table of Contents": (BlockKind.TABLE_ROW, "th"),
        "Just use the Download and install steps.": (BlockKind.PARAGRAPH, "p"),
    }
    for snippet, (kind, tag) in expected.items():
        block = find_block(blocks, snippet, exact=True)
        assert (block.kind, block.tag) == (kind, tag), snippet
    # The breadcrumb's last item and the <h1> have the same text; only the <h1> is a heading.
    same = [(block.kind, block.tag) for block in blocks if block.text == "Tutorial: Get started with Go"]
    assert same == [(BlockKind.LIST_ITEM, "li"), (BlockKind.HEADING, "h1")]


def test_text_directly_in_a_div_is_a_text_block() -> None:
    block = find_block(segment_html(fixture_text(FORUM)).blocks, "Hi to all,")
    assert (block.kind, block.tag) == (BlockKind.TEXT, "div")


def test_table_row_cells_join_into_one_block() -> None:
    blocks = segment_html(fixture_text(NEWS)).blocks
    rows = [block for block in blocks if block.kind is BlockKind.TABLE_ROW]
    assert [row.text for row in rows] == [
        "Ticker | Security | Last | Change | Change %",
        "HD | THE HOME DEPOT INC. | 225.86 | -12.99 | -5.44%",
        "LOW | LOWE'S COMPANIES INC. | 113.40 | -1.62 | -1.41%",
    ]
    # A row's block sits at the row, not at one of its cells.
    assert all(row.path.endswith("/tr") for row in rows)
    # Each row's link ("HD", "LOW") is counted once in the joined block.
    assert [(row.features.link_count, row.features.link_text_length) for row in rows] == [
        (0, 0),
        (1, 2),
        (1, 3),
    ]


def test_cells_of_different_rows_stay_apart() -> None:
    blocks = segment_html(
        "<table><tr><td>a1</td><td>a2</td></tr><tr><td>b1</td><td>b2</td></tr></table>"
    ).blocks
    assert [block.text for block in blocks] == ["a1 | a2", "b1 | b2"]


def test_br_gives_line_breaks_in_a_real_post() -> None:
    block = find_block(segment_html(fixture_text(FORUM)).blocks, "Hi to all,")
    lines = block.text.split("\n")
    assert lines[0] == "Hi to all,"
    assert lines[1].startswith("I have tested a Power Color Radeon RX7800XT")
    assert lines[-1] == "Have somebody had this issue?"
    assert len(lines) == 6
    assert all(line == line.strip() and line for line in lines)


def test_pre_keeps_newlines_and_indentation() -> None:
    blocks = segment_html(fixture_text(DOCS)).blocks
    code = [block.text for block in blocks if block.kind is BlockKind.CODE]
    assert code == [
        "cd",
        "cd %HOMEPATH%",
        "mkdir hello\ncd hello",
        HELLO_GO,
        "$ go run .\nHello, World!",
        "$ go help",
    ]


def test_pre_with_inline_markup_and_leading_indentation() -> None:
    html = '<pre>\n    first line\n<span class="k">func</span> main() {\n\t<ins>call()</ins><br>}\n\n</pre>'
    (block,) = segment_html(html).blocks
    assert block.kind is BlockKind.CODE
    assert block.text == "    first line\nfunc main() {\n\tcall()\n}"


def test_whitespace_outside_pre_is_folded() -> None:
    block = find_block(segment_html(fixture_text(DOCS)).blocks, "In this tutorial")
    assert (
        block.text
        == "In this tutorial, you'll get a brief introduction to Go programming. Along the way, you will:"
    )


def test_link_text_is_counted() -> None:
    blocks = segment_html(fixture_text(NEWS)).blocks
    paragraph = find_block(blocks, "Dow component Home Depot")
    # <a>earnings</a> and <a>shares</a>: 8 + 6 characters of link text in two links.
    assert paragraph.features.link_count == 2
    assert paragraph.features.link_text_length == 14
    assert paragraph.features.text_length == len(paragraph.text)
    promo = find_block(blocks, "GET FOX BUSINESS ON THE GO")
    assert promo.features.link_text_length == promo.features.text_length == len(promo.text)


def test_form_fields_are_counted_but_their_text_is_skipped() -> None:
    blocks = segment_html(fixture_text(FORUM_ARCH)).blocks
    assert all("Newbie Corner" not in block.text for block in blocks)  # an <option> of the forum jump
    jump = find_block(blocks, "Jump to")
    assert jump.text == "Jump to"
    assert jump.features.interaction_count > 0
    assert jump.features.form_count == 1


def test_max_blocks_truncates_the_page() -> None:
    page = segment_html(fixture_text(DOCS), ExtractionConfig(max_blocks=10))
    assert len(page.blocks) == 10
    assert page.truncated
    assert not segment_html(fixture_text(DOCS)).truncated


def test_max_block_chars_cuts_long_blocks() -> None:
    blocks = segment_html(fixture_text(FORUM), ExtractionConfig(max_block_chars=50)).blocks
    assert max(len(block.text) for block in blocks) == 50
    assert find_block(blocks, "Hi to all,").text == "Hi to all,\nI have tested a Power Color Radeon RX78"


def test_every_block_has_text() -> None:
    for name in (NEWS, DOCS, FORUM, FORUM_ARCH):
        for block in segment_html(fixture_text(name)).blocks:
            assert block.text.strip(), (name, block.position)


def test_path_steps_fold_every_run_of_digits() -> None:
    html = '<div id="post-1234" class="col-12  x00y7 \u0663\u0664"><p>Some text</p></div>'
    (block,) = segment_html(html).blocks
    assert block.path.endswith("/div#post-0.col-0.x0y0.0/p")


def test_punctuation_counts_ascii_and_full_width_marks() -> None:
    html = "<p>\u4f60\u597d\uff0c\u4e16\u754c\u3002 Hi, there! \u201cquoted\u201d \u3003</p>"
    (block,) = segment_html(html).blocks
    assert block.features.punctuation_count == 4


# What `_count_emails` counts: this pattern's matches. Searched from every start, it took time quadratic in
# the longest run of word characters.
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")


def test_emails_are_counted() -> None:
    html = "<p>Write to jane.doe+news@example.co.uk, or bob@mail.example.org.</p><p>No @ddress here.</p>"
    assert [block.features.email_count for block in segment_html(html).blocks] == [2, 0]


@given(st.text(alphabet="ab1_.+-@ ,\n\u65e5\u00e9\u0663", max_size=80))
def test_email_count_is_what_the_pattern_finds(text: str) -> None:
    assert _count_emails(text) == len(_EMAIL.findall(text))


def test_email_count_takes_linear_time_in_long_words() -> None:
    # Fuzz findings min-email-regex.html ("@" and a 24,000-character word: 1.7 s) and
    # min-email-regex-cjk.html (a 24,000-character Japanese paragraph with an address: 3.0 s).
    texts = ["@" + "a" * 24_000, "\u65e5\u672c\u8a9e\u306e\u6587\u7ae0" * 4_000 + " user@example.com"]
    texts += ["x@" + "a" * 24_000, ("a" * 100 + "@") * 300, "a@" * 10_000]
    started = time.perf_counter()
    counts = [_count_emails(text) for text in texts]
    assert time.perf_counter() - started < 0.2
    assert counts == [0, 1, 0, 0, 0]


def test_siblings_deep_in_a_tree_share_one_path() -> None:
    # Fuzz finding min-deep-paths.html (2,000 nested divs around 250,000 paragraphs): each node kept its own
    # path, nodes x depth characters. Trimmed here; the paragraphs, and the list items, share one string.
    html = (
        "<div>" * 500
        + "<p>text</p>" * 1_000
        + "<ul>"
        + "<li><p>item</p></li>" * 100
        + "</ul>"
        + "</div>" * 500
    )
    page = segment_html(html)
    deep = "body" + "/div" * 500
    assert [block.path for block in page.blocks] == [f"{deep}/p"] * 1_000 + [f"{deep}/ul/li/p"] * 100
    assert len({id(block.path) for block in page.blocks}) == 2
    assert page.path(page.block_nodes[-1]) == f"{deep}/ul/li/p"


def test_paths_keep_their_first_max_path_chars() -> None:
    full = segment_html(fixture_text(DOCS))
    cut = segment_html(fixture_text(DOCS), ExtractionConfig(max_path_chars=30))
    assert max(len(block.path) for block in full.blocks) > 30
    assert [block.path for block in cut.blocks] == [block.path[:30] for block in full.blocks]
    assert [cut.path(node) for node in range(len(cut.nodes))] == [
        full.path(node)[:30] for node in range(len(full.nodes))
    ]


def test_a_huge_class_attribute_is_read_up_to_max_name_chars() -> None:
    # Fuzz finding min-long-class-paths.html: a 1 MB class attribute on the wrapper of 3,000 paragraphs
    # repeated itself in every paragraph's path (trimmed here).
    classes = " ".join(["c"] * 50_000)
    config = ExtractionConfig(max_name_chars=100)
    page = segment_html(f'<div class="{classes}">' + "<p>text</p>" * 300 + "</div>", config)
    wrapper = page.nodes[1]
    assert len(wrapper.names) <= 100
    assert wrapper.step == "div" + ".c" * 50
    assert {block.path for block in page.blocks} == {"body/div" + ".c" * 50 + "/p"}
    default = segment_html(f'<div class="{classes}"><p>text</p></div>')
    assert len(default.blocks[0].path) == ExtractionConfig().max_path_chars


def test_blocks_under_an_aria_hidden_element_are_veiled() -> None:
    page = segment_html(
        "<body><h2>Questions</h2><div class='panel' aria-hidden='true'><p>Closed answer.</p>"
        "<ul><li>Nested item</li></ul></div><p aria-hidden='false'>Open text.</p></body>"
    )
    veiled = {page.blocks[position].text for position in page.veiled}
    assert veiled == {"Closed answer.", "Nested item"}
    assert find_block(page.blocks, "Open text.").position not in page.veiled
