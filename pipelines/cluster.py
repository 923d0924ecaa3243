"""`ClusterPipeline`: the site of a page and the cluster of its template, shared through the database.

A page's signature is the set of shingles of its blocks' layout paths (`extraction.site_models`); it
joins the most similar cluster of its site when the Jaccard similarity reaches
``EXTRACTION_SITE_CLUSTER_THRESHOLD``, else it founds a new cluster with itself as representative. On
whizzy the 72 posts form one cluster and the archive pages others; the Python docs form a few.

Clusters live in the database (``DATABASE_URL``): a process that meets a page matching none of the
clusters it knows reads the site's clusters again before founding one, so crawler processes sharing a
database (and a re-crawl) assign pages to the same clusters. Without a database, clusters live in memory.

Settings: ``CLUSTER_ENABLED`` (default True) switches the pipeline off; ``EXTRACTION_SITE_SHINGLE_SIZE``,
``EXTRACTION_SITE_SIGNATURE_DEPTH`` and ``EXTRACTION_SITE_CLUSTER_THRESHOLD`` tune the signature.
"""

from __future__ import annotations

from typing import Self

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from sqlalchemy.orm import Session, sessionmaker

from crawler.items import PageItem
from crawler.scope import site_of
from extraction.site_models import Cluster, best_cluster, block_paths_signature, signature_key
from extraction.site_models.signature import Signature
from pipelines.config import SiteConfigs, site_configs
from pipelines.storage import DEFAULT_DATABASE_URL, make_engine, migrate, session_factory
from pipelines.storage.clusters import add_cluster, load_clusters


class ClusterPipeline:
    """Set `item.site` (host[:port] of the final URL) and `item.cluster` (its cluster's name)."""

    def __init__(self, configs: SiteConfigs, database_url: str = "") -> None:
        self.configs = configs
        self.database_url = database_url
        self.clusters: dict[str, dict[str, Cluster]] = {}
        self._sessions: sessionmaker[Session] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Read the settings; NotConfigured when ``CLUSTER_ENABLED`` is false."""
        settings = crawler.settings
        if not settings.getbool("CLUSTER_ENABLED", True):
            raise NotConfigured("CLUSTER_ENABLED is False")
        return cls(site_configs(settings), settings.get("DATABASE_URL", DEFAULT_DATABASE_URL) or "")

    def open_spider(self) -> None:
        """Connect to the database that holds the clusters, if there is one."""
        if self.database_url:
            engine = make_engine(self.database_url)
            migrate(engine)
            self._sessions = session_factory(engine)

    def close_spider(self) -> None:
        """Release the connections."""
        if self._sessions is not None:
            bind = self._sessions.kw["bind"]
            bind.dispose()

    def process_item(self, item: PageItem) -> PageItem:
        """Fill in the page's site and cluster."""
        item.site = site_of(item.final_url)
        config = self.configs.of(item.site)
        paths = [block.path for block in item.blocks]
        signature = block_paths_signature(paths, config.site_shingle_size, config.site_signature_depth)
        item.cluster = self.assign(item.site, signature)
        return item

    def assign(self, site: str, signature: Signature) -> str:
        """The name of the site's cluster for `signature`, founding one when none is similar enough."""
        known = self._known(site)
        threshold = self.configs.of(site).site_cluster_threshold
        match = _named(known, best_cluster(signature, known.values(), threshold))
        if match is None and self._sessions is not None:
            # Another process may have founded it meanwhile: read the site's clusters again first.
            known.update(self._load(site))
            match = _named(known, best_cluster(signature, known.values(), threshold))
        if match is None:
            match = self._found(site, signature)
            known[match] = Cluster(len(known), signature)
        known[match].pages += 1
        return match

    def _known(self, site: str) -> dict[str, Cluster]:
        if site not in self.clusters:
            self.clusters[site] = self._load(site) if self._sessions is not None else {}
        return self.clusters[site]

    def _load(self, site: str) -> dict[str, Cluster]:
        assert self._sessions is not None
        with self._sessions() as session:
            return load_clusters(session, site)

    def _found(self, site: str, signature: Signature) -> str:
        if self._sessions is None:
            return signature_key(signature)
        with self._sessions.begin() as session:
            return add_cluster(session, site, signature)


def _named(clusters: dict[str, Cluster], cluster: Cluster | None) -> str | None:
    """The name of `cluster` in `clusters` (None for None)."""
    if cluster is None:
        return None
    return next(name for name, known in clusters.items() if known is cluster)
