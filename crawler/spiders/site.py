"""The `site` spider: crawl the seeds' sites and turn every HTML page into a `PageRecord`.

Usage::

    scrapy crawl site -a seeds=URL[,URL...]      # or -a seeds_file=PATH (one URL a line, # comments)
                      [-a max_pages=N] [-a max_depth=N]

The crawl's components come with cleancrawl's add-on (`crawler.addon`), and its configuration with the
crawl context the add-on installs (`pipelines.context.CrawlContext`).

Segmentation (step 1 of the design's pipeline) runs here, in the callback, not in an item pipeline: the
spider holds the body, the charset of the response and its URL, and one call of the crawl's method
(``EXTRACTION_METHOD``, default ``cleancrawl``: `extraction.extract`) gives both the page's blocks and its
links from a single parse. No HTML travels past the spider, except with a site-level method, whose
`MethodPipeline` needs it to learn the page's cluster and label the page again.

Links come from that parse, already absolute and normalised. Each URL is checked against a set of every
URL met so far before anything else, so a link seen on hundreds of pages costs one set lookup after the
first time, and no `Request` is built, fingerprinted and dropped by the scheduler for it.
"""

from __future__ import annotations

import posixpath
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from typing import Any, Self
from urllib.parse import urlsplit

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import (
    CannotResolveHostError,
    CloseSpider,
    DownloadCancelledError,
    DownloadConnectionRefusedError,
    DownloadFailedError,
    DownloadTimeoutError,
    IgnoreRequest,
    ResponseDataLossError,
)
from scrapy.http import HtmlResponse, Response
from scrapy.settings import BaseSettings
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.python.failure import Failure
from w3lib.encoding import http_content_type_encoding

from crawler.scope import Scope, parse_seeds
from extraction import BUILD, ExtractionConfig, ExtractionError, ExtractionResult
from extraction.links import normalise_url
from extraction.methods.base import Method
from extraction.methods.registry import get_method
from pipelines.config import CrawlConfig
from pipelines.context import CrawlContext
from records import PageRecord, site_of, stats

# Extensions of files that are never HTML pages: links to them are not fetched at all. A short list of
# the common ones (images, documents, archives, media, fonts, page assets, source text); anything else
# is fetched and, if its Content-Type is not HTML, counted as skipped.
_IMAGES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico", ".bmp", ".tif", ".tiff")
_DOCUMENTS = (".pdf", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".ods", ".epub")
_ARCHIVES = (".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".tar", ".deb", ".rpm", ".exe", ".iso")
_MEDIA = (".mp3", ".mp4", ".m4a", ".avi", ".mov", ".mkv", ".webm", ".ogg", ".wav", ".flac")
_ASSETS = (".woff", ".woff2", ".ttf", ".otf", ".eot", ".css", ".js", ".mjs", ".map", ".json", ".txt", ".csv")
NON_HTML_EXTENSIONS = frozenset(_IMAGES + _DOCUMENTS + _ARCHIVES + _MEDIA + _ASSETS)


class SiteSpider(Spider):
    """Crawl the seeds' sites (host:port), extract each HTML page once, yield one `PageRecord` per page."""

    name = "site"

    def __init__(
        self,
        seeds: str | None = None,
        seeds_file: str | None = None,
        max_pages: str | int | None = None,
        max_depth: str | int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.seeds = parse_seeds(seeds, seeds_file)
        self.scope = Scope(self.seeds)
        # Read by Scrapy's offsite filter when ScopeOffsiteMiddleware (which adds the ports) is not used.
        self.allowed_domains = self.scope.hostnames
        self.max_pages = _count_argument("max_pages", max_pages)
        self.max_depth = _count_argument("max_depth", max_depth)
        # The crawl's extraction configuration, from its context when the spider opens.
        self.config = CrawlConfig()
        # One method object per distinct config (sites with overrides have their own).
        self._methods: dict[ExtractionConfig, Method[Any]] = {}
        # Every normalised URL met so far: scheduled, off-site, non-HTML, or reached as a final URL.
        self._seen: set[str] = set(self.seeds)
        # Final URLs of the pages yielded: a page reached under several URLs is stored once.
        self._stored: set[str] = set()
        self._pages_out = 0

    @classmethod
    def update_settings(cls, settings: BaseSettings) -> None:
        """Meta refresh is followed here: extraction reads the target during the page's one parse
        (`ExtractionResult.refresh_url`), so Scrapy's MetaRefreshMiddleware would only parse the page again.
        HTTP redirects stay with Scrapy's RedirectMiddleware (REDIRECT_MAX_TIMES also caps refresh chains)."""
        super().update_settings(settings)
        settings.set("METAREFRESH_ENABLED", False, priority="spider")

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        """Create the spider and apply `max_depth` as `DEPTH_LIMIT`."""
        spider = super().from_crawler(crawler, *args, **kwargs)
        if spider.max_depth:
            # Settings are still open here (Crawler.crawl applies them after creating the spider).
            crawler.settings.set("DEPTH_LIMIT", spider.max_depth, priority="spider")
        crawler.signals.connect(spider._opened, signal=signals.spider_opened)
        crawler.signals.connect(spider._item_dropped, signal=signals.item_dropped)
        crawler.signals.connect(spider._request_dropped, signal=signals.request_dropped)
        return spider

    def _opened(self) -> None:
        """Take the crawl's configuration from its context (built with the extensions, after the spider)."""
        self.config = CrawlContext.of(self.crawler).config
        self.logger.info("Extraction method %s, %s", self.config.method, BUILD)

    async def start(self) -> AsyncIterator[Request]:
        """One request per seed."""
        for url in self.seeds:
            yield self._request(url)

    def parse_page(self, response: Response) -> Iterator[Request | PageRecord]:
        """Extract one response: yield its `PageRecord` and requests for its new in-scope links."""
        self._inc(stats.PAGES_CRAWLED)
        final_url = normalise_url(response.url) or response.url
        self._seen.add(final_url)
        refusal = self._refusal(response, final_url)
        if refusal:
            self._skip(*refusal)
            return
        site = site_of(final_url)
        config = self.config.of(site)
        method = self.method_for(config.extraction)
        try:
            result = method.extract(response.body, url=response.url, encoding=_charset(response))
        except ExtractionError as error:
            self._skip(error.kind, response.url, str(error))
            return
        if result.refresh_url and result.refresh_url != final_url:
            yield from self._follow_refresh(response, result.refresh_url)
            return
        if self._full():
            return
        self._stored.add(final_url)
        self._pages_out += 1
        yield page_record(response, final_url, site, result, config.model.shape_max_chars, method.site_level)
        if self._full():
            raise CloseSpider("max_pages")
        yield from self._follow_links(response, result)

    def method_for(self, config: ExtractionConfig) -> Method[Any]:
        """The crawl's extraction method with a site's `config` (its thresholds), made once."""
        method = self._methods.get(config)
        if method is None:
            method = self._methods[config] = get_method(self.config.method, config, self.config.params)
        return method

    def on_error(self, failure: Failure) -> None:
        """Count and log a request that produced no response for the callback (HTTP error, network, ...)."""
        request = getattr(failure, "request", None)
        url = request.url if isinstance(request, Request) else "?"
        self._skip(_failure_reason(failure), url, failure.getErrorMessage())

    def _refusal(self, response: Response, final_url: str) -> tuple[str, str, str] | None:
        """Why a response is not extracted (seen before, not HTML), or None; the arguments of `_skip`.

        Redirects out of scope never get here: `ScopeOffsiteMiddleware` filters them before download.
        """
        if final_url in self._stored:
            return ("duplicate", response.url, f"stored already as {final_url}")
        if not isinstance(response, HtmlResponse):
            content_type = response.headers.get(b"Content-Type") or b"no Content-Type"
            return ("not_html", response.url, content_type.decode("latin-1"))
        return None

    def _follow_refresh(self, response: Response, target: str) -> Iterator[Request]:
        """Follow a meta refresh like a redirect: the stub is not stored, its target is fetched once."""
        self._inc(stats.REFRESH_STUBS)
        hops = int(response.meta.get("refresh_hops", 0)) + 1
        if hops > self.settings.getint("REDIRECT_MAX_TIMES"):
            self._skip("refresh_loop", response.url, f"{hops - 1} meta refreshes in a row")
        elif not self.scope.allows(target):
            self._skip("offsite_refresh", response.url, target)
        elif target not in self._seen:
            # A target already seen is fetched (or queued) once already: this also ends refresh cycles.
            self._seen.add(target)
            yield self._request(target, {"refresh_hops": hops})

    def _follow_links(self, response: Response, result: ExtractionResult) -> Iterator[Request]:
        """Requests for the links not met before that are in scope and may be HTML."""
        if self.max_depth is not None and response.meta.get("depth", 0) >= self.max_depth:
            return  # before reading `result.links`: extraction resolves them only when asked
        for url in result.links:
            if url in self._seen:
                continue
            self._seen.add(url)
            if not self.scope.allows(url):
                self._inc(stats.LINKS_OFFSITE)
            elif _non_html_extension(url):
                self._inc(stats.LINKS_NON_HTML)
            else:
                self._inc(stats.LINKS_SCHEDULED)
                yield self._request(url)

    def _request(self, url: str, meta: dict[str, Any] | None = None) -> Request:
        return Request(url, callback=self.parse_page, errback=self.on_error, meta=meta)

    def _full(self) -> bool:
        """True once `max_pages` pages have gone to the pipelines and not been dropped there."""
        return self.max_pages is not None and self._pages_out >= self.max_pages

    def _item_dropped(self, item: Any, response: Response, exception: BaseException) -> None:
        """A page dropped by a pipeline is not stored: it does not count towards `max_pages`."""
        if isinstance(item, PageRecord):
            self._pages_out -= 1

    def _request_dropped(self, request: Request) -> None:
        """Count a redirect the scheduler refused as already seen: a loop when it leads back into its chain.

        The spider never yields a URL twice, so only redirects reach the scheduler's duplicate filter.
        """
        chain = request.meta.get("redirect_urls")
        if not chain:
            return
        if request.url in chain:
            self._skip("redirect_loop", chain[0], " -> ".join([*chain, request.url]))
        else:
            self._skip("duplicate", chain[0], f"redirects to {request.url}, fetched already")

    def _skip(self, reason: str, url: str, detail: str = "") -> None:
        self._inc(stats.skipped(reason))
        self.logger.info("Skipped %s (%s)%s", url, reason, f": {detail}" if detail else "")

    def _inc(self, key: str) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(key)


def _count_argument(name: str, value: str | int | None) -> int | None:
    """A non-negative integer spider argument (`-a` gives strings), or None when not given."""
    if value is None or value == "":
        return None
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"-a {name}={value!r} is not an integer") from None
    if number < 0:
        raise ValueError(f"-a {name}={value!r} must not be negative")
    return number


def _charset(response: Response) -> str | None:
    """The charset the HTTP Content-Type header declares, as a Python codec name, or None."""
    content_type = response.headers.get(b"Content-Type")
    return http_content_type_encoding(content_type.decode("latin-1")) if content_type else None


def _non_html_extension(url: str) -> bool:
    return posixpath.splitext(urlsplit(url).path)[1].lower() in NON_HTML_EXTENSIONS


def page_record(
    response: Response,
    final_url: str,
    site: str,
    result: ExtractionResult,
    shape_max_chars: int,
    keep_html: bool = False,
) -> PageRecord:
    """The record of one extracted page: sizes, title and every block with its hash and label; with
    `keep_html`, the body too (for a site-level method's `MethodPipeline`)."""
    # The page's identity in the store is its final URL, whichever URL (redirect, meta refresh) reached it
    # first: a page found under several URLs is one row, in this crawl and the next.
    now, size = datetime.now(UTC), len(response.body)
    page = PageRecord.of(result, final_url, site, response.status, size, now, shape_max_chars)
    if keep_html:
        page.html = response.body
    return page


def _failure_reason(failure: Failure) -> str:
    """A short reason for a failed request: ``http_404``, ``redirect_loop``, ``timeout``, ..."""
    error = failure.value
    if isinstance(error, HttpError):
        return f"http_{error.response.status}"
    if isinstance(error, IgnoreRequest):
        return _ignored_reason(str(error))
    for kind, reason in _ERROR_REASONS:
        if isinstance(error, kind):
            return reason
    return "download_error"


def _ignored_reason(message: str) -> str:
    """Why a downloader middleware dropped a request, from its message (IgnoreRequest has no codes)."""
    lowered = message.lower()
    for fragment, reason in _IGNORED_REASONS:
        if fragment in lowered:
            return reason
    return "ignored"


_IGNORED_REASONS = (
    ("max redirections", "redirect_loop"),
    ("robots.txt", "robots_txt"),
)

# Scrapy's download errors (it wraps Twisted's since 2.14). It cancels a download only when the body
# passes DOWNLOAD_MAXSIZE, hence `too_large`.
_ERROR_REASONS: tuple[tuple[type[Exception], str], ...] = (
    (DownloadTimeoutError, "timeout"),
    (CannotResolveHostError, "dns_error"),
    (DownloadConnectionRefusedError, "connection_refused"),
    (DownloadCancelledError, "too_large"),
    (ResponseDataLossError, "data_loss"),
    (DownloadFailedError, "connection_lost"),
)
