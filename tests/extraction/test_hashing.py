"""Block text hashes: stable across whitespace, sensitive to words and case."""

from __future__ import annotations

from extraction import text_hash


def test_whitespace_does_not_change_the_hash() -> None:
    assert text_hash("Hello   brave\nnew world ") == text_hash("Hello brave new world")


def test_words_and_case_change_the_hash() -> None:
    assert text_hash("Hello world") != text_hash("Hello worlds")
    assert text_hash("Hello world") != text_hash("hello world")


def test_hash_is_sixteen_hex_digits() -> None:
    digest = text_hash("copyright 2024")
    assert len(digest) == 16
    int(digest, 16)
