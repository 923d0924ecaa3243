"""The layout signatures of stored pages (`model_signatures`): each distinct one once per site.

A site's pages share a few layouts (198 distinct signatures among the PostgreSQL manual's 1,169 pages, 10
among 400 of the Python docs), so a page names its signature by id in its model state row, a few bytes.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from extraction.site_models import signature_key
from extraction.site_models.signature import Signature
from pipelines.storage.codec import hash_to_int, pack_signature
from pipelines.storage.dialect import insert_for
from pipelines.storage.models import ModelSignature


def signature_ids(session: Session, site_id: int, signatures: Iterable[Signature]) -> dict[Signature, int]:
    """The ids of a site's signatures, those not stored yet added."""
    wanted = {hash_to_int(signature_key(signature)): signature for signature in signatures}
    found = _stored_ids(session, site_id, set(wanted))
    missing = sorted(set(wanted) - found.keys())
    if missing:
        rows = [{"site_id": site_id, "key": key, "shingles": pack_signature(wanted[key])} for key in missing]
        stmt = insert_for(session, ModelSignature).on_conflict_do_nothing(index_elements=["site_id", "key"])
        session.execute(stmt, rows)
        found |= _stored_ids(session, site_id, set(missing))
    return {wanted[key]: signature_id for key, signature_id in found.items()}


def _stored_ids(session: Session, site_id: int, keys: set[int]) -> dict[int, int]:
    query = select(ModelSignature.key, ModelSignature.id).where(
        ModelSignature.site_id == site_id, ModelSignature.key.in_(keys)
    )
    return dict(session.execute(query).all())
