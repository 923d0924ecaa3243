"""Settling a site's clusters when a crawl closes: its stored pages grouped again, whatever their order.

A crawl assigns each page to a cluster as it meets it (`pipelines.cluster`): the first page of a layout
founds a cluster, so processes that meet the pages in other orders, as a fleet's do, can group them
otherwise, and a page's clean text depends on its cluster's model. Settling groups the stored pages again
from the signatures they were clustered by (`extraction.site_models.settled_clusters`): the grouping then
depends only on which pages are stored. Each settled group keeps the stored cluster that holds most of its
pages, so an order that grouped them alike moves nothing; the pages of a group held elsewhere move, with
their model states, and the clusters they leave and join are re-cleaned. The site's row is locked while
it settles: processes closing at once settle one after the other, each over all the pages stored so far.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from extraction import text_hash
from extraction.site_models import settled_clusters, signature_key
from pipelines.storage.codec import pack_signature, unpack_signature
from pipelines.storage.model_state import move_states
from pipelines.storage.models import Cluster as ClusterRow
from pipelines.storage.models import ModelSignature, Page, PageModel, Site
from pipelines.storage.repository import added_cluster_ids, refresh_page_counts


@dataclass(slots=True)
class SettleSummary:
    """What settling moved: pages, and the names of the clusters they left or joined."""

    pages_moved: int = 0
    clusters: set[str] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class _StoredCluster:
    name: str
    representative: bytes


@dataclass(frozen=True, slots=True)
class _SignedPage:
    id: int
    cluster_id: int
    signature: frozenset[int]


def settle_site(session: Session, site: str, threshold: float) -> SettleSummary:
    """Group the site's stored pages again by their signatures; move those whose cluster changes."""
    # FOR NO KEY UPDATE: settles of the site wait for each other, pages stored meanwhile do not wait.
    site_id = session.scalar(select(Site.id).where(Site.host == site).with_for_update(key_share=True))
    if site_id is None:
        return SettleSummary()
    pages = _signed_pages(session, site_id)
    settled = settled_clusters(Counter(page.signature for page in pages), threshold)
    # The groups in the order they were founded: a stored cluster two of them hold goes to the first.
    groups: dict[str, list[_SignedPage]] = {cluster.name: [] for cluster in settled.values()}
    for page in pages:
        groups[settled[page.signature].name].append(page)
    representatives = {cluster.name: cluster.signature for cluster in settled.values()}
    stored = _stored_clusters(session, site_id)
    targets = _targets(session, site_id, groups, representatives, stored)
    moves = {
        page.id: (page.cluster_id, targets[name])
        for name, members in groups.items()
        for page in members
        if page.cluster_id != targets[name]
    }
    _keep_representatives(session, stored, targets, representatives)
    if moves:
        move_states(session, moves)
        session.execute(update(Page), [{"id": page, "cluster_id": new} for page, (_, new) in moves.items()])
        refresh_page_counts(session, {cluster for move in moves.values() for cluster in move})
    names = {cluster_id: row.name for cluster_id, row in stored.items()}
    names |= {cluster_id: name for name, cluster_id in targets.items()}
    touched = {names[cluster] for move in moves.values() for cluster in move}
    return SettleSummary(len(moves), touched)


def _signed_pages(session: Session, site_id: int) -> list[_SignedPage]:
    """The site's pages with a model state and a signature, in id order."""
    query = (
        select(PageModel.page_id, PageModel.cluster_id, ModelSignature.shingles)
        .join(ModelSignature, ModelSignature.id == PageModel.signature_id)
        .where(ModelSignature.site_id == site_id)
        .order_by(PageModel.page_id)
    )
    shapes: dict[bytes, frozenset[int]] = {}
    pages = []
    for page_id, cluster_id, shingles in session.execute(query):
        signature = shapes.get(shingles)
        if signature is None:
            signature = shapes[shingles] = unpack_signature(shingles)
        pages.append(_SignedPage(page_id, cluster_id, signature))
    return pages


def _stored_clusters(session: Session, site_id: int) -> dict[int, _StoredCluster]:
    """The site's clusters by id."""
    query = select(ClusterRow.id, ClusterRow.name, ClusterRow.representative)
    rows = session.execute(query.where(ClusterRow.site_id == site_id))
    return {cluster_id: _StoredCluster(name, representative) for cluster_id, name, representative in rows}


def _targets(
    session: Session,
    site_id: int,
    groups: Mapping[str, Sequence[_SignedPage]],
    representatives: Mapping[str, frozenset[int]],
    stored: Mapping[int, _StoredCluster],
) -> dict[str, int]:
    """The stored cluster of each settled group, in the order the groups were founded: the one holding most
    of its pages that no group before took, else a cluster named after its representative."""
    taken: dict[int, str] = {}
    for name, members in groups.items():
        held = Counter(page.cluster_id for page in members if page.cluster_id not in taken)
        if held:
            taken[min(held, key=lambda cluster_id: (-held[cluster_id], cluster_id))] = name
    targets = {name: cluster_id for cluster_id, name in taken.items()}
    used = {stored[cluster_id].name for cluster_id in taken}
    for name in groups.keys() - targets.keys():
        free = _free_name(signature_key(representatives[name]), used)
        used.add(free)
        targets[name] = added_cluster_ids(session, {(site_id, free)})[(site_id, free)]
    return targets


def _free_name(name: str, used: set[str]) -> str:
    """`name`, or a name derived from it that no settled group holds."""
    candidate, attempt = name, 0
    while candidate in used:
        attempt += 1
        candidate = text_hash(f"{name} {attempt}")
    return candidate


def _keep_representatives(
    session: Session,
    stored: Mapping[int, _StoredCluster],
    targets: Mapping[str, int],
    representatives: Mapping[str, frozenset[int]],
) -> None:
    """Each settled cluster keeps its representative, for the pages later crawls assign; a stored cluster
    no group took keeps none, so that no page joins it."""
    wanted = dict.fromkeys(stored, b"")
    wanted |= {cluster_id: pack_signature(representatives[name]) for name, cluster_id in targets.items()}
    rows = [
        {"id": cluster_id, "representative": representative}
        for cluster_id, representative in wanted.items()
        if cluster_id not in stored or stored[cluster_id].representative != representative
    ]
    if rows:
        session.execute(update(ClusterRow), rows)
