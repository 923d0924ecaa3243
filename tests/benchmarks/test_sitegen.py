"""The generated test site: deterministic, fully linked, with ground truth that matches what is rendered."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from statistics import median

import pytest
from lxml import html as lxml_html
from lxml.html import HtmlElement

from benchmarks.sitegen import (
    CATEGORIES,
    HEAVY_HEAD_BYTES,
    MIN_PAGES,
    GeneratedSite,
    generate_site,
    load_site,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
PAGES = 160
SEED = 7
BLOCKS = ".//p | .//h2 | .//h3 | .//li | .//tr | .//figcaption"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> GeneratedSite:
    return generate_site(tmp_path_factory.mktemp("gen") / "site", PAGES, SEED, workers=1)


@pytest.fixture(scope="module")
def truth(site: GeneratedSite) -> list[dict[str, str]]:
    return [json.loads(line) for line in site.ground_truth.read_text("utf-8").splitlines()]


def _tree_bytes(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()
    }


def _elements(node: HtmlElement, query: str) -> list[HtmlElement]:
    """`xpath` for element results (lxml types every result as a union)."""
    return [found for found in node.xpath(query) if isinstance(found, HtmlElement)]


def _strings(node: HtmlElement, query: str) -> list[str]:
    """`xpath` for attribute values."""
    return [str(found) for found in node.xpath(query)]


def _text(node: HtmlElement, query: str) -> str:
    """`xpath` for a string() result."""
    return str(node.xpath(f"string({query})"))


def _page(file: Path) -> HtmlElement:
    return lxml_html.fromstring(file.read_bytes())


def _links(file: Path) -> list[str]:
    """The root-relative targets of a page's <a href>, without fragments."""
    targets = (href.split("#")[0] for href in _strings(_page(file), "//a/@href"))
    return [target for target in targets if target.startswith("/")]


def test_page_count_kinds_and_index(site: GeneratedSite) -> None:
    files = sorted(site.root.rglob("*.html"))
    assert len(files) == site.pages
    assert PAGES - 8 <= site.pages <= PAGES
    assert set(site.kinds.values()) == {"article", "home", "category", "tag", "static"}
    assert len(site.articles) > site.pages / 2
    assert {str(f.relative_to(site.root)) for f in files} == {
        site.file_of(p).relative_to(site.root).as_posix() for p in site.kinds
    }
    assert load_site(site.root) == GeneratedSite(site.root, site.meta_dir, SEED, site.kinds, site.total_bytes)
    assert not site.meta_dir.is_relative_to(site.root)  # metadata is not served


def test_same_seed_gives_the_same_bytes_whatever_the_workers(site: GeneratedSite, tmp_path: Path) -> None:
    again = generate_site(tmp_path / "site", PAGES, SEED, workers=2)
    assert _tree_bytes(again.root) == _tree_bytes(site.root)
    assert _tree_bytes(again.meta_dir) == _tree_bytes(site.meta_dir)


def test_cli_in_another_process_with_another_hash_seed_gives_the_same_bytes(
    site: GeneratedSite, tmp_path: Path
) -> None:
    environment = {**os.environ, "PYTHONHASHSEED": "12345"}
    command = [sys.executable, "-m", "benchmarks.sitegen", str(tmp_path / "site"), "--pages", str(PAGES),
               "--seed", str(SEED), "--workers", "1"]  # fmt: skip
    done = subprocess.run(command, cwd=REPO_ROOT, env=environment, capture_output=True, text=True, check=True)
    assert "pages" in done.stdout
    assert _tree_bytes(tmp_path / "site") == _tree_bytes(site.root)
    assert _tree_bytes(tmp_path / "site.meta") == _tree_bytes(site.meta_dir)


def test_another_seed_gives_other_articles(site: GeneratedSite, tmp_path: Path) -> None:
    other = generate_site(tmp_path / "site", PAGES, SEED + 1, workers=1)
    assert set(other.articles).isdisjoint(site.articles)


def test_every_page_is_reachable_from_home_and_no_link_is_broken(site: GeneratedSite) -> None:
    seen, stack, broken = {"/"}, ["/"], set()
    while stack:
        path = stack.pop()
        for target in _links(site.file_of(path)):
            if target not in site.kinds:
                broken.add(target)
            elif target not in seen:
                seen.add(target)
                stack.append(target)
    assert broken == set()
    assert seen == set(site.kinds)


def test_home_pagination_alone_reaches_every_article(site: GeneratedSite) -> None:
    listed, page = [], "/"
    while page:
        tree = _page(site.file_of(page))
        listed += _strings(tree, '//article[contains(@class, "excerpt")]//h2/a/@href')
        following = _strings(tree, '//a[contains(@class, "next")]/@href')
        page = following[0] if following else ""
    assert listed == list(reversed(site.articles))  # newest first, each once


def test_ground_truth_is_the_rendered_container_text(
    site: GeneratedSite, truth: list[dict[str, str]]
) -> None:
    assert [record["url_path"] for record in truth] == site.articles
    for record in truth:
        assert site.file_of(record["url_path"]) == site.root / record["file"]
        tree = _page(site.root / record["file"])
        (content,) = _elements(tree, '//div[@class="entry-content"]')
        lines = [_text(tree, "//h1")]
        for block in _elements(content, BLOCKS):
            cells = _elements(block, "th | td")
            lines.append(" ".join(c.text_content() for c in cells) if cells else block.text_content())
        assert record["main_text"] == "\n".join(lines)
        assert record["title"] == tree.findtext(".//title")
        # Nothing of the container is left out: the same words, in the same order.
        words = re.findall(r"\w+", " ".join([_text(tree, "//h1"), *content.itertext()]))
        assert re.findall(r"\w+", record["main_text"]) == words


def test_articles_have_the_usual_blocks(truth: list[dict[str, str]], site: GeneratedSite) -> None:
    pages = [site.file_of(path).read_text("utf-8") for path in site.articles]
    for marker in ("<h2 class=\"wp-block-heading\">", "<ul>", "<table>", "<figcaption>", "<blockquote>",
                   'class="comment"', "<em>", 'rel="prev"', 'rel="next"'):  # fmt: skip
        assert any(marker in page for page in pages), marker
    paragraphs = [
        page.split('<div class="entry-content">')[1].split("</div>")[0].count("<p>") for page in pages
    ]
    assert min(paragraphs) >= 3
    assert max(paragraphs) > 8


def test_topics_cover_every_article(site: GeneratedSite) -> None:
    topics = json.loads(site.topics.read_text("utf-8"))
    assert 8 <= len(topics["categories"]) <= 12
    assert all(len(description) > 20 for description in topics["categories"].values())
    assert set(topics["pages"]) == set(site.articles)
    for path, names in topics["pages"].items():
        assert 1 <= len(names) <= 3 and len(set(names)) == len(names)
        assert set(names) <= set(topics["categories"])
        assert f"category-{names[0]}" in site.file_of(path).read_text("utf-8")
    assert len({names[0] for names in topics["pages"].values()}) == len(CATEGORIES)


def test_categories_are_told_apart_by_their_words(site: GeneratedSite, truth: list[dict[str, str]]) -> None:
    topics = json.loads(site.topics.read_text("utf-8"))["pages"]
    vocabulary = {c.name: set(c.nouns) | set(c.adjectives) | set(c.verbs) for c in CATEGORIES}
    right = 0
    for record in truth:
        words = Counter(re.findall(r"[\w-]+", record["main_text"].lower()))
        scores = {name: sum(words[w] for w in vocab) for name, vocab in vocabulary.items()}
        right += max(scores, key=scores.__getitem__) == topics[record["url_path"]][0]
    assert right >= 0.95 * len(truth)


def test_article_text_is_unique_and_free_of_template_text(
    site: GeneratedSite, truth: list[dict[str, str]]
) -> None:
    # Every line of four words or more (paragraphs, headings, captions, table rows) is in one article only.
    lines = Counter(
        line for record in truth for line in record["main_text"].splitlines() if len(line.split()) >= 4
    )
    assert lines.most_common(1)[0][1] == 1
    everything = "\n".join(record["main_text"] for record in truth)
    for template_text in (
        "Latest posts",
        "All rights reserved",
        "Advertisement",
        "Share this",
        "Leave a reply",
    ):
        assert template_text not in everything


def test_sidebar_boxes_latest_same_related_different_ads_rotate(site: GeneratedSite) -> None:
    latest: set[bytes] = set()
    related: set[tuple[str, ...]] = set()
    ads: Counter[str] = Counter()
    for path in site.articles:
        tree = _page(site.file_of(path))
        latest.add(
            lxml_html.tostring(_elements(tree, '//section[contains(@class, "widget_recent_entries")]')[0])
        )
        related.add(tuple(_strings(tree, '//section[contains(@class, "related-posts")]//a/@href')))
        ads[_strings(tree, "//div[@class='ad-slot']/@data-ad")[0]] += 1
    assert len(latest) == 1
    assert len(related) == len(site.articles)
    assert len(ads) >= 3


def test_page_sizes_default_and_heavy(site: GeneratedSite, tmp_path: Path) -> None:
    sizes = [site.file_of(path).stat().st_size for path in site.articles]
    assert 20_000 <= median(sizes) <= 40_000
    heavy = generate_site(tmp_path / "heavy", 60, head_bytes=HEAVY_HEAD_BYTES, workers=1)
    heavy_sizes = [heavy.file_of(path).stat().st_size for path in heavy.articles]
    assert 85_000 <= median(heavy_sizes) <= 120_000


def test_refuses_a_tiny_site_and_a_non_empty_folder(site: GeneratedSite, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least"):
        generate_site(tmp_path / "tiny", MIN_PAGES - 1)
    with pytest.raises(FileExistsError):
        generate_site(site.root, PAGES, SEED)
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "keep.txt").write_text("x")
    replaced = generate_site(tmp_path / "busy", MIN_PAGES, overwrite=True, workers=1)
    assert not (tmp_path / "busy" / "keep.txt").exists()
    assert replaced.pages <= MIN_PAGES
