"""The site style tree (seed 004 section 2.3): presentation styles, merging, importance, noise, storage."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from lxml import etree

from extraction.dom import clean_tree, parse_html
from extraction.site_models.styletree import StyleTree
from tests.extraction.methods.sites import whizzy_posts
from tests.extraction.pages import cleaned_body

ATTRIBUTES = ("width", "height", "bgcolor")
TEMPLATE = """<html><body><table width="800" height="200">
<tr><td><a href="/">Home</a> <a href="/n">News</a></td></tr>
</table>{article}<table bgcolor="red"><tr><td>Copyright the site</td></tr></table></body></html>"""


def page(*paragraphs: str) -> etree._Element:
    article = "<div>" + "".join(f"<p>{text}</p>" for text in paragraphs) + "</div>"
    return cleaned_body(TEMPLATE.format(article=article))


def tree_of(*bodies: etree._Element) -> StyleTree:
    tree = StyleTree(ATTRIBUTES)
    for each in bodies:
        tree.add(each)
    return tree


def test_the_presentation_style_of_the_papers_body() -> None:
    # Seed 004: BODY's style is
    # <(TABLE, {width=800, height=200}), (IMG, {width=800}), (TABLE, {bgcolor=red})>.
    html = (
        '<body><table width="800" height="200"></table><img width="800"><table bgcolor="RED"></table></body>'
    )
    style = StyleTree(ATTRIBUTES).presentation_style(cleaned_body(f"<html>{html}</html>"))
    assert style == (("table", "width=800;height=200"), ("img", "width=800"), ("table", "bgcolor=red"))


def test_digits_fold_and_only_display_attributes_count() -> None:
    tree = StyleTree(("class",))
    one = cleaned_body('<html><body><div class="post-12 x" id="a"></div></body></html>')
    two = cleaned_body('<html><body><div class="post-345 x" id="b"></div></body></html>')
    assert tree.presentation_style(one) == tree.presentation_style(two) == (("div", "class=post-0 x"),)


def test_pages_merge_where_their_styles_agree() -> None:
    tree = tree_of(page("One story."), page("Another story.", "With two paragraphs."))
    root = tree.elements[0]
    assert tree.pages == root.pages == 2
    assert len(root.styles) == 1
    header, article, footer = tree.styles[next(iter(root.styles.values()))].children
    assert (tree.elements[header].pages, len(tree.elements[header].styles)) == (2, 1)
    # The article's <div> holds one paragraph on a page and two on the other: two styles of one page each.
    assert [tree.styles[s].pages for s in tree.elements[article].styles.values()] == [1, 1]
    assert tree.elements[footer].tag == "table"


def test_node_importance_is_the_entropy_of_styles_and_of_words() -> None:
    tree = tree_of(page("One story."), page("Another story.", "Two."), page("Third tale here."))
    root = tree.elements[0]
    header, article, _ = tree.styles[next(iter(root.styles.values()))].children
    # Styles of the article <div>: one paragraph on two pages, two paragraphs on one: -sum p log_3 p.
    expected = -(2 / 3 * math.log(2 / 3) + 1 / 3 * math.log(1 / 3)) / math.log(3)
    assert tree.node_importance(tree.elements[article]) == pytest.approx(expected)
    assert tree.node_importance(tree.elements[header]) == 0.0
    links = [node for node in tree.elements if node.tag == "a"]
    # The same menu words on every page: entropy 1, importance 0.
    assert all(tree.node_importance(node) == pytest.approx(0.0) for node in links)
    single = next(node for node in tree.elements if node.pages == 1)
    assert tree.node_importance(single) == 1.0


def test_composite_importance_attenuates_by_level() -> None:
    tree = tree_of(page("One story."), page("Another story.", "Two."))
    scores = tree.importance(0.9)
    root = tree.elements[0]
    style = tree.styles[next(iter(root.styles.values()))]
    below = sum(scores[child] for child in style.children) / len(style.children)
    # The root's own importance is 0 (one style); level 1: (1 - 0.9) * 0 + 0.9 * CompImp(S).
    assert scores[0] == pytest.approx(0.9 * below)


def test_noise_elements_are_the_template_of_a_new_page() -> None:
    stories = ("Elephants cross the river.", "Markets fell sharply today.", "Rain soaks the festival.")
    tree = tree_of(*(page(story) for story in stories))
    new = page("A fresh story about something else entirely.", "And a second paragraph.")
    noisy = tree.noise_elements(new, attenuation=0.9, threshold=0.3)
    texts = [" ".join(" ".join(element.itertext()).split()) for element, _ in noisy]
    assert "Home News" in texts and "Copyright the site" in texts
    assert not any("fresh story" in text for text in texts)
    assert all(score < 0.3 for _, score in noisy)


def test_a_page_of_another_layout_is_not_noise() -> None:
    tree = tree_of(page("One story."), page("Another story."))
    other = cleaned_body("<html><body><section><p>Nothing like the site's pages.</p></section></body></html>")
    assert tree.noise_elements(other, 0.9, 0.3) == []


def test_deep_pages_merge_without_recursion() -> None:
    deep = cleaned_body("<html><body>" + "<div>" * 2000 + "text" + "</div>" * 2000 + "</body></html>")
    tree = tree_of(deep, deep)
    assert max(node.level for node in tree.elements) > 1900
    assert tree.noise_elements(deep, 0.9, 0.3)
    assert tree.pages == 2


def test_whizzy_sidebar_is_noise_and_the_post_is_not(shared_dir: Path) -> None:
    posts = list(whizzy_posts(shared_dir).values())
    tree = StyleTree(("style", "width", "height", "bgcolor"))
    for post in posts[:15]:
        root = parse_html(post.html).root
        assert root is not None
        tree.add(clean_tree(root))
    root = parse_html(posts[20].html).root
    assert root is not None
    new = clean_tree(root)
    texts = [" ".join(element.itertext()) for element, _ in tree.noise_elements(new, 0.9, 0.3)]
    assert any("Recent Posts" in text for text in texts)
    entry = " ".join(new.xpath("//div[contains(@class, 'entry-content')]")[0].itertext())
    assert not any(entry[:80] in text for text in texts)
