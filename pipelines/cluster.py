"""`ClusterPipeline`: the cluster of a page's template within its site, shared through the database.

A page's signature is the set of its blocks' layout paths, its content cut at the children of the
container that holds it (`extraction.site_models.layout_signature`, on the single-page labels); it joins
the most similar cluster of its site when the Jaccard similarity reaches
``EXTRACTION_SITE_CLUSTER_THRESHOLD``, else it founds a new cluster with itself as representative. On
whizzy the 72 posts form one cluster and the archive pages others; the Python docs form a few.

Clusters live in the database (``DATABASE_URL``): a process that meets a page matching none of the
clusters it knows reads the site's clusters again before founding one, so crawler processes sharing a
database (and a re-crawl) assign pages to the same clusters. Without a database, clusters live in memory.

Settings: ``CLUSTER_ENABLED`` switches the pipeline off; ``EXTRACTION_SITE_SHINGLE_SIZE``,
``EXTRACTION_SITE_SIGNATURE_DEPTH`` and ``EXTRACTION_SITE_CLUSTER_THRESHOLD`` tune the signature.
"""

from __future__ import annotations

from typing import Self

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from extraction.site_models import SiteClusters, layout_signature
from pipelines.context import CrawlContext
from pipelines.storage.clusters import StoredClusters
from records import PageRecord
from records.pages import pages_only


class ClusterPipeline:
    """Set `page.cluster`, the name of its template's cluster within its site."""

    def __init__(self, context: CrawlContext) -> None:
        self.context = context
        self.sites: dict[str, SiteClusters] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """NotConfigured when ``CLUSTER_ENABLED`` is false."""
        if not crawler.settings.getbool("CLUSTER_ENABLED"):
            raise NotConfigured("CLUSTER_ENABLED is False")
        return cls(CrawlContext.of(crawler))

    @pages_only
    def process_item(self, page: PageRecord) -> PageRecord:
        """Fill in the page's cluster."""
        config = self.context.config.of(page.site).model
        blocks = [(block.path, block.is_content) for block in page.blocks]
        page.signature = layout_signature(blocks, config.shingle_size, config.signature_depth)
        page.cluster = self._clusters(page.site).assign(page.signature)
        return page

    def _clusters(self, site: str) -> SiteClusters:
        found = self.sites.get(site)
        if found is None:
            sessions = self.context.sessions
            shared = StoredClusters(sessions, site) if sessions is not None else None
            threshold = self.context.config.of(site).model.cluster_threshold
            found = self.sites[site] = SiteClusters(threshold, shared)
        return found
