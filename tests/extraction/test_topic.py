"""Topic relevance (`extraction.topic`): terms, and BM25 relevance with statistics learned from the texts."""

from __future__ import annotations

import pytest

from extraction.topic import Topic, TopicModel, terms


def test_terms_fold_case_plurals_and_endings_and_drop_function_words() -> None:
    assert terms("The crawlers are crawling pages about Python decorators and classes") == [
        "crawler",
        "crawl",
        "page",
        "python",
        "decorator",
        "class",
    ]
    assert terms("stories, boxes, status, analysis") == ["story", "box", "status", "analysis"]


def test_a_topic_without_words_is_an_error() -> None:
    with pytest.raises(ValueError, match="no word"):
        Topic.of("the and of ?")


def test_relevance_ranks_texts_by_the_topic_and_learns_common_terms() -> None:
    model = TopicModel(Topic.of("python decorators"))
    texts = [
        "Decorators in Python wrap a function and return another function.",
        "Python is a language; this page lists its built-in types.",
        "A recipe for tomato soup with basil.",
    ]
    for text in texts:
        model.observe(text)
    scores = [model.relevance(text) for text in texts]
    assert scores[0] > scores[1] > scores[2] == 0.0
    # "python" is on every page of a Python site: seen often, it weighs less than the rarer "decorator".
    for _ in range(20):
        model.observe("Python tutorial, Python library, Python glossary.")
    assert model.relevance("python") < model.relevance("decorator")


def test_coverage_is_the_share_of_the_topic_named_and_finds_words_joined_in_a_url() -> None:
    model = TopicModel(Topic.of("create table row"))
    assert model.coverage(set()) == 0.0
    assert model.coverage({"create", "table", "row"}) == pytest.approx(1.0)
    # Unseen terms weigh alike: one of three named.
    assert model.coverage({"table", "index"}) == pytest.approx(1 / 3)
    # A URL's slug joins words: "createtable" names "create" and "table"; a term of three letters ("row")
    # is not looked for inside a word, where it is too often part of another ("throw", "arrow").
    assert model.coverage(set(), "sql createtable html") == pytest.approx(2 / 3)
    assert model.coverage(set(), "throwing arrows") == 0.0


def test_coverage_weighs_a_term_by_how_rare_it_is_on_the_pages_seen() -> None:
    model = TopicModel(Topic.of("python decorators"))
    for _ in range(10):
        model.observe("Python tutorial, Python library, Python glossary.")
    model.observe("Decorators wrap a function.")
    assert model.coverage({"decorator"}) > 0.5 > model.coverage({"python"}) > 0.0
    assert model.coverage({"python"}) + model.coverage({"decorator"}) == pytest.approx(1.0)


def test_a_topic_of_example_pages_is_the_terms_most_of_them_share() -> None:
    texts = [
        "Sowing tomatoes in March: tomatoes like warm soil. Our dog likes the garden too.",
        "Pinching out tomato side shoots, and watering tomatoes deeply in a warm summer.",
        "Tomatoes under glass stay warm; a cat sleeps in the greenhouse.",
    ]
    topic = Topic.of_examples(texts, size=2)
    assert topic.terms == ("tomato", "warm")  # in all three; then by count, "warm" before the rest
    assert len(Topic.of_examples(texts, size=100).terms) == len(set(terms(" ".join(texts))))
    with pytest.raises(ValueError, match="no word"):
        Topic.of_examples(["the and of"], size=5)
