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
