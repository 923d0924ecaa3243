"""`MethodPipeline`: a site-level method (``EXTRACTION_METHOD``) learns each cluster and labels its pages.

The seed papers' site-level methods (contentextractor, infodiscoverer, kmib, styletree) label a page by
what the other pages of its site share. In a crawl those pages are the page's cluster (`ClusterPipeline`,
which runs before; with ``CLUSTER_ENABLED`` off all pages form one group): per (site, cluster) this
pipeline holds the HTML of the pages not learned yet, and the cluster's method learns them when this
process has met ``EXTRACTION_SITE_MIN_PAGES`` pages of the cluster, then each time that count doubles,
until it has learned ``EXTRACTION_METHOD_LEARN_PAGES`` pages; then no HTML is held for the cluster any
more. HTML is not stored, so pages stored by earlier crawls or other processes are not learned.

From the first learning on, every page of the cluster is extracted again with the learned method and its
blocks replace the spider's. The pages that came before keep the labels the spider's unlearned method gave
them: unlike cleancrawl's own site models, a paper method's stored pages are not re-cleaned (its labels
need the HTML).

Learning adds to what the cluster's method learned (`Method.learn`): each page is read once for learning.
The item's HTML is dropped here, learned or not, so no HTML reaches storage.

NotConfigured when the crawl's method is not site-level (the spider's labels are final). Stats:
``cleancrawl/method/learnings`` (learning passes), ``cleancrawl/method/pages_learned``,
``cleancrawl/method/pages_relabelled`` (extracted again with a learned method),
``cleancrawl/method/pages_unlearned`` (first pages of a cluster, spider's labels kept),
``cleancrawl/method/seconds`` (time spent learning and extracting here).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Self

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.settings import BaseSettings
from scrapy.statscollectors import StatsCollector

from crawler import stats
from crawler.items import PageItem
from extraction import ExtractionConfig
from extraction.methods.base import Method, SitePage
from extraction.methods.registry import DEFAULT_METHOD, get_method
from pipelines.config import SiteConfigs, site_configs

logger = logging.getLogger(__name__)

_PREFIX = stats.PREFIX + "method/"
LEARNINGS = _PREFIX + "learnings"
PAGES_LEARNED = _PREFIX + "pages_learned"
PAGES_RELABELLED = _PREFIX + "pages_relabelled"
PAGES_UNLEARNED = _PREFIX + "pages_unlearned"
SECONDS = _PREFIX + "seconds"


def site_models_enabled(settings: BaseSettings, config: ExtractionConfig) -> bool:
    """Whether cleancrawl's site models revise and re-clean labels: ``SITE_MODELS_ENABLED`` and the crawl's
    method (`config`) is cleancrawl, whose part they are; a paper method's labels are its own."""
    return settings.getbool("SITE_MODELS_ENABLED", True) and config.method == DEFAULT_METHOD


@dataclass(slots=True)
class ClusterLearning:
    """One cluster's method, the pages it has not learned yet, and when it learns next."""

    method: Method
    next_learning: int
    pending: list[SitePage] = field(default_factory=list)
    pages: int = 0
    learned: int = 0

    @property
    def ready(self) -> bool:
        """True once the method has learned from some pages of the cluster."""
        return self.learned > 0


class MethodPipeline:
    """Learn each cluster with the crawl's site-level method and extract its pages again with it."""

    def __init__(self, stats_collector: StatsCollector, configs: SiteConfigs) -> None:
        self.stats = stats_collector
        self.configs = configs
        # The crawl's method and how many pages of a cluster it holds: the same for every site.
        self.config = configs.default
        self.clusters: dict[tuple[str, str], ClusterLearning] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """NotConfigured unless ``EXTRACTION_METHOD`` names a site-level method."""
        configs = site_configs(crawler.settings)
        config = configs.default
        if not get_method(config.method, config).site_level:
            raise NotConfigured(f"method {config.method} labels each page on its own")
        assert crawler.stats is not None
        return cls(crawler.stats, configs)

    def process_item(self, item: PageItem) -> PageItem:
        """Hold the page for its cluster's learning; label it with the learned method once there is one."""
        started = time.perf_counter()
        cluster = self._cluster(item)
        cluster.pages += 1
        if cluster.learned + len(cluster.pending) < self.config.method_learn_pages:
            cluster.pending.append(SitePage(item.html, item.url, item.encoding))
        if cluster.pages >= cluster.next_learning and cluster.pending:
            self._learn(item, cluster)
        if cluster.ready:
            result = cluster.method.extract(item.html, item.url, item.encoding)
            item.relabel(result, self.configs.of(item.site).site_shape_max_chars)
            self.stats.inc_value(PAGES_RELABELLED)
        else:
            self.stats.inc_value(PAGES_UNLEARNED)
        item.html = b""
        stats.add_seconds(self.stats, SECONDS, time.perf_counter() - started)
        return item

    def _cluster(self, item: PageItem) -> ClusterLearning:
        key = (item.site, item.cluster)
        if key not in self.clusters:
            config = self.configs.of(item.site)
            method = get_method(config.method, config)
            self.clusters[key] = ClusterLearning(method, max(1, config.site_min_pages))
        return self.clusters[key]

    def _learn(self, item: PageItem, cluster: ClusterLearning) -> None:
        """Learn the pages held for the cluster; the next learning comes when its page count doubles."""
        cluster.method.learn(cluster.pending)
        cluster.learned += len(cluster.pending)
        self.stats.inc_value(LEARNINGS)
        self.stats.inc_value(PAGES_LEARNED, len(cluster.pending))
        cluster.pending = []
        cluster.next_learning = 2 * cluster.pages
        logger.info(
            "%s learned %d pages of cluster %s of %s (%d pages met)",
            self.config.method,
            cluster.learned,
            item.cluster,
            item.site,
            cluster.pages,
        )
