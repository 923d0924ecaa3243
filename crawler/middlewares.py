"""Downloader middlewares of the crawl."""

from __future__ import annotations

import logging
import time
from email.utils import parsedate_to_datetime
from typing import Self

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.downloadermiddlewares.offsite import OffsiteMiddleware
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Response
from scrapy.utils.asyncio import sleep

from crawler.scope import Scope
from records import stats
from records.sites import site_of

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


class RetryAfterMiddleware:
    """Honour the ``Retry-After`` of a 429 or 503 answer: the site's requests wait, then go on.

    Scrapy's retry middleware tries such a request again at once (three tries in about a second, then the
    page is skipped), while the server said when to come back. This middleware sits closer to the
    downloader than Scrapy's retry middleware (the add-on's priority), so it reads the answer first: it
    notes when the site (host and port) may be asked again, at most ``RETRY_AFTER_MAX`` seconds on, and
    every request to that site, the retried one included, waits until then. Other sites are not held up
    beyond the downloader's concurrency. ``RETRY_AFTER_MAX = 0`` switches it off.
    """

    STATUSES = frozenset({429, 503})

    def __init__(self, cap: float) -> None:
        self.cap = cap
        # Site -> the monotonic time before which its requests wait.
        self.paused: dict[str, float] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """NotConfigured when retries are off or ``RETRY_AFTER_MAX`` is 0."""
        cap = crawler.settings.getfloat("RETRY_AFTER_MAX")
        if cap <= 0 or not crawler.settings.getbool("RETRY_ENABLED"):
            raise NotConfigured("RETRY_AFTER_MAX is 0 or retries are off")
        return cls(cap)

    async def process_request(self, request: Request) -> None:
        """Wait while the request's site asked for a pause."""
        wait = self.paused.get(site_of(request.url), 0.0) - time.monotonic()
        if wait > 0:
            await sleep(wait)

    def process_response(self, request: Request, response: Response) -> Response:
        """Note the pause a 429 or 503 with ``Retry-After`` asks for; the response goes on unchanged."""
        if response.status not in self.STATUSES or request.meta.get("dont_retry"):
            return response
        header = response.headers.get(b"Retry-After")
        seconds = retry_after_seconds(header.decode("latin-1") if header else "")
        if seconds is None:
            return response
        wait = min(seconds, self.cap)
        site = site_of(request.url)
        self.paused[site] = max(self.paused.get(site, 0.0), time.monotonic() + wait)
        logger.info(
            "%s answered %d with Retry-After: %s; its requests wait %.1f s",
            site,
            response.status,
            header.decode("latin-1") if header else "",
            wait,
        )
        return response


def retry_after_seconds(value: str, now: float | None = None) -> float | None:
    """The seconds a ``Retry-After`` value asks for (RFC 9110: a number of seconds or an HTTP date); None
    when it is neither. A date in the past asks for no wait."""
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if moment.tzinfo is None:
        return None
    return max(0.0, moment.timestamp() - (time.time() if now is None else now))


class SupersededRequestMiddleware:
    """Drop, before download, a request the spider says is superseded (`superseded(request)`): a focused
    crawl asks again for a queued URL that a later link ranks higher, and the first request must not cost a
    fetch. Spiders without the method are not affected."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """The middleware asks the crawler's spider."""
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        """Raise IgnoreRequest for a superseded request."""
        superseded = getattr(self.crawler.spider, "superseded", None)
        if superseded is not None and superseded(request):
            raise IgnoreRequest("superseded by a request of higher priority for the same URL")
