"""Downloader middlewares of the crawl."""

from __future__ import annotations

import logging

from scrapy import Request, Spider
from scrapy.downloadermiddlewares.offsite import OffsiteMiddleware
from scrapy.exceptions import IgnoreRequest

from crawler.scope import Scope
from records import stats

logger = logging.getLogger(__name__)


class ScopeOffsiteMiddleware(OffsiteMiddleware):
    """Scrapy's offsite filter with the spider's `Scope` (host and port) when it has one.

    Scrapy compares host names only, so a redirect to another port of a seed's host would be downloaded
    before the spider could refuse it. The spider never schedules an off-scope link itself, so what this
    filters are redirects: each is counted as a skipped page (``offsite_redirect``) and logged.
    Spiders without a `scope` attribute keep Scrapy's `allowed_domains` policy.
    """

    def should_follow(self, request: Request, spider: Spider) -> bool:
        """True when the request's URL is in the spider's scope (or allowed domains, without a scope)."""
        scope = getattr(spider, "scope", None)
        if isinstance(scope, Scope):
            return scope.allows(request.url)
        return super().should_follow(request, spider)

    def request_scheduled(self, request: Request, spider: Spider) -> None:
        """Filter as Scrapy does; count and log a filtered redirect as a skipped page."""
        try:
            super().request_scheduled(request, spider)
        except IgnoreRequest:
            chain = request.meta.get("redirect_urls")
            if chain:
                self.stats.inc_value(stats.skipped("offsite_redirect"))
                logger.info("Skipped %s (offsite_redirect): redirects to %s", chain[0], request.url)
            raise
