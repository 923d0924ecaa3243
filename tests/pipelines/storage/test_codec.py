"""The store's encodings round-trip at their edges: hashes, page elements, model states, place lists."""

from __future__ import annotations

import pytest

from extraction import Rule, text_hash
from pipelines.storage import codec
from pipelines.storage.model_state import _pack_places, _unpack_places


@pytest.mark.parametrize(
    "digest", ["0000000000000000", "7fffffffffffffff", "8000000000000000", "ffffffffffffffff"]
)
def test_a_hash_is_a_signed_64_bit_integer_and_back(digest: str) -> None:
    value = codec.hash_to_int(digest)
    assert -(1 << 63) <= value < (1 << 63)
    assert codec.int_to_hash(value) == digest


def test_runs_of_references_pack_into_one_and_unpack_back() -> None:
    menu = [codec.reference(block_id, Rule.REPEATED_TEXT) for block_id in (7, 8, 9, 10)]
    kept = [codec.reference(block_id, codec.CONTENT_BIT | Rule.CONTENT_AREA) for block_id in (11, 12, 13)]
    pair = [codec.reference(block_id, Rule.REPEATED_TEXT) for block_id in (20, 21)]
    other_rule = [codec.reference(30, Rule.REPEATED_TEXT), codec.reference(31, Rule.TEMPLATE_SLOT)]
    elements: list[codec.Element] = [*menu, "Aprose", *kept, *pair, *other_rule]
    packed = codec.pack(elements)
    # Runs under MIN_RUN stay single, as do references of another code.
    assert packed == [[menu[0], 4], "Aprose", [kept[0], 3], *pair, *other_rule]
    assert codec.unpack(packed) == elements


def test_runs_of_inline_content_pack_into_one_string_and_unpack_back() -> None:
    area, headline = codec.CONTENT_BIT | Rule.CONTENT_AREA, codec.CONTENT_BIT | Rule.HEADLINE
    paragraphs = [codec.inline(area, text, "") for text in ("First «quoted».", "", 'Say "hi"\\n.')]
    control = codec.inline(area, "A stray \x7f DEL.", "")
    # A paper method's noise starts with DEL, the separator.
    noise = [codec.inline(rule, "Menu", text_hash("Menu")) for rule in (Rule.NOISE_SCORE, Rule.METHOD)]
    title = codec.inline(headline, "Title", "")
    alone = paragraphs[1]
    elements: list[codec.Element] = [title, *paragraphs, control, paragraphs[0], *noise, alone, 7 << 6]
    packed = codec.pack(elements)
    # One string for the run of one code; the title (another code), the text holding the separator, noise,
    # and a block alone stay strings of their own.
    run = codec.RUN_MARK + paragraphs[0][0] + codec.RUN_SEPARATOR.join(p[1:] for p in paragraphs)
    assert packed == [title, run, control, paragraphs[0], *noise, alone, 7 << 6]
    assert codec.unpack(packed) == elements


def test_elements_keep_their_block_code_and_text() -> None:
    digest = text_hash("Menu")
    for rule in Rule:
        content, noise = codec.CONTENT_BIT | rule, int(rule)
        prose = codec.inline(content, "Crème brûlée.", "")
        assert (codec.element_code(prose), codec.inline_text(prose)) == (content, "Crème brûlée.")
        menu = codec.inline(noise, "Menu", digest)
        assert codec.element_code(menu) == noise
        assert (codec.inline_hash(menu), codec.inline_text(menu)) == (digest, None)
        stored = codec.reference(123456, content)
        assert (codec.element_block(stored), codec.element_code(stored)) == (123456, content)


def test_recoding_keeps_an_element_in_place_and_refuses_to_lose_a_text() -> None:
    headline, restored = codec.CONTENT_BIT | Rule.HEADLINE, codec.CONTENT_BIT | Rule.RESTORED
    element = codec.inline(codec.CONTENT_BIT | Rule.CONTENT_AREA, "Kept.", "")
    assert codec.recoded(element, headline) == codec.inline(headline, "Kept.", "")
    assert codec.recoded(codec.reference(7, Rule.NOISE_SCORE), restored) == codec.reference(7, restored)
    with pytest.raises(ValueError, match="needs its text or hash"):
        codec.recoded(element, Rule.REPEATED_TEXT)


def test_a_model_state_round_trips() -> None:
    state = codec.ModelState(
        key_ids=[5, (70_000 << 16) + 3, 2, 1 << 40, 5],
        page_codes=bytes([1, codec.CONTENT_BIT | 1, 3, 0, 31]),
        shape_modes=bytes([0, codec.STORED_SHAPE, 1, codec.STORED_SHAPE, 1]),
        shapes=[-5, (1 << 63) - 1],
    )
    decoded = codec.decode_state(codec.encode_state(state))
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
