"""The store's encodings round-trip at their edges: hashes, page elements, model states, place lists."""

from __future__ import annotations

import pytest

from extraction import Rule, text_hash
from pipelines.storage.codec import (
    CONTENT_BIT,
    STORED_SHAPE,
    ModelState,
    decode_state,
    element_block,
    element_code,
    encode_state,
    hash_to_int,
    inline,
    inline_hash,
    inline_text,
    int_to_hash,
    recoded,
    reference,
)
from pipelines.storage.model_state import _pack_places, _unpack_places


@pytest.mark.parametrize(
    "digest", ["0000000000000000", "7fffffffffffffff", "8000000000000000", "ffffffffffffffff"]
)
def test_a_hash_is_a_signed_64_bit_integer_and_back(digest: str) -> None:
    value = hash_to_int(digest)
    assert -(1 << 63) <= value < (1 << 63)
    assert int_to_hash(value) == digest


def test_elements_keep_their_block_code_and_text() -> None:
    for rule in Rule:
        content, noise = CONTENT_BIT | rule, int(rule)
        assert element_code(inline(content, "Crème brûlée.", "")) == content
        assert inline_text(inline(content, "Crème brûlée.", "")) == "Crème brûlée."
        digest = text_hash("Menu")
        assert element_code(inline(noise, "Menu", digest)) == noise
        assert (inline_hash(inline(noise, "Menu", digest)), inline_text(inline(noise, "Menu", digest))) == (
            digest,
            None,
        )
        assert (element_block(reference(123456, content)), element_code(reference(123456, content))) == (
            123456,
            content,
        )


def test_recoding_keeps_an_element_in_place_and_refuses_to_lose_a_text() -> None:
    element = inline(CONTENT_BIT | Rule.CONTENT_AREA, "Kept.", "")
    assert recoded(element, CONTENT_BIT | Rule.HEADLINE) == inline(CONTENT_BIT | Rule.HEADLINE, "Kept.", "")
    assert recoded(reference(7, Rule.NOISE_SCORE), CONTENT_BIT | Rule.RESTORED) == reference(
        7, CONTENT_BIT | Rule.RESTORED
    )
    with pytest.raises(ValueError, match="needs its text or hash"):
        recoded(element, Rule.REPEATED_TEXT)


def test_a_model_state_round_trips() -> None:
    state = ModelState(
        key_ids=[5, (70_000 << 16) + 3, 2, 1 << 40, 5],
        page_codes=bytes([1, CONTENT_BIT | 1, 3, 0, 31]),
        shape_modes=bytes([0, STORED_SHAPE, 1, STORED_SHAPE, 1]),
        shapes=[-5, (1 << 63) - 1],
    )
    decoded = decode_state(encode_state(state))
    assert list(decoded.key_ids) == list(state.key_ids)
    assert (decoded.page_codes, decoded.shape_modes, list(decoded.shapes)) == (
        state.page_codes,
        state.shape_modes,
        list(state.shapes),
    )
    assert list(decoded.stored_shapes()) == [None, -5, None, (1 << 63) - 1, None]


def test_places_round_trip_with_long_and_shared_paths() -> None:
    places = [
        ("html/body/div.a/p", "p", "text"),
        ("html/body/div.a/p/span", "span", "text"),
        ("html/body/é/x", "h1", "heading"),
        ("x" * 70_000, "a", "link"),
        ("", "", ""),
    ]
    assert _unpack_places(_pack_places(places)) == places
