"""The site models of one crawl, shared by the pipeline that feeds them and the one that re-cleans with them.

`NoisePipeline` observes every page in its cluster's model; `StoragePipeline` re-cleans the stored pages
of a cluster with that same model when it mirrors them (it has seen exactly the cluster's stored pages,
each once), instead of rebuilding it from the database. A model that does not mirror the store (another
process stored pages of the cluster, a page of an earlier crawl was not fetched again, a page failed to
store) is rebuilt from the stored blocks, so the labels never depend on which process re-cleans.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from extraction import Block
from extraction.site_models import BlockKey, SiteModel
from pipelines.config import CrawlConfig


@dataclass(slots=True)
class ClusterModel:
    """One cluster's model and the URLs of the pages it observed."""

    model: SiteModel
    urls: set[str] = field(default_factory=set)
    # Set when a URL is observed twice: the model then counts a page the store holds once.
    repeated: bool = False

    def observe(self, url: str, blocks: Sequence[Block], keys: Sequence[BlockKey]) -> None:
        """Learn from one page of the cluster."""
        self.repeated |= url in self.urls
        self.urls.add(url)
        self.model.observe(blocks, keys)

    def mirrors(self, stored_urls: set[str]) -> bool:
        """True when the model has seen exactly the stored pages, each once."""
        return not self.repeated and self.urls == stored_urls


class CrawlModels:
    """The cluster models of one crawl, by (site, cluster); the crawl's `CrawlContext` holds them."""

    def __init__(self, config: CrawlConfig) -> None:
        self.config = config
        self.clusters: dict[tuple[str, str], ClusterModel] = {}

    def cluster(self, site: str, cluster: str) -> ClusterModel:
        """The model of a (site, cluster), created empty on first use."""
        key = (site, cluster)
        found = self.clusters.get(key)
        if found is None:
            found = self.clusters[key] = ClusterModel(SiteModel(self.config.of(site).model))
        return found

    def get(self, site: str, cluster: str) -> ClusterModel | None:
        """The model of a (site, cluster) if this crawl observed any of its pages."""
        return self.clusters.get((site, cluster))
