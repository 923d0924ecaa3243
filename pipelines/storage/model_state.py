"""The site models' working state of stored pages: written with each page, read back to re-clean a cluster.

Kept apart from the stable store (`page_models`, `model_places`). A place of a cluster's template (its
layout path, tag and kind) is written once: each batch that meets new places appends one row holding them,
compressed (a template's paths share long prefixes), and a place's id is its row and index,
`row id * 65536 + index`. Two processes that meet the same new place at once each append it: the place then
has two ids, which name the same thing. Each page keeps, per block, the id of its place, its single-page
decision and its shape only when that cannot be rebuilt (`pipelines.storage.codec`).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session

from extraction import Block, BlockKind
from extraction.site_models import BlockKey, stored_block
from extraction.site_models.frequency import derived_shape, masked_shape
from pipelines.storage.codec import (
    CONTENT,
    DERIVED_SHAPE,
    MASKED_SHAPE,
    NO_SHAPE,
    STORED_SHAPE,
    ModelState,
    code,
    code_label,
    code_rule,
    decode_state,
    encode_state,
    hash_to_int,
    int_to_hash,
)
from pipelines.storage.dialect import insert_for
from pipelines.storage.known import KnownIds, Place
from pipelines.storage.models import ModelPlaces, PageModel
from records import BlockRecord

# Places per row of `model_places`: the index takes the low 16 bits of a place id.
_PLACES_PER_ROW = 1 << 16
# Pages whose model state moves to another cluster, read at a time.
_PAGES_PER_MOVE = 500
# The separator of a place's fields: a layout path, a tag and a kind never hold it.
_FIELD = "\x1f"
# A heading's shape keeps its names (`extraction.site_models.frequency.masked_shape`).
_HEADING = BlockKind.HEADING.value


def place_ids(session: Session, cluster_id: int, places: set[Place], known: KnownIds) -> dict[Place, int]:
    """The ids of a cluster's places: those known, those other processes added since (read once), and the
    rest appended."""
    ids = known.place_ids(cluster_id)
    if places <= ids.keys():
        return ids
    ids = _read_new_rows(session, cluster_id, known) | ids
    new = sorted(places - ids.keys())
    for start in range(0, len(new), _PLACES_PER_ROW):
        chunk = new[start : start + _PLACES_PER_ROW]
        statement = insert(ModelPlaces).values(cluster_id=cluster_id, places=_pack_places(chunk))
        row_id = session.execute(statement.returning(ModelPlaces.id)).scalar_one()
        added = {place: row_id * _PLACES_PER_ROW + index for index, place in enumerate(chunk)}
        known.learn_places(cluster_id, added, row_id)
        ids |= added
    return ids


def _read_new_rows(session: Session, cluster_id: int, known: KnownIds) -> dict[Place, int]:
    """The places of the cluster's rows this process has not read yet."""
    query = select(ModelPlaces.id, ModelPlaces.places).where(
        ModelPlaces.cluster_id == cluster_id, ModelPlaces.id > known.last_place_row(cluster_id)
    )
    found: dict[Place, int] = {}
    for row_id, packed in session.execute(query.order_by(ModelPlaces.id)):
        added = {
            place: row_id * _PLACES_PER_ROW + index for index, place in enumerate(_unpack_places(packed))
        }
        # A place appended twice keeps its first id: every page's state names one of them, either reads.
        found = added | found
        known.learn_places(cluster_id, added, row_id)
    return found


def _pack_places(places: Sequence[Place]) -> bytes:
    """Places in order, each as the length it shares with the one before and the rest (layout paths share
    long prefixes: front coding then zlib keeps a few bytes a place)."""
    out = bytearray()
    previous = b""
    for place in places:
        entry = _FIELD.join(place).encode()
        shared = min(_common_prefix(previous, entry), 255)
        rest = entry[shared:]
        out += struct.pack("<BI", shared, len(rest)) + rest
        previous = entry
    return zlib.compress(bytes(out), 9)


def _common_prefix(first: bytes, second: bytes) -> int:
    length = 0
    for a, b in zip(first, second, strict=False):
        if a != b:
            break
        length += 1
    return length


def _unpack_places(packed: bytes) -> list[Place]:
    raw = zlib.decompress(packed)
    places = []
    previous, index = b"", 0
    while index < len(raw):
        shared, size = struct.unpack_from("<BI", raw, index)
        index += 5
        entry = previous[:shared] + raw[index : index + size]
        index += size
        slot, tag, kind = entry.decode().split(_FIELD)
        places.append((slot, tag, kind))
        previous = entry
    return places


def write_states(
    session: Session,
    cluster_id: int,
    pages: Mapping[int, Sequence[BlockRecord]],
    known: KnownIds,
    signatures: Mapping[int, int],
) -> None:
    """Write the model state of pages of one cluster (page id -> its block records, in page order) and
    the id of each page's signature (`pipelines.storage.signatures`)."""
    places = {(block.slot, block.tag[:16], block.kind) for blocks in pages.values() for block in blocks}
    ids = place_ids(session, cluster_id, places, known)
    rows = [
        {
            "page_id": page,
            "cluster_id": cluster_id,
            "state": encode_state(_state(blocks, ids)),
            "signature_id": signatures.get(page),
        }
        for page, blocks in pages.items()
    ]
    stmt = insert_for(session, PageModel)
    replaced = {
        "cluster_id": stmt.excluded.cluster_id,
        "state": stmt.excluded.state,
        "signature_id": stmt.excluded.signature_id,
    }
    session.execute(stmt.on_conflict_do_update(index_elements=["page_id"], set_=replaced), rows)


def move_states(session: Session, moves: Mapping[int, tuple[int, int]]) -> None:
    """Move pages' model states to other clusters of their site (page id -> (its cluster, the new one)):
    each block's place is named again by the new cluster's ids, added to it when new."""
    known = KnownIds()
    sources: dict[int, list[int]] = {}
    for page_id, (source, _) in sorted(moves.items()):
        sources.setdefault(source, []).append(page_id)
    for source, page_ids in sorted(sources.items()):
        places = StatePlaces.of(session, source).places
        for start in range(0, len(page_ids), _PAGES_PER_MOVE):
            query = select(PageModel.page_id, PageModel.state).where(
                PageModel.page_id.in_(page_ids[start : start + _PAGES_PER_MOVE])
            )
            rows = [
                _moved(session, page_id, data, places, moves[page_id][1], known)
                for page_id, data in session.execute(query)
            ]
            session.execute(update(PageModel), rows)


def _moved(
    session: Session, page_id: int, data: bytes, places: Mapping[int, Place], target: int, known: KnownIds
) -> dict[str, object]:
    """The row of a page's model state moved to the cluster `target`."""
    state = decode_state(data)
    page_places = [places[key_id] for key_id in state.key_ids]
    ids = place_ids(session, target, set(page_places), known)
    moved = ModelState(
        [ids[place] for place in page_places], state.page_codes, state.shape_modes, state.shapes
    )
    return {"page_id": page_id, "cluster_id": target, "state": encode_state(moved)}


def single_page_codes(blocks: Sequence[BlockRecord]) -> bytes:
    """The code of each block's single-page decision, as a state keeps them."""
    return bytes(code(block.page_label or block.label, block.page_rule) for block in blocks)


def _state(blocks: Sequence[BlockRecord], ids: Mapping[Place, int]) -> ModelState:
    modes = bytearray()
    shapes: list[int] = []
    for block in blocks:
        if block.shape is None:
            modes.append(NO_SHAPE)
        elif block.shape == derived_shape(block.slot, block.hash):
            modes.append(DERIVED_SHAPE)
        elif block.label == CONTENT and block.shape == _masked(block):
            modes.append(MASKED_SHAPE)
        else:
            modes.append(STORED_SHAPE)
            shapes.append(hash_to_int(block.shape))
    key_ids = [ids[(block.slot, block.tag[:16], block.kind)] for block in blocks]
    return ModelState(key_ids, single_page_codes(blocks), bytes(modes), shapes)


@dataclass(slots=True)
class StatePlaces:
    """A cluster's places by id, to read its pages' states."""

    places: dict[int, Place]

    @classmethod
    def of(cls, session: Session, cluster_id: int) -> StatePlaces:
        """The places of a cluster, read once."""
        query = select(ModelPlaces.id, ModelPlaces.places).where(ModelPlaces.cluster_id == cluster_id)
        places: dict[int, Place] = {}
        for row_id, packed in session.execute(query):
            for index, place in enumerate(_unpack_places(packed)):
                places[row_id * _PLACES_PER_ROW + index] = place
        return cls(places)

    def blocks(
        self, state: ModelState, hashes: Sequence[str], texts: Sequence[str]
    ) -> tuple[list[Block], list[BlockKey]]:
        """A stored page as single-page extraction labelled it, and its keys, for a site model: its
        decoded state, and its blocks' text hashes and texts in page order (a text is "" when not read)."""
        blocks: list[Block] = []
        keys: list[BlockKey] = []
        # strict: a state that does not match its page's blocks is an error, not a shorter page.
        shapes = state.stored_shapes()
        columns = zip(state.key_ids, state.page_codes, state.shape_modes, shapes, hashes, texts, strict=True)
        for position, (key_id, page_code, mode, shape, digest, text) in enumerate(columns):
            slot, tag, kind = self.places[key_id]
            label, rule = code_label(page_code), code_rule(page_code)
            blocks.append(stored_block(position, slot, tag, kind, text, label, rule))
            keys.append(BlockKey(digest, slot, _shape(mode, shape, slot, digest, text, kind == _HEADING)))
        return blocks, keys


def _masked(block: BlockRecord) -> str | None:
    return masked_shape(block.slot, block.text, block.kind == _HEADING)


def _shape(mode: int, shape: int | None, slot: str, digest: str, text: str, heading: bool) -> str | None:
    if mode == DERIVED_SHAPE:
        return derived_shape(slot, digest)
    if mode == MASKED_SHAPE:
        # A content block's text is kept while it is content; one that turned noise since lost it.
        return masked_shape(slot, text, heading) if text else None
    return None if shape is None else int_to_hash(shape)
