"""The clusters of each site in the database: every crawler process assigns pages against the same ones."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from extraction.site_models import Cluster
from pipelines.storage.codec import pack_signature, unpack_signature
from pipelines.storage.dialect import insert_for
from pipelines.storage.models import Cluster as ClusterRow
from pipelines.storage.models import Site
from pipelines.storage.repository import site_ids


class StoredClusters:
    """One site's clusters as the store shares them (`extraction.site_models.SharedClusters`)."""

    def __init__(self, sessions: sessionmaker[Session], site: str) -> None:
        self.sessions = sessions
        self.site = site

    def known(self) -> Iterable[Cluster]:
        """The site's clusters, oldest first."""
        with self.sessions() as session:
            return load_clusters(session, self.site)

    def founded(self, cluster: Cluster) -> None:
        """Record a new cluster (one another process founded at the same time keeps its row)."""
        with self.sessions.begin() as session:
            add_cluster(session, self.site, cluster)


def load_clusters(session: Session, site: str) -> list[Cluster]:
    """The site's clusters, oldest first."""
    rows = session.execute(
        select(ClusterRow.name, ClusterRow.representative, ClusterRow.page_count)
        .join(Site, Site.id == ClusterRow.site_id)
        .where(Site.host == site, func.length(ClusterRow.representative) > 0)
        .order_by(ClusterRow.id)
    )
    return [Cluster(name, unpack_signature(shingles), pages) for name, shingles, pages in rows]


def add_cluster(session: Session, site: str, cluster: Cluster) -> None:
    """Record `cluster` of `site` with its representative signature."""
    site_id = site_ids(session, {site})[site]
    row = {
        "site_id": site_id,
        "name": cluster.name,
        "page_count": 0,
        "representative": pack_signature(cluster.signature),
    }
    stmt = insert_for(session, ClusterRow).on_conflict_do_update(
        index_elements=["site_id", "name"], set_={"representative": row["representative"]}
    )
    session.execute(stmt, [row])
