"""Seed 004's ContentExtractor: inverse block document frequency over a site, block similarity by features."""

from __future__ import annotations

from pathlib import Path

from extraction.evaluate.metric import score_page
from extraction.methods.base import SitePage
from extraction.methods.contentextractor import (
    BlockStore,
    ContentExtractor,
    ContentExtractorParams,
    block_features,
)
from extraction.result import Block, BlockFeatures, BlockKind
from tests.extraction.methods.sites import whizzy_posts, whizzy_truth
from tests.extraction.pages import find_block

MENU = '<ul><li><a href="/">Home</a></li><li><a href="/about">About us</a></li></ul>'
STORIES = (
    "Elephants crossed the river at dawn, watched by rangers and a few lucky tourists.",
    "Markets fell sharply as traders weighed the central bank's unexpected decision.",
    "Heavy rain soaked the festival, but the crowd stayed for the headline band.",
)


def site_page(story: str, date: str = "Posted on 3 May 2019 by the editor") -> SitePage:
    return SitePage(f"<html><body>{MENU}<p>{story}</p><p>{date}</p></body></html>")


def block(text: str, links: int = 0) -> Block:
    return Block(0, "body/p", "p", BlockKind.PARAGRAPH, text, BlockFeatures(link_count=links))


def test_features_are_binary_terms_and_element_kinds() -> None:
    assert block_features(block("The river, the river and rangers", links=2)) == {"river", "rangers", "<a>"}
    assert block_features(block("12 | 34")) == {"12 | 34"}


def test_similar_blocks_are_found_through_the_prefix_index() -> None:
    store = BlockStore(0.9)
    store.add(0, [block("alpha beta gamma delta epsilon zeta eta theta iota kappa")])
    store.add(1, [block("completely different words here")])
    store.build_index()
    near = block_features(block("alpha beta gamma delta epsilon zeta eta theta iota lambda"))
    assert store.similar_pages(near) == {0}  # 9 of 10 features shared: cosine 0.9
    far = block_features(block("alpha beta gamma delta epsilon zeta eta theta mu nu"))
    assert store.similar_pages(far) == set()


def test_a_block_on_every_page_is_redundant_and_a_unique_one_content() -> None:
    method = ContentExtractor()
    method.learn([site_page(story) for story in STORIES])
    result = method.extract(site_page("A new story nobody has told before, about owls.").html)
    assert find_block(result.blocks, "owls").is_content
    menu = find_block(result.blocks, "Home")
    assert not menu.is_content and menu.score == 1 / 4
    assert "IBDF 1/4" in menu.reason


def test_the_page_itself_does_not_count_among_the_learned_pages() -> None:
    pages = [site_page(story) for story in STORIES]
    method = ContentExtractor()
    method.learn(pages)
    assert find_block(method.extract(pages[0].html).blocks, "Elephants").is_content


def test_the_ibdf_threshold_lets_a_block_repeat() -> None:
    pages = [site_page(STORIES[0]), site_page(STORIES[1])]
    method = ContentExtractor(params=ContentExtractorParams(ibdf_threshold=0.5))
    method.learn(pages)
    result = method.extract(site_page(STORIES[0]).html.replace("Posted on 3 May", "Posted on 9 June"))
    assert find_block(result.blocks, "Elephants").is_content


def test_without_other_pages_it_falls_back_to_k_fe() -> None:
    result = ContentExtractor().extract(site_page(STORIES[0]).html)
    assert "K-FE" in result.reason
    assert find_block(result.blocks, "Elephants").is_content


def test_whizzy_posts_keep_their_text_and_drop_the_template(shared_dir: Path) -> None:
    posts = whizzy_posts(shared_dir)
    truth = whizzy_truth(shared_dir)
    method = ContentExtractor()
    method.learn(list(posts.values()))
    for path in [path for path in posts if path in truth][:10]:
        result = method.extract(posts[path].html)
        assert not find_block(result.blocks, "Recent Posts").is_content
        assert score_page(truth[path], result.text).recall > 0.7
