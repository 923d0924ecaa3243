"""How the store writes what it keeps small: hashes as integers, a page's blocks as one JSON array, and the
site models' state of a page as a compressed record of a few bytes a block.

- A block hash (`extraction.text_hash`, 16 hex digits) is a signed 64-bit integer in the dictionary: SQLite
  and PostgreSQL both store that in 8 bytes, where the hex text took 17.
- A block's code is its label (`CONTENT_BIT`) and the value of the `extraction.Rule` that decided it.
- An element of `pages.blocks` is one block of the page:
  - inline, when no other page holds it: a string, one character that codes the label and rule
    (`chr(INLINE_CONTENT + rule)` then the text of a content block, `chr(INLINE_NOISE + rule)` then the
    hex hash of a noise block);
  - a reference to the block dictionary, when several pages hold it: an integer, `block id * 64 + code`;
  - a run of `MIN_RUN` or more references to consecutive dictionary ids with one code, as a template's
    menus, sidebars and footers come on every page of a cluster, and a listing's excerpts on every listing
    that shows them: `[first reference, count]` (`pack_references`);
  - a run of inline content blocks with one code, as an article's paragraphs come: one string,
    `RUN_MARK`, the code's character, then the texts with `RUN_SEPARATOR` between them (`pack`). A
    block costs one byte beyond its text where a string of its own costs four (quotes, comma and code), a
    tenth of the text's size on documentation, whose blocks are short. A text holding the separator (a
    control character no page should hold) stays a string of its own.
  `unpack` and the `BlockArray` column type give the elements back one by one.
  A block costs a few bytes beyond its text, and the array reads in SQL (`json_each`,
  `json_array_elements`), so the views can list the blocks and join the clean text.
- A page's model state (`ModelState`) is, per block: the id of its place in the cluster's dictionary
  (`model_places`: layout path, tag, kind), its single-page code, how its shape is known, and for a short
  noise block with a digit only, its shape (8 bytes). Every other shape is rebuilt: from the place and the
  text hash (`extraction.site_models.frequency.derived_shape`), or, for a content block with a digit, from
  the place and its text, which the store keeps (`masked_shape`). The record is columns, zlib-compressed.
"""

from __future__ import annotations

import sys
import zlib
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Dialect
from sqlalchemy.types import TypeDecorator

from extraction import Block

CONTENT = "content"
NOISE = "noise"
# The bit of a block's code that says it is content; the five low bits are its `extraction.Rule`.
CONTENT_BIT = 0x20
# A dictionary reference in `pages.blocks`: the block's id shifted left by this, its code in the low bits.
CODE_BITS = 6

_CODE_MASK = (1 << CODE_BITS) - 1
_RULE_MASK = CONTENT_BIT - 1
# The first character of an inline block: chr(INLINE_CONTENT + rule) or chr(INLINE_NOISE + rule), "@" to "_"
# and "`" to DEL, one byte each in UTF-8 and never escaped in JSON.
INLINE_CONTENT, INLINE_NOISE = 0x40, 0x60
# A run of inline content blocks: `RUN_MARK` (below every code character), the code's character, then the
# texts, `RUN_SEPARATOR` (DEL, a control character no page should hold) between them. Both are one byte in
# UTF-8 and never escaped in JSON.
RUN_MARK, RUN_SEPARATOR = "!", "\x7f"
# How a block's shape is known: it has none, it is rebuilt from the place and text hash, it is stored, or
# it is rebuilt from the place and the text (a content block's, which the store keeps).
NO_SHAPE, DERIVED_SHAPE, STORED_SHAPE, MASKED_SHAPE = 0, 1, 2, 3
_SIGN = 1 << 63

# An element of a page's blocks: a dictionary reference or an inline block.
Element = int | str
# As `pages.blocks` stores it: an element, or a run of references, [first, count].
StoredElement = int | str | list[int]
# The shortest run stored as one: two references cost as much as the pair that would replace them.
MIN_RUN = 3
# The difference between the references of consecutive dictionary ids with one code.
_NEXT_ID = 1 << CODE_BITS


def pack(elements: Sequence[Element]) -> list[StoredElement]:
    """A page's elements as `pages.blocks` stores them: runs of references (`pack_references`), and each run
    of two or more inline content blocks with one code as one string."""
    packed: list[StoredElement] = []
    run: list[str] = []
    for value in pack_references(elements):
        if run and not (isinstance(value, str) and _continues(run[0], value)):
            packed.append(_inline_run(run))
            run = []
        if isinstance(value, str) and _joinable(value):
            run.append(value)
        else:
            packed.append(value)
    if run:
        packed.append(_inline_run(run))
    return packed


def _joinable(value: str) -> bool:
    """Whether an inline element may join a run: content, its text free of the separator."""
    return ord(value[0]) < INLINE_NOISE and RUN_SEPARATOR not in value


def _continues(first: str, value: str) -> bool:
    return value[0] == first[0] and _joinable(value)


def _inline_run(run: Sequence[str]) -> str:
    if len(run) == 1:
        return run[0]
    return RUN_MARK + run[0][0] + RUN_SEPARATOR.join(value[1:] for value in run)


def pack_references(elements: Sequence[Element]) -> list[StoredElement]:
    """A page's elements with each run of `MIN_RUN` or more references to consecutive ids with one code as
    `[first, count]` (migration 0006's format, which `pack` extends)."""
    packed: list[StoredElement] = []
    start = 0
    while start < len(elements):
        first, end = elements[start], start + 1
        if isinstance(first, int):
            while end < len(elements) and elements[end] == first + (end - start) * _NEXT_ID:
                end += 1
        if end - start >= MIN_RUN:
            packed.append([first, end - start])  # type: ignore[list-item]
        else:
            packed.extend(elements[start:end])
        start = end
    return packed


def unpack(stored: Sequence[StoredElement]) -> list[Element]:
    """The elements of a page as `pack` stored them."""
    elements: list[Element] = []
    for value in stored:
        if isinstance(value, list):
            first, count = value
            elements.extend(range(first, first + count * _NEXT_ID, _NEXT_ID))
        elif isinstance(value, str) and value[0] == RUN_MARK:
            lead = value[1]
            elements.extend(lead + text for text in value[2:].split(RUN_SEPARATOR))
        else:
            elements.append(value)
    return elements


class BlockArray(TypeDecorator[list[Element]]):
    """The column type of `pages.blocks`: JSON, a page's elements packed (`pack`) as they are written and
    unpacked as they are read."""

    impl = JSON
    cache_ok = True

    def process_bind_param(self, value: list[Element] | None, dialect: Dialect) -> Any:
        """The elements as stored."""
        return None if value is None else pack(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> list[Element] | None:
        """The stored elements unpacked."""
        return None if value is None else unpack(value)


def hash_to_int(digest: str) -> int:
    """A 16-hex-digit text hash as the signed 64-bit integer the store keeps."""
    value = int(digest, 16)
    return value - (1 << 64) if value >= _SIGN else value


def int_to_hash(value: int) -> str:
    """The inverse of `hash_to_int`."""
    return f"{value & 0xFFFFFFFFFFFFFFFF:016x}"


def code(label: str, rule: int) -> int:
    """A block's code: its rule's value, and `CONTENT_BIT` when it is content."""
    return rule | (CONTENT_BIT if label == CONTENT else 0)


def block_code(block: Block) -> int:
    """The code of an extracted block's label and rule."""
    return int(block.rule) | (CONTENT_BIT if block.is_content else 0)


def code_label(value: int) -> str:
    """The label of a code."""
    return CONTENT if value & CONTENT_BIT else NOISE


def code_rule(value: int) -> int:
    """The rule of a code (an `extraction.Rule` value)."""
    return value & _RULE_MASK


def reference(block_id: int, block_code: int) -> int:
    """A block of the dictionary as an element of `pages.blocks`."""
    return (block_id << CODE_BITS) | block_code


def inline(block_code: int, text: str, digest: str) -> str:
    """A block no other page holds, as an element of `pages.blocks`: its text if it is content, else its
    hash (hex)."""
    if block_code & CONTENT_BIT:
        return chr(INLINE_CONTENT + (block_code & _RULE_MASK)) + text
    return chr(INLINE_NOISE + (block_code & _RULE_MASK)) + digest


def element_code(value: Element) -> int:
    """The code of an element."""
    if isinstance(value, str):
        lead = ord(value[0])
        return (CONTENT_BIT if lead < INLINE_NOISE else 0) | (lead & _RULE_MASK)
    return value & _CODE_MASK


def element_block(value: Element) -> int | None:
    """The dictionary id of a reference; None for an inline block."""
    return None if isinstance(value, str) else value >> CODE_BITS


def inline_text(value: str) -> str | None:
    """The text of an inline content block (None for an inline noise block)."""
    return value[1:] if ord(value[0]) < INLINE_NOISE else None


def inline_hash(value: str) -> str | None:
    """The hash (hex) of an inline noise block (None for an inline content block, whose hash is its
    text's)."""
    return value[1:] if ord(value[0]) >= INLINE_NOISE else None


def recoded(value: Element, block_code: int) -> Element:
    """A reference, or an inline block keeping its label, with another code."""
    if isinstance(value, str):
        if (ord(value[0]) < INLINE_NOISE) != bool(block_code & CONTENT_BIT):
            raise ValueError("an inline block changing its label needs its text or hash: see `inline`")
        base = INLINE_CONTENT if block_code & CONTENT_BIT else INLINE_NOISE
        return chr(base + (block_code & _RULE_MASK)) + value[1:]
    return (value & ~_CODE_MASK) | block_code


@dataclass(frozen=True, slots=True)
class ModelState:
    """A page's model state, a column per field: each block's place id, single-page code and how its shape
    is known, and the shapes stored (one per `STORED_SHAPE` block, in page order)."""

    key_ids: Sequence[int]
    page_codes: bytes
    shape_modes: bytes
    shapes: Sequence[int]

    def stored_shapes(self) -> Iterator[int | None]:
        """Each block's stored shape (None unless its mode is `STORED_SHAPE`), in page order."""
        shapes = iter(self.shapes)
        return (next(shapes) if mode == STORED_SHAPE else None for mode in self.shape_modes)


def encode_state(state: ModelState) -> bytes:
    """A page's model state, compressed: the codes, the shape modes and the stored shapes, then each place
    id as the zigzag varint of its difference from the one before (a template's places follow each other
    in the order they were met, so most differences are small), the whole zlib-compressed."""
    count = len(state.page_codes).to_bytes(4, "little")
    places = _delta_varints(state.key_ids)
    return zlib.compress(count + state.page_codes + state.shape_modes + _pack("q", state.shapes) + places, 6)


def decode_state(data: bytes) -> ModelState:
    """The inverse of `encode_state`."""
    raw = zlib.decompress(data)
    count = int.from_bytes(raw[:4], "little")
    modes_at = 4 + count
    shapes_at = modes_at + count
    modes = raw[modes_at:shapes_at]
    places_at = shapes_at + 8 * modes.count(STORED_SHAPE)
    shapes = _unpack("q", raw[shapes_at:places_at])
    return ModelState(_from_delta_varints(raw, places_at, count), raw[4:modes_at], modes, shapes)


def _delta_varints(values: Sequence[int]) -> bytes:
    out = bytearray()
    previous = 0
    for value in values:
        delta = value - previous
        previous = value
        zigzag = (delta << 1) ^ (delta >> 63)
        while zigzag >= 0x80:
            out.append((zigzag & 0x7F) | 0x80)
            zigzag >>= 7
        out.append(zigzag)
    return bytes(out)


def _from_delta_varints(raw: bytes, index: int, count: int) -> list[int]:
    values: list[int] = []
    previous = 0
    for _ in range(count):
        zigzag = shift = 0
        while True:
            byte = raw[index]
            index += 1
            zigzag |= (byte & 0x7F) << shift
            if byte < 0x80:
                break
            shift += 7
        previous += (zigzag >> 1) ^ -(zigzag & 1)
        values.append(previous)
    return values


def _pack(typecode: str, values: Sequence[int]) -> bytes:
    packed = array(typecode, values)
    if sys.byteorder == "big":
        packed.byteswap()
    return packed.tobytes()


def _unpack(typecode: str, raw: bytes) -> array[int]:
    values = array(typecode)
    values.frombytes(raw)
    if sys.byteorder == "big":
        values.byteswap()
    return values


def pack_signature(shingles: frozenset[int]) -> bytes:
    """A cluster's representative signature: its shingles in order, 8 bytes each."""
    return b"".join(shingle.to_bytes(8, "big") for shingle in sorted(shingles))


def unpack_signature(data: bytes) -> frozenset[int]:
    """The inverse of `pack_signature`."""
    return frozenset(int.from_bytes(data[i : i + 8], "big") for i in range(0, len(data), 8))
