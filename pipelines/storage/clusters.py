"""The clusters of each site in the database: every crawler process assigns pages against the same ones."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from extraction.site_models import Cluster, decode_signature, encode_signature, signature_key
from extraction.site_models.signature import Signature
from pipelines.storage.models import Cluster as ClusterRow
from pipelines.storage.models import Site
from pipelines.storage.repository import insert_for, site_ids


def load_clusters(session: Session, host: str) -> dict[str, Cluster]:
    """The site's clusters by name (`signature_key` of the representative), oldest first."""
    rows = session.execute(
        select(ClusterRow.id, ClusterRow.signature, ClusterRow.shingles, ClusterRow.page_count)
        .join(Site, Site.id == ClusterRow.site_id)
        .where(Site.host == host, ClusterRow.shingles != "")
        .order_by(ClusterRow.id)
    )
    return {
        key: Cluster(cluster_id, decode_signature(shingles), pages)
        for cluster_id, key, shingles, pages in rows
    }


def add_cluster(session: Session, host: str, signature: Signature) -> str:
    """Record a new cluster of `host` with `signature` as its representative; return its name."""
    key = signature_key(signature)
    site_id = site_ids(session, {host})[host]
    row = {"site_id": site_id, "signature": key, "page_count": 0, "shingles": encode_signature(signature)}
    stmt = insert_for(session, ClusterRow).on_conflict_do_update(
        index_elements=["site_id", "signature"], set_={"shingles": row["shingles"]}
    )
    session.execute(stmt, [row])
    return key
