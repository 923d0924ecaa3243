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
``cleancrawl/method/*`` (`records.stats`).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any, Self

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.statscollectors import StatsCollector

from extraction.methods.base import Method, SitePage
from extraction.methods.registry import get_method, method_class
from pipelines.config import CrawlConfig
from pipelines.context import CrawlContext
from records import PageRecord, stats
from records.pages import pages_only

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class ClusterLearning:
    """One cluster's method, the pages it has not learned yet, and when it learns next."""

    method: Method[Any]
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

    def __init__(self, stats_collector: StatsCollector, config: CrawlConfig) -> None:
        self.stats = stats_collector
        self.config = config
        self.clusters: dict[tuple[str, str], ClusterLearning] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """NotConfigured unless ``EXTRACTION_METHOD`` names a site-level method."""
        config = CrawlContext.of(crawler).config
        if not method_class(config.method).site_level:
            raise NotConfigured  # the default: a single-page method needs no learning, and no warning
        assert crawler.stats is not None
        return cls(crawler.stats, config)

    @pages_only
    def process_item(self, page: PageRecord) -> PageRecord:
        """Hold the page for its cluster's learning; label it with the learned method once there is one."""
        started = time.perf_counter()
        cluster = self._cluster(page)
        cluster.pages += 1
        if cluster.learned + len(cluster.pending) < self.config.learn_pages:
            cluster.pending.append(SitePage(page.html, page.url, page.encoding))
        if cluster.pages >= cluster.next_learning and cluster.pending:
            self._learn(page, cluster)
        if cluster.ready:
            result = cluster.method.extract(page.html, page.url, page.encoding)
            page.relabel(result, self.config.of(page.site).model.shape_max_chars)
            self.stats.inc_value(stats.METHOD_PAGES_RELABELLED)
        else:
            self.stats.inc_value(stats.METHOD_PAGES_UNLEARNED)
        page.html = b""
        stats.add_seconds(self.stats, stats.METHOD_SECONDS, time.perf_counter() - started)
        return page

    def _cluster(self, page: PageRecord) -> ClusterLearning:
        key = (page.site, page.cluster)
        if key not in self.clusters:
            site = self.config.of(page.site)
            method = get_method(self.config.method, site.extraction, self.config.params)
            self.clusters[key] = ClusterLearning(method, max(1, site.model.min_pages))
        return self.clusters[key]

    def _learn(self, page: PageRecord, cluster: ClusterLearning) -> None:
        """Learn the pages held for the cluster; the next learning comes when its page count doubles."""
        cluster.method.learn(cluster.pending)
        cluster.learned += len(cluster.pending)
        self.stats.inc_value(stats.METHOD_LEARNINGS)
        self.stats.inc_value(stats.METHOD_PAGES_LEARNED, len(cluster.pending))
        cluster.pending = []
        cluster.next_learning = 2 * cluster.pages
        logger.info(
            "%s learned %d pages of cluster %s of %s (%d pages met)",
            self.config.method,
            cluster.learned,
            page.cluster,
            page.site,
            cluster.pages,
        )
