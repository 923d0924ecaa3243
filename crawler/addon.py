"""cleancrawl as a Scrapy add-on: its components and the defaults of its settings, installed in one place.

Enabled in the project's ``settings.py`` (``ADDONS``); another Scrapy project can enable it the same way.
It adds the crawl context (an extension every component shares, `pipelines.context.CrawlContext`), the
item pipelines, the progress and stats extensions, the scope-aware offsite middleware in place of
Scrapy's (the scope is host *and* port), the middleware that honours ``Retry-After``, and, with
``REDIS_URL``, the components of a fleet of processes on one frontier (`crawler.fleet_components`). A
component the project disabled (``None``) stays disabled.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scrapy.downloadermiddlewares.offsite import OffsiteMiddleware
from scrapy.settings import BaseSettings

from crawler import default_settings
from crawler.extensions import ProgressLog, StatsJson
from crawler.middlewares import RetryAfterMiddleware, ScopeOffsiteMiddleware, SupersededRequestMiddleware
from pipelines.baseline import BaselinePipeline
from pipelines.cluster import ClusterPipeline
from pipelines.context import CrawlContext
from pipelines.method import MethodPipeline
from pipelines.noise import NoisePipeline
from pipelines.store import StoragePipeline

# Segmentation runs in the spider (one parse per page); then template cluster, a site-level method's
# learning, noise, storage.
ITEM_PIPELINES = {
    ClusterPipeline: 300,
    MethodPipeline: 350,
    BaselinePipeline: 360,
    NoisePipeline: 400,
    StoragePipeline: 800,
}
EXTENSIONS = {CrawlContext: 0, ProgressLog: 500, StatsJson: 510}
# RetryAfterMiddleware reads a response before Scrapy's RetryMiddleware (550) retries it.
DOWNLOADER_MIDDLEWARES = {
    OffsiteMiddleware: None,
    ScopeOffsiteMiddleware: 50,
    SupersededRequestMiddleware: 60,
    RetryAfterMiddleware: 560,
}
# With REDIS_URL only, named by path: a crawl of one process never imports redis and scrapy-redis. A fleet's
# lease middleware sees a request's last outcome (after retries and redirects), its politeness waits just
# before the download.
_FLEET = "crawler.fleet_components."
FLEET_COMPONENTS = {
    "EXTENSIONS": {_FLEET + "FleetExtension": 10},
    "DOWNLOADER_MIDDLEWARES": {_FLEET + "FleetLeaseMiddleware": 5, _FLEET + "FleetPolitenessMiddleware": 960},
}


class CleancrawlAddon:
    """Install cleancrawl's components and its settings' defaults."""

    def update_settings(self, settings: BaseSettings) -> None:
        """Add the defaults below the project's settings, and the components the project has not named."""
        apply_defaults(settings)
        _add_components(
            settings,
            {
                "ITEM_PIPELINES": ITEM_PIPELINES,
                "EXTENSIONS": EXTENSIONS,
                "DOWNLOADER_MIDDLEWARES": DOWNLOADER_MIDDLEWARES,
            },
        )
        if settings.get("REDIS_URL"):
            # Several processes on one frontier (crawler.fleet_components): scrapy-redis' scheduler.
            _add_components(settings, FLEET_COMPONENTS)
            settings.set("SCHEDULER", _FLEET + "FleetScheduler", priority="addon")
            settings.set("DUPEFILTER_CLASS", "scrapy_redis.dupefilter.RFPDupeFilter", priority="addon")


def _add_components(settings: BaseSettings, components: Mapping[str, Mapping[Any, int | None]]) -> None:
    """Each component at its priority, unless the project named it (a component it set to None stays off)."""
    for name, priorities in components.items():
        for component, priority in priorities.items():
            settings.setdefault_in_component_priority_dict(name, component, priority)


def apply_defaults(settings: BaseSettings) -> None:
    """cleancrawl's settings at "addon" priority (project and command-line values stay): for the crawl, and
    for commands, which run without a crawler and so without add-ons."""
    settings.setmodule(default_settings, priority="addon")
