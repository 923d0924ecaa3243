"""`SqlStore`: a crawl's pages in SQL (SQLite or PostgreSQL), behind the small interface the storage
pipeline uses (`pipelines.store.PageStore`), as Scrapy's files pipeline keeps its stores apart.

Pages are written a batch per transaction; when a batch fails, its pages are written one per transaction,
so that a page that cannot be stored costs only itself. Re-cleaning revises the stored pages of some
clusters with their models and, when asked, forgets the text of blocks no page holds as content.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from extraction.site_models import SiteModel
from pipelines.cluster_models import CrawlModels
from pipelines.config import CrawlConfig
from pipelines.revisit import RevisitPolicy
from pipelines.storage.aliases import split_aliases
from pipelines.storage.crawl_state import StateSummary, record_fetches
from pipelines.storage.db import compact, retry_races
from pipelines.storage.known import KnownIds
from pipelines.storage.models import SEARCH_INDEX, STORE_TABLES, Page
from pipelines.storage.reclean import (
    Rebuilt,
    RecleanSummary,
    donor_cluster,
    purge_noise_text,
    rebuilt,
    rebuilt_model,
    reclean_cluster,
    stored_urls,
)
from pipelines.storage.repository import BatchSummary, cluster_ids, store_pages
from pipelines.storage.settle import SettleSummary, settle_site
from pipelines.storage.sizes import StoreSize, measure
from records import PageRecord
from records.closing import Members
from records.urls import UrlRecord

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class WriteSummary:
    """What written items did: to the pages (`BatchSummary`) and to the crawl state (`StateSummary`)."""

    pages: BatchSummary = field(default_factory=BatchSummary)
    state: StateSummary = field(default_factory=StateSummary)
    # The URLs of pages not stored because a stored page of their path holds the same content.
    aliases: set[str] = field(default_factory=set)

    def add(self, other: WriteSummary) -> None:
        """Add another write's counts to this one."""
        self.pages.add(other.pages)
        self.aliases |= other.aliases
        for name in ("changed", "unchanged", "gone", "queued"):
            setattr(self.state, name, getattr(self.state, name) + getattr(other.state, name))


# What the storage pipeline hands the store: stored pages and the other outcomes of requests.
Item = PageRecord | UrlRecord


class SqlStore:
    """Store page records and the crawl state, and re-clean stored clusters, in one SQL database."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        config: CrawlConfig,
        models: CrawlModels | None,
        compact_share: float = 0.0,
        revisit: RevisitPolicy | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        known: KnownIds | None = None,
    ) -> None:
        self.sessions = sessions
        self.config = config
        self.compact_share = compact_share
        self.revisit = revisit or RevisitPolicy()
        self.clock = clock
        # Pages this process wrote (new or changed): the churn that decides compacting at the end.
        self.written = 0
        # With site models, noise text is kept until the page's cluster has re-cleaned it.
        self.models = models
        self.known = known or KnownIds()

    def persist(self, items: Sequence[Item]) -> tuple[list[Item], WriteSummary]:
        """Write the items in one transaction, or one per transaction when that fails; the items written."""
        try:
            return list(items), retry_races(lambda: self._write(items), "Writing a batch")
        except SQLAlchemyError:
            logger.exception("Writing a batch of %d items failed; retrying one by one", len(items))
        written: list[Item] = []
        summary = WriteSummary()
        for item in items:
            try:
                summary.add(self._write([item]))
            except SQLAlchemyError:
                logger.exception("Could not store %s", item.url)
                continue
            written.append(item)
        return written, summary

    def reclean(self, clusters: Iterable[tuple[str, str]], purge: bool) -> RecleanSummary:
        """Re-clean every stored page of the (site, cluster) pairs in one transaction; then forget noise text
        if asked. Tried again when it lost a race with another process writing the store (`retry_races`);
        raises `SQLAlchemyError` when the database fails otherwise (nothing is changed then)."""
        pairs = list(clusters)
        return retry_races(lambda: self._reclean(pairs, purge), f"Re-cleaning {len(pairs)} clusters")

    def cluster_pages(self, clusters: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Members]:
        """The stored pages of each (site, cluster) pair (a cluster with no stored page is left out)."""
        with self.sessions() as session:
            ids = cluster_ids(session, clusters)
            query = select(Page.cluster_id, func.count(), func.sum(Page.id))
            rows = session.execute(query.where(Page.cluster_id.in_(ids.values())).group_by(Page.cluster_id))
            found = {cluster_id: Members(int(pages), int(id_sum)) for cluster_id, pages, id_sum in rows}
        return {pair: found[cluster_id] for pair, cluster_id in ids.items() if cluster_id in found}

    def settle(self, site: str) -> SettleSummary:
        """Group the site's stored pages into clusters again (`pipelines.storage.settle`); tried again when
        it lost a race with another process writing the store."""
        return retry_races(lambda: self._settle(site), f"Settling the clusters of {site}")

    def _settle(self, site: str) -> SettleSummary:
        with self.sessions.begin() as session:
            return settle_site(session, site, self.config.of(site).model.cluster_threshold)

    def _reclean(self, clusters: Sequence[tuple[str, str]], purge: bool) -> RecleanSummary:
        summary = RecleanSummary()
        with self.sessions.begin() as session:
            donors: dict[int, SiteModel] = {}
            for (site, cluster), cluster_id in cluster_ids(session, clusters).items():
                model, pages = self._model(session, site, cluster, cluster_id, summary)
                if not model.ready:
                    model = self._borrowed(session, (site, cluster), cluster_id, donors, summary) or model
                config = self.config.of(site).model
                summary.add(reclean_cluster(session, cluster_id, config, model, pages))
            if purge:
                summary.purged = purge_noise_text(session)
        return summary

    def finish(self) -> StoreSize:
        """Compact the store when this process wrote at least `compact_share` of its pages (`compact`), give
        freed pages back to the file system and measure the store on disk (`store_size`)."""
        return retry_races(self._finish, "Measuring the store")

    def _finish(self) -> StoreSize:
        engine = self.sessions.kw["bind"]
        with self.sessions() as session:
            stored = session.scalar(select(func.count()).select_from(Page)) or 0
        churned = self.written and self.written >= self.compact_share * stored
        if churned and compact(engine, [SEARCH_INDEX], STORE_TABLES):
            logger.info("Compacted the store: this crawl wrote %d of its %d pages", self.written, stored)
        return measure(engine)

    def _write(self, items: Sequence[Item]) -> WriteSummary:
        pages = [item for item in items if isinstance(item, PageRecord)]
        outcomes = [item for item in items if isinstance(item, UrlRecord)]
        with_models = self.models is not None
        try:
            with self.sessions.begin() as session:
                pages, aliases = split_aliases(session, pages)
                outcomes += aliases
                written = store_pages(
                    session, pages, keep_noise_text=with_models, model_state=with_models, known=self.known
                )
                state = record_fetches(session, pages, written, outcomes, self.revisit, self.clock())
        except BaseException:
            self.known.rollback()
            raise
        self.known.commit()
        self.written += written.new + written.changed
        return WriteSummary(written, state, {alias.url for alias in aliases})

    def _model(
        self, session: Session, site: str, cluster: str, cluster_id: int, summary: RecleanSummary
    ) -> Rebuilt:
        """The cluster's model: this crawl's (`_learned_model`), else rebuilt from its stored pages, with
        the pages read for it (`Rebuilt`)."""
        model = self._learned_model(session, site, cluster, cluster_id)
        if model is not None:
            return Rebuilt(model, None)
        summary.models_rebuilt += 1
        return rebuilt(session, cluster_id, self.config.of(site).model)

    def _borrowed(
        self,
        session: Session,
        pair: tuple[str, str],
        cluster_id: int,
        donors: dict[int, SiteModel],
        summary: RecleanSummary,
    ) -> SiteModel | None:
        """For a cluster with too few pages for a model, the model of its site's most similar cluster that has
        one (`donor_cluster`), each donor's made once per re-clean; None when no cluster is similar enough."""
        site, cluster = pair
        found = donor_cluster(session, cluster_id, self.config.of(site).model)
        if found is None:
            return None
        donor_id, donor, share = found
        if donor_id not in donors:
            donors[donor_id] = self._model(session, site, donor, donor_id, summary).model
        if not donors[donor_id].ready:
            return None
        summary.models_borrowed += 1
        logger.info(
            "Cluster %s of %s has too few pages for a model: revised with cluster %s's (similarity %.2f)",
            cluster,
            site,
            donor,
            share,
        )
        return donors[donor_id]

    def _learned_model(self, session: Session, site: str, cluster: str, cluster_id: int) -> SiteModel | None:
        """This crawl's model of the cluster when it has seen exactly its stored pages; None to rebuild it."""
        learned = self.models.get(site, cluster) if self.models is not None else None
        if learned is not None and learned.mirrors(stored_urls(session, cluster_id)):
            return learned.model
        return None


def stored_model(
    sessions: sessionmaker[Session], config: CrawlConfig, site: str, cluster: str
) -> tuple[SiteModel, set[str]] | None:
    """The model of a stored cluster learned from its stored pages, and their URLs; None when the store
    holds no page of it."""
    with sessions() as session:
        cluster_id = cluster_ids(session, [(site, cluster)]).get((site, cluster))
        urls = stored_urls(session, cluster_id) if cluster_id is not None else set()
        if cluster_id is None or not urls:
            return None
        started = time.perf_counter()
        model = rebuilt_model(session, cluster_id, config.of(site).model)
    seconds = time.perf_counter() - started
    logger.info(
        "Cluster %s of %s: model loaded from %d stored pages in %.2f s", cluster, site, len(urls), seconds
    )
    return model, urls
