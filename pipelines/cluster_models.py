"""The site models of one crawl, shared by the pipeline that feeds them and the one that re-cleans with them.

`NoisePipeline` observes every page in its cluster's model; `StoragePipeline` re-cleans the stored pages
of a cluster with that same model when it mirrors them (it has seen exactly the cluster's stored pages,
each once), instead of rebuilding it from the database. A model that does not mirror the store (another
process stored pages of the cluster, a page of an earlier crawl was not fetched again, a page failed to
store) is rebuilt from the stored blocks, so the labels never depend on which process re-cleans.

A cluster the store already holds (a recrawl, a crawl that goes on after a crash, another process's
pages) starts from its stored pages' model (`StoredModel`, loaded once per cluster), not empty: its pages
are revised by the site's template from the first one, as they were when stored, so fetching a page
again does not change its clean text for want of a model. A page the model has seen is not counted again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from extraction import Block
from extraction.site_models import BlockKey, SiteModel
from pipelines.config import CrawlConfig
from records.seen import UrlSet


@dataclass(slots=True)
class ClusterModel:
    """One cluster's model and the URLs of the pages it observed."""

    model: SiteModel
    urls: UrlSet = field(default_factory=UrlSet)
    # Set when a page is met again: the model holds its first version, which the store may no longer hold.
    repeated: bool = False

    def observe(self, url: str, blocks: Sequence[Block], keys: Sequence[BlockKey]) -> None:
        """Learn from one page of the cluster; a page seen before is not counted twice."""
        if not self.urls.add(url):
            self.repeated = True
            return
        self.model.observe(blocks, keys)

    def mirrors(self, stored_urls: set[str]) -> bool:
        """True when the model has seen exactly the stored pages, each once, as stored."""
        return not self.repeated and self.urls.same_as(stored_urls)


# The model of a stored cluster and the URLs of the pages it learned from, or None when the store holds
# no page of it: `(site, cluster) -> (model, urls)`.
StoredModel = Callable[[str, str], tuple[SiteModel, set[str]] | None]


class CrawlModels:
    """The cluster models of one crawl, by (site, cluster); the crawl's `CrawlContext` holds them."""

    def __init__(self, config: CrawlConfig, stored: StoredModel | None = None) -> None:
        self.config = config
        self.stored = stored
        self.clusters: dict[tuple[str, str], ClusterModel] = {}

    def cluster(self, site: str, cluster: str) -> ClusterModel:
        """The model of a (site, cluster): on first use, the stored pages' model, or a new one."""
        key = (site, cluster)
        found = self.clusters.get(key)
        if found is None:
            loaded = self.stored(site, cluster) if self.stored is not None else None
            model, urls = loaded or (SiteModel(self.config.of(site).model), set())
            found = self.clusters[key] = ClusterModel(model, UrlSet(urls))
        return found

    def get(self, site: str, cluster: str) -> ClusterModel | None:
        """The model of a (site, cluster) if this crawl observed any of its pages."""
        return self.clusters.get((site, cluster))
