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
from typing import ClassVar, Self
from weakref import WeakKeyDictionary

from scrapy.crawler import Crawler

from extraction import Block
from extraction.site_models import BlockKey, SiteModel
from pipelines.config import SiteConfigs, site_configs


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
    """The cluster models of one crawl, by (site, cluster); one instance per crawler (`of`)."""

    _by_crawler: ClassVar[WeakKeyDictionary[Crawler, CrawlModels]] = WeakKeyDictionary()

    def __init__(self, configs: SiteConfigs) -> None:
        self.configs = configs
        self.clusters: dict[tuple[str, str], ClusterModel] = {}

    @classmethod
    def of(cls, crawler: Crawler) -> Self:
        """The crawler's models, created on first use from its ``EXTRACTION_*`` settings (each site's)."""
        models = cls._by_crawler.get(crawler)
        if models is None:
            models = cls._by_crawler[crawler] = cls(site_configs(crawler.settings))
        assert isinstance(models, cls)
        return models

    def cluster(self, site: str, cluster: str) -> ClusterModel:
        """The model of a (site, cluster), created empty on first use."""
        key = (site, cluster)
        found = self.clusters.get(key)
        if found is None:
            found = self.clusters[key] = ClusterModel(SiteModel(self.configs.of(site)))
        return found

    def get(self, site: str, cluster: str) -> ClusterModel | None:
        """The model of a (site, cluster) if this crawl observed any of its pages."""
        return self.clusters.get((site, cluster))
