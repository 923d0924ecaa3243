"""The `site` spider: crawl the seeds' sites and turn every HTML page into a `PageRecord`.

Usage::

    scrapy crawl site -a seeds=URL[,URL...]      # or -a seeds_file=PATH (one URL a line, # comments)
                      [-a max_pages=N] [-a max_depth=N]

The crawl's components come with cleancrawl's add-on (`crawler.addon`), and its configuration with the
crawl context the add-on installs (`pipelines.context.CrawlContext`).

Segmentation (step 1 of the design's pipeline) runs here, in the callback, not in an item pipeline: the
spider holds the body, the charset of the response and its URL, and one call of the crawl's method
(``EXTRACTION_METHOD``, default ``cleancrawl``: `extraction.extract`) gives both the page's blocks and its
links from a single parse. The callback awaits that call in a worker process (`crawler.workers`,
``CRAWL_EXTRACTION_WORKERS``), so the reactor downloads and stores meanwhile. No HTML travels past the
spider, except with a site-level method, whose `MethodPipeline` needs it to learn the page's cluster and
label the page again.

Links come from that parse, already absolute and normalised. Each URL is checked against a set of every
URL met so far before anything else, so a link seen on hundreds of pages costs one set lookup after the
first time, and no `Request` is built, fingerprinted and dropped by the scheduler for it.

With a store, the crawl state (`pipelines.storage.crawl_state`) is the crawl's memory. The crawl starts
from the seeds and from every URL the state holds that is due: queued and never fetched (a crawl that
stopped, by a crash or a page limit, goes on) or stored and due again by its revisit schedule (an
incremental recrawl). A URL the state knows is not scheduled again from a link. A page fetched before is
asked for with its validators (If-None-Match, If-Modified-Since); a 304 costs no extraction. Every request
that stores no page leaves its outcome (`records.urls.UrlRecord`: skipped and why, gone, redirected, not
modified), written with the pages of its batch.
"""

from __future__ import annotations

import dataclasses
import logging
import posixpath
from collections.abc import AsyncIterator, Iterable, Iterator
from datetime import UTC, datetime
from typing import Any, Self, cast
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

from crawler.checks import settings_group
from crawler.fleet import LEASE, RETAKEN
from crawler.focus import Focus, FocusWeights, parse_topic
from crawler.frontier import Frontier, LocalFrontier, RedisFrontier
from crawler.scope import Scope, SeedError, parse_seeds
from crawler.traps import TrapGuards, TrapLimits
from crawler.worker_process import Extracted, extracted
from crawler.workers import ExtractionWorkers
from extraction import BUILD, ExtractionConfig, ExtractionError, ExtractionResult
from extraction.links import normalise_url
from extraction.methods.base import Method
from extraction.methods.registry import get_method
from extraction.topic import Topic
from pipelines.config import CrawlConfig
from pipelines.context import CrawlContext
from pipelines.storage.crawl_state import DueUrl, due_urls, known_urls
from records import PageRecord, site_of, stats
from records.pages import html_hash
from records.seen import UrlSet
from records.urls import UrlRecord, UrlState

logger = logging.getLogger(__name__)

# Extensions of files that are never HTML pages: links to them are not fetched at all. A short list of
# the common ones (images, documents, archives, media, fonts, page assets, source text); anything else
# is fetched and, if its Content-Type is not HTML, counted as skipped.
_IMAGES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico", ".bmp", ".tif", ".tiff")
_DOCUMENTS = (".pdf", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".ods", ".epub")
_ARCHIVES = (".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".tar", ".deb", ".rpm", ".exe", ".iso")
_MEDIA = (".mp3", ".mp4", ".m4a", ".avi", ".mov", ".mkv", ".webm", ".ogg", ".wav", ".flac")
_ASSETS = (".woff", ".woff2", ".ttf", ".otf", ".eot", ".css", ".js", ".mjs", ".map", ".json", ".txt", ".csv")
NON_HTML_EXTENSIONS = frozenset(_IMAGES + _DOCUMENTS + _ARCHIVES + _MEDIA + _ASSETS)
# A focused crawl asks for a queued URL again when a later link ranks it this much higher (thousandths).
REPRIORITY_MARGIN = 25
# The message of a request dropped because a request of higher priority asks for the same URL.
SUPERSEDED = "superseded"
# Answers that say a page is no more: its stored version is marked gone.
GONE_STATUSES = frozenset({404, 410})


class SiteSpider(Spider):
    """Crawl the seeds' sites (host:port), extract each HTML page once, yield one `PageRecord` per page."""

    name = "site"

    def __init__(
        self,
        seeds: str | None = None,
        seeds_file: str | None = None,
        max_pages: str | int | None = None,
        max_depth: str | int | None = None,
        topic: str | None = None,
        topic_file: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        # A focused crawl's topic (`crawler.focus`): None crawls breadth-first, as Scrapy's scheduler orders.
        # A topic given by example pages is read from them when the crawl starts (`_topic_from_examples`).
        self.topic, self.topic_examples = parse_topic(topic, topic_file)
        self.focus: Focus | None = None
        # A focused crawl's URLs waiting in the queue, with their priority, and the priority of the latest
        # request of each URL asked for again (`_reprioritised`: the others for it are superseded).
        self._queued: dict[str, int] = {}
        self._latest: dict[str, int] = {}
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
        # Every normalised URL met so far: scheduled, off-site, non-HTML, reached as a final URL, or known to
        # the crawl state.
        self._seen = UrlSet(self.seeds)
        # Final URLs of the pages yielded: a page reached under several URLs is stored once.
        self._stored = UrlSet()
        # The crawl's memory beyond this process: its own (one process), or a fleet's in Redis.
        self.frontier: Frontier = LocalFrontier()
        self.guards = TrapGuards(TrapLimits())
        self._context: CrawlContext | None = None
        # Outcomes met in signal handlers, which cannot yield: they leave with the next callback's output.
        self._pending: list[UrlRecord] = []
        # Worker processes extracting pages off the reactor's thread (``CRAWL_EXTRACTION_WORKERS``).
        self.workers: ExtractionWorkers | None = None

    @classmethod
    def check_arguments(
        cls,
        settings: BaseSettings,
        seeds: str | None = None,
        seeds_file: str | None = None,
        max_pages: str | None = None,
        max_depth: str | None = None,
        topic: str | None = None,
        topic_file: str | None = None,
        **_: Any,
    ) -> None:
        """Raise ValueError for arguments a crawl cannot start with (`crawler.commands.crawl` asks first)."""
        usable_seeds(parse_seeds(seeds, seeds_file), settings.getint("URLLENGTH_LIMIT"))
        _count_argument("max_pages", max_pages)
        _count_argument("max_depth", max_depth)
        parse_topic(topic, topic_file)

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
        spider.guards = TrapGuards(settings_group(TrapLimits, crawler.settings, "TRAP_"))
        if spider.topic is not None:
            spider.focus = Focus(spider.topic, spider.focus_weights)
        spider.seeds = usable_seeds(spider.seeds, crawler.settings.getint("URLLENGTH_LIMIT"))
        crawler.signals.connect(spider._opened, signal=signals.spider_opened)
        crawler.signals.connect(spider._closed, signal=signals.spider_closed)
        crawler.signals.connect(spider._item_dropped, signal=signals.item_dropped)
        crawler.signals.connect(spider._request_dropped, signal=signals.request_dropped)
        crawler.signals.connect(spider._dequeued, signal=signals.request_reached_downloader)
        return spider

    def _opened(self) -> None:
        """Take the crawl's configuration from its context (built with the extensions, after the spider)."""
        self._context = CrawlContext.of(self.crawler)
        self.config = self._context.config
        if self.settings.get("REDIS_URL"):
            # Imported for a fleet only: one process never loads redis and scrapy-redis (some 6 MB).
            from crawler.fleet_components import FleetExtension

            fleet = FleetExtension.of(self.crawler)
            if fleet is not None:
                self.frontier = RedisFrontier(fleet.fleet(self))
        workers = self.settings.getint("CRAWL_EXTRACTION_WORKERS")
        if workers:
            self.workers = ExtractionWorkers(workers, self.config.method, self.config.params)
        where = f"{workers} worker process{'es' if workers > 1 else ''}" if workers else "the crawl process"
        self.logger.info("Extraction method %s, %s, in %s", self.config.method, BUILD, where)
        if self.topic is not None:
            self._log_topic()

    def _closed(self) -> None:
        if self.workers is not None:
            self.workers.close()

    async def start(self) -> AsyncIterator[Request]:
        """One request per seed the crawl state does not know or holds as due, then one per other due URL.

        A seed the state knows and does not hold as due waits for its time like any other page: running
        the same command again goes on where the last crawl stopped and fetches nothing twice. Requests
        pass Scrapy's duplicate filter (``dont_filter``): with a JOBDIR it remembers the URLs of an
        earlier run, and the crawl state, not the filter, decides what is fetched again.
        """
        if self.topic_examples and not await self._topic_from_examples():
            return
        due, known = self._load_state()
        self.guards.count(known | set(self.seeds))
        if not self.frontier.seeds_first():
            self.logger.info("Another process of the fleet schedules the seeds and the due URLs")
            return
        for url in self.seeds:
            if url in due or url not in known:
                yield self._request(url, due.pop(url, None), dont_filter=True)
        for entry in due.values():
            if self.max_depth is None or entry.depth <= self.max_depth:
                yield self._request(entry.url, entry, dont_filter=True)
        self.frontier.seeded()

    @property
    def focus_weights(self) -> FocusWeights:
        """The ``FOCUS_*`` settings."""
        return settings_group(FocusWeights, self.crawler.settings, "FOCUS_")

    def _log_topic(self, source: str = "") -> None:
        terms = ", ".join(cast(Topic, self.topic).terms)
        self.logger.info(
            "Focused crawl: links ordered by relevance to the topic%s (terms: %s)", source, terms
        )

    async def _topic_from_examples(self) -> bool:
        """Fetch the topic's example pages before any seed and make the topic of their clean text; False,
        with an error logged, when none could be read (the crawl then fetches nothing)."""
        texts = [text for url in self.topic_examples if (text := await self._example_text(url))]
        if not texts:
            self.logger.error(
                "None of the topic's %d example pages could be read: nothing to crawl for",
                len(self.topic_examples),
            )
            return False
        weights = self.focus_weights
        self.topic = Topic.of_examples(texts, weights.example_terms)
        self.focus = Focus(self.topic, weights)
        self._log_topic(f" of {len(texts)} example pages")
        return True

    async def _example_text(self, url: str) -> str:
        """The clean text of one example page, through the downloader's middlewares (robots.txt, retries);
        "" with a warning when it cannot be had."""
        try:
            response = await self.crawler.engine.download_async(Request(url, dont_filter=True))
            if response.status != 200:
                raise ValueError(f"HTTP {response.status}")
            if not isinstance(response, HtmlResponse):
                raise ValueError("not HTML")
            method = self.method_for(self.config.of(site_of(response.url)).extraction)
            text = method.extract(response.body, url=response.url, encoding=_charset(response)).text
        except Exception as error:  # a network failure, robots.txt, a retry given up, a page unreadable
            self.logger.warning("Topic example %s left out: %s", url, error)
            return ""
        return text

    async def parse_page(self, response: Response) -> AsyncIterator[Request | PageRecord | UrlRecord]:
        """Extract one response: yield its `PageRecord` and requests for its new in-scope links."""
        for outcome in self._drain():
            yield outcome
        for output in await self._parsed(response):
            yield output

    async def _parsed(self, response: Response) -> Iterable[Request | PageRecord | UrlRecord]:
        """What one response gives, once its page is extracted: an iterable, not a list, so that a page
        that ends the crawl (`CloseSpider`) goes out before the exception."""
        if response.status == 304:
            return self._outcome(response.url, UrlState.STORED, response.meta, not_modified=True)
        self._inc(stats.PAGES_CRAWLED)
        final_url = normalise_url(response.url) or response.url
        self._seen.add(final_url)
        if response.meta.get("redirect_urls"):
            self.frontier.first_sight([final_url])  # no process of the fleet schedules it from a link now
        if final_url in self._stored:
            return self._duplicate(response, final_url)
        if "partial" in response.flags:
            return self._partial(response, final_url)
        if not isinstance(response, HtmlResponse):
            content_type = (response.headers.get(b"Content-Type") or b"no Content-Type").decode("latin-1")
            return self._skip("not_html", final_url, content_type, response.meta, UrlState.SKIPPED)
        site = site_of(final_url)
        config = self.config.of(site)
        method = self.method_for(config.extraction)
        try:
            page = await self._extracted(method, response, config.model.shape_max_chars)
        except ExtractionError as error:
            return self._skip(error.kind, final_url, str(error), response.meta, UrlState.SKIPPED)
        if final_url in self._stored:
            return self._duplicate(response, final_url)  # stored while this copy was being extracted
        return self._kept(response, final_url, site, method, page)

    def _duplicate(self, response: Response, final_url: str) -> list[Request | UrlRecord]:
        """A page stored already under its final URL: skipped, with the links a dead process's copy met."""
        skipped = self._skip("duplicate", response.url, f"stored already as {final_url}", response.meta)
        return [*self._retaken_links(response), *skipped]

    async def _extracted(self, method: Method[Any], response: Response, shape_max_chars: int) -> Extracted:
        """The page extracted by a worker process when one is ready (`crawler.workers`), else here."""
        body, url, encoding = response.body, response.url, _charset(response)
        # A focused crawl ranks the links itself (`_focus`); a page at the depth limit follows none.
        follow = self.focus is None and not self._at_depth_limit(response)
        if self.workers is not None and self.workers.ready:
            page = await self.workers.extract(method.config, body, url, encoding, shape_max_chars, follow)
            if page is not None:
                self._inc(stats.PAGES_EXTRACTED_IN_WORKERS)
                return page
        return extracted(method, body, url, encoding, shape_max_chars, follow)

    def _at_depth_limit(self, response: Response) -> bool:
        return self.max_depth is not None and response.meta.get("depth", 0) >= self.max_depth

    def _kept(
        self, response: Response, final_url: str, site: str, method: Method[Any], extraction: Extracted
    ) -> Iterator[Request | PageRecord | UrlRecord]:
        """The page's record and its links' requests, or why it is not stored."""
        result = extraction.result
        if result.decode_replacements:
            # Bytes the page's charset cannot decode, replaced as browsers do (U+FFFD).
            self.crawler.stats.inc_value(stats.DECODE_REPLACEMENTS, result.decode_replacements)
        if result.refresh_url and result.refresh_url != final_url:
            yield from self._follow_refresh(response, final_url, result.refresh_url)
            return
        if not self.frontier.take_page(self.max_pages):
            # The budget is spent (in a fleet, perhaps by another process): the page's URL stays queued in
            # the crawl state, and the next crawl goes on from there.
            raise CloseSpider("max_pages")
        if not self.frontier.first_store(final_url) and RETAKEN not in response.meta:
            # Not remembered as stored here: it may be a page that a process which died took and never
            # wrote, and whose request comes back to this one.
            self.frontier.drop_page()
            yield from self._skip("duplicate", response.url, f"stored already as {final_url}", response.meta)
            return
        self._stored.add(final_url)
        relevance, priorities = self._focus(result)
        requests = list(self._follow_links(response, extraction.links, priorities))
        page = page_record(response, final_url, site, extraction, method.site_level)
        page.relevance = relevance
        self._fill_fetch(page, response, requests)
        stop = self._stop_reason()
        if stop is None:
            # The links before the page: the page's batch, once written, ends its fleet lease, and a
            # process that died in between would leave links the fleet met and no process queued.
            yield from requests
        yield page
        if stop is not None:
            raise CloseSpider(stop)

    def _stop_reason(self) -> str | None:
        """Why the crawl stops after the page just extracted: its budget is spent, or the topic saturated."""
        if self._full():
            return "max_pages"
        if self.focus is None or not self.focus.saturated:
            return None
        weights = self.focus.weights
        self.logger.info(
            "Stopping: the topic is saturated (the last %d relevant pages brought %.1f%% new words on "
            "average, under FOCUS_SATURATION_NEW_TERMS)",
            weights.saturation_pages,
            100 * sum(self.focus.saturation.recent) / weights.saturation_pages,
        )
        return "topic_saturated"

    def _partial(self, response: Response, final_url: str) -> Iterator[Request | UrlRecord]:
        """A body the connection cut before its end, with no Content-Length to tell (Scrapy's ``partial``
        flag): fetched again up to ``RETRY_TIMES`` times, then skipped as ``data_loss`` and left due for the
        next crawl, never stored as if complete."""
        tries = int(response.meta.get("partial_tries", 0)) + 1
        if tries <= self.settings.getint("RETRY_TIMES"):
            self.logger.info("Fetching %s again: its body was cut short (try %d)", response.url, tries + 1)
            request = cast(Request, response.request)
            yield request.replace(dont_filter=True, meta={**response.meta, "partial_tries": tries})
            return
        detail = f"the body was cut short {tries} times"
        yield from self._skip("data_loss", final_url, detail, response.meta, UrlState.FAILED)

    def _focus(self, result: ExtractionResult) -> tuple[float | None, dict[str, int]]:
        """A focused crawl's page relevance and link priorities; (None, {}) without a topic."""
        if self.focus is None:
            return None, {}
        relevance = self.focus.page_relevance(result)
        return relevance, self.focus.priorities(result)

    def _dequeued(self, request: Request) -> None:
        """A request reached the downloader: its URL no longer waits in the queue, and cannot be re-ranked."""
        if self._queued:
            self._queued.pop(request.url, None)

    def _fill_fetch(self, page: PageRecord, response: Response, requests: list[Request]) -> None:
        """What the crawl state records of the fetch: how the page was reached, its links, validators."""
        page.fetched_at = self._now()
        page.depth = int(response.meta.get("depth", 0))
        page.referrer = response.meta.get("referrer", "")
        page.redirects = _redirect_chain(response.meta, page.url)
        page.links = [request.url for request in requests]
        page.etag = _header(response, b"ETag")
        page.last_modified = _header(response, b"Last-Modified")
        page.html_hash = html_hash(response.body)
        page.lease = response.meta.get(LEASE, "")

    def method_for(self, config: ExtractionConfig) -> Method[Any]:
        """The crawl's extraction method with a site's `config` (its thresholds), made once."""
        if self.focus is not None:
            config = dataclasses.replace(config, anchor_texts=True)  # the focus weighs links by their words
        method = self._methods.get(config)
        if method is None:
            method = self._methods[config] = get_method(self.config.method, config, self.config.params)
        return method

    def on_error(self, failure: Failure) -> list[UrlRecord]:
        """Count and log a request that produced no response for the callback (HTTP error, network, ...);
        its outcome for the crawl state: gone (404, 410), failed (tried again by the next crawl: no
        answer, a server error) or skipped."""
        request = getattr(failure, "request", None)
        if isinstance(failure.value, IgnoreRequest) and str(failure.value).startswith(SUPERSEDED):
            return []  # the same URL is asked for with a higher priority
        url = request.url if isinstance(request, Request) else "?"
        meta = request.meta if isinstance(request, Request) else {}
        state = _failure_state(failure)
        return self._drain() + self._skip(
            _failure_reason(failure), url, failure.getErrorMessage(), meta, state
        )

    def _load_state(self) -> tuple[dict[str, DueUrl], set[str]]:
        """The crawl state of the seeds' sites: its due URLs by URL, and every URL it knows (both empty
        without a store). The known URLs join the seen set: no link schedules them again."""
        sessions = self._context.sessions if self._context is not None else None
        if sessions is None:
            return {}, set()
        with sessions() as session:
            due = due_urls(session, self.scope.sites, self._now())
            known = known_urls(session, self.scope.sites)
        self._seen.update(known)
        if known:
            self.crawler.stats.set_value(stats.RECRAWL_DUE, len(due))
            self.logger.info(
                "Crawl state: %d URLs known, %d due (queued, or stored and due for a revisit)",
                len(known),
                len(due),
            )
        return {entry.url: entry for entry in due}, known

    def _follow_refresh(
        self, response: Response, final_url: str, target: str
    ) -> Iterator[Request | UrlRecord]:
        """Follow a meta refresh like a redirect: the stub is not stored, its target is fetched once."""
        self._inc(stats.REFRESH_STUBS)
        hops = int(response.meta.get("refresh_hops", 0)) + 1
        if hops > self.settings.getint("REDIRECT_MAX_TIMES"):
            detail = f"{hops - 1} meta refreshes in a row"
            yield from self._skip("refresh_loop", final_url, detail, response.meta, UrlState.SKIPPED)
            return
        if not self.scope.allows(target):
            yield from self._skip("offsite_refresh", final_url, target, response.meta, UrlState.SKIPPED)
            return
        # A target already seen is fetched (or queued) once already: this also ends refresh cycles. Taken
        # back from a process that died, the stub asks again: the fleet's duplicate filter knows.
        lease = response.meta.get(LEASE, "")
        new = self._seen.add(target) and self.frontier.first_sight([target], lease)
        if new or RETAKEN in response.meta:
            meta = {"refresh_hops": hops, "depth": response.meta.get("depth", 0), "referrer": final_url}
            yield self._request(target, meta=meta)
        # After the request: the outcome, once written, ends the stub's lease (see `_extract`).
        yield from self._outcome(final_url, UrlState.REDIRECTED, response.meta, "meta_refresh", target)

    def _follow_links(
        self, response: Response, page_links: list[str], priorities: dict[str, int]
    ) -> Iterator[Request]:
        """Requests for the links not met before that are in scope and may be HTML, with a focused crawl's
        priorities."""
        if self._at_depth_limit(response):
            return
        referrer = {"referrer": normalise_url(response.url) or response.url}
        # A focused crawl resolved the page's links once already, for their priorities (same order).
        links = priorities if self.focus is not None else page_links
        budget = self.settings.getint("CRAWL_MAX_LINKS_PER_PAGE") or len(links)
        candidates: list[str] = []
        urls = list(links)
        # A page taken back from a process that died: that process may have met links of it (these, and
        # those it recorded as met first) and died before it queued them. All go to the fleet's queue, whose
        # duplicate filter drops those it did queue.
        retaken: list[str] | None = response.meta.get(RETAKEN)
        for url, new in zip(urls, self._seen.add_all(urls), strict=True):
            if not new and retaken is None:
                yield from self._reprioritised(url, priorities.get(url, 0), referrer)
                continue
            if not self.scope.allows(url):
                self._inc(stats.LINKS_OFFSITE)
            elif _non_html_extension(url):
                self._inc(stats.LINKS_NON_HTML)
            else:
                candidates.append(url)
        # In a fleet, one round trip tells which of them no other process met first.
        first = self.frontier.first_sight(candidates, response.meta.get(LEASE, ""))
        if retaken is not None:
            listed = set(candidates)
            candidates.extend(url for url in dict.fromkeys(retaken) if url not in listed)
            first = set(candidates)
        for url in candidates:
            if url not in first:
                continue  # another process of the fleet met it first
            if budget <= 0:
                self._inc(stats.LINKS_CAPPED)
            elif not self._trapped(url):
                budget -= 1
                self._inc(stats.LINKS_SCHEDULED)
                priority = priorities.get(url, 0)
                if self.focus is not None:
                    self._queued[url] = priority
                yield self._request(url, meta=referrer, priority=priority)

    def _retaken_links(self, response: Response) -> Iterator[Request]:
        """A page taken back from a process that died, and stored already by this one: the links its dead
        copy met first may be in no queue, and this copy is not read for its own. They go to the fleet's
        queue, whose duplicate filter drops those the dead process did queue."""
        referrer = {"referrer": normalise_url(response.url) or response.url}
        for url in dict.fromkeys(response.meta.get(RETAKEN) or []):
            if self.scope.allows(url) and not _non_html_extension(url):
                yield self._request(url, meta=referrer)

    def _reprioritised(self, url: str, priority: int, meta: dict[str, Any]) -> Iterator[Request]:
        """A focused crawl's URL still waiting in the queue, met again where it ranks higher (a content
        block, after a menu): asked for again with the higher priority; the request it supersedes is
        dropped before download (`superseded`). Scrapy cannot re-rank a queued request."""
        queued = self._queued.get(url)
        if queued is not None and priority >= queued + REPRIORITY_MARGIN:
            self._queued[url] = self._latest[url] = priority
            self._inc(stats.LINKS_REPRIORITISED)
            yield self._request(url, meta=meta, dont_filter=True, priority=priority)

    def superseded(self, request: Request) -> bool:
        """Whether a request waits for a URL that a request of higher priority asks for too
        (`crawler.middlewares.SupersededRequestMiddleware` drops it)."""
        latest = self._latest.get(request.url)
        return latest is not None and request.priority < latest

    def _trapped(self, url: str) -> bool:
        """Whether a trap guard refuses `url` (`crawler.traps`): counted, and logged once per guard."""
        guard = self.guards.refusal(url)
        if guard is None:
            return False
        key = stats.trapped(guard)
        first = not self.crawler.stats.get_value(key)
        self._inc(key)
        log = self.logger.info if first else self.logger.debug
        log("Trap guard %s refused %s (further refusals at DEBUG; counted in %s)", guard, url, key)
        return True

    def _request(
        self,
        url: str,
        due: DueUrl | None = None,
        meta: dict[str, Any] | None = None,
        dont_filter: bool = False,
        priority: int = 0,
    ) -> Request:
        """A request for `url`; for a URL from the crawl state, with its depth, referrer and validators."""
        meta, headers = dict(meta or {}), {}
        if due is not None:
            meta.update(depth=due.depth, referrer=due.referrer)
            headers = _conditional_headers(due)
            if headers:
                meta["handle_httpstatus_list"] = [304]
        return Request(
            url,
            callback=self.parse_page,
            errback=self.on_error,
            meta=meta,
            headers=headers,
            dont_filter=dont_filter,
            priority=priority,
        )

    def _full(self) -> bool:
        """True once `max_pages` pages (the fleet's) have gone to the pipelines and not been dropped there."""
        return self.max_pages is not None and self.frontier.pages() >= self.max_pages

    def _item_dropped(self, item: Any, response: Response, exception: BaseException) -> None:
        """A page dropped by a pipeline is not stored: it does not count towards `max_pages`."""
        if isinstance(item, PageRecord):
            self.frontier.drop_page()

    def _request_dropped(self, request: Request) -> None:
        """Count a redirect the scheduler refused as already seen: a loop when it leads back into its chain.

        The spider never yields a URL twice, so only redirects reach the scheduler's duplicate filter.
        """
        chain = request.meta.get("redirect_urls")
        if not chain:
            return
        if request.url in chain:
            detail = " -> ".join([*chain, request.url])
            self._pending += self._skip("redirect_loop", chain[0], detail, {}, UrlState.SKIPPED)
        else:
            self._skip("duplicate", chain[0], f"redirects to {request.url}, fetched already")
            self._pending += self._outcome(chain[0], UrlState.REDIRECTED, {}, target=request.url)

    def _skip(
        self,
        reason: str,
        url: str,
        detail: str = "",
        meta: dict[str, Any] | None = None,
        state: UrlState | None = None,
    ) -> list[UrlRecord]:
        """Count and log a request that stores no page; its outcome for the crawl state when `state` is
        given (and the URLs that redirected to it, as redirects)."""
        self._inc(stats.skipped(reason))
        self.logger.info("Skipped %s (%s)%s", url, reason, f": {detail}" if detail else "")
        chain = _redirect_chain(meta or {}, url)
        redirects = [
            o for source in chain for o in self._outcome(source, UrlState.REDIRECTED, {}, target=url)
        ]
        if state is None:
            self.frontier.done((meta or {}).get(LEASE, ""))  # nothing of it is written: its lease ends now
            return redirects
        return self._outcome(url, state, meta or {}, reason) + redirects

    def _outcome(
        self,
        url: str,
        state: UrlState,
        meta: dict[str, Any],
        reason: str = "",
        target: str = "",
        not_modified: bool = False,
    ) -> list[UrlRecord]:
        """The outcome of a request for the crawl state; none without a store."""
        if self._context is None or not self._context.database_url:
            return []
        depth, referrer = int(meta.get("depth", 0)), meta.get("referrer", "")
        url, target = normalise_url(url) or url, normalise_url(target) or target
        record = UrlRecord(
            url, site_of(url), state, reason, target, self._now(), depth, referrer, not_modified,
            meta.get(LEASE, ""),
        )  # fmt: skip
        return [record]

    def _drain(self) -> list[UrlRecord]:
        pending, self._pending = self._pending, []
        return pending

    def _now(self) -> datetime:
        return self._context.now() if self._context is not None else datetime.now(UTC)

    def _inc(self, key: str) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(key)


def usable_seeds(seeds: list[str], max_length: int) -> list[str]:
    """The seeds no longer than ``URLLENGTH_LIMIT`` (Scrapy would drop the others unseen); `SeedError`
    naming them when none is left."""
    too_long = [seed for seed in seeds if max_length and len(seed) > max_length]
    if too_long and len(too_long) == len(seeds):
        raise SeedError(
            f"seed {too_long[0][:80]}... is longer than URLLENGTH_LIMIT ({max_length} characters)"
        )
    for seed in too_long:
        logger.error(
            "Seed %s... is longer than URLLENGTH_LIMIT (%d characters): not crawled", seed[:80], max_length
        )
    return [seed for seed in seeds if seed not in too_long]


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


def _header(response: Response, name: bytes) -> str:
    value = response.headers.get(name)
    return value.decode("latin-1").strip() if value else ""


def _conditional_headers(due: DueUrl) -> dict[str, str]:
    """The validators of a URL fetched before, as the headers of a conditional GET."""
    headers = {}
    if due.etag:
        headers["If-None-Match"] = due.etag
    if due.last_modified:
        headers["If-Modified-Since"] = due.last_modified
    return headers


def _redirect_chain(meta: dict[str, Any], final_url: str) -> list[str]:
    """The normalised URLs that redirected to `final_url` (RedirectMiddleware's ``redirect_urls``)."""
    chain = (normalise_url(url) or url for url in meta.get("redirect_urls", ()))
    return [url for url in dict.fromkeys(chain) if url != final_url]


def _non_html_extension(url: str) -> bool:
    return posixpath.splitext(urlsplit(url).path)[1].lower() in NON_HTML_EXTENSIONS


def page_record(
    response: Response, final_url: str, site: str, extraction: Extracted, keep_html: bool = False
) -> PageRecord:
    """The record of one extracted page: sizes, title and every block with its hash and label; with
    `keep_html`, the body too (for a site-level method's `MethodPipeline`)."""
    # The page's identity in the store is its final URL, whichever URL (redirect, meta refresh) reached it
    # first: a page found under several URLs is one row, in this crawl and the next.
    now, size = datetime.now(UTC), len(response.body)
    page = PageRecord.of(extraction.result, final_url, site, response.status, size, now, extraction.keys)
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


def _failure_state(failure: Failure) -> UrlState:
    """What a failed request leaves in the crawl state: gone (404, 410), skipped (another HTTP error, a
    middleware's refusal) or failed (no answer or a server error: tried again by the next crawl)."""
    error = failure.value
    if isinstance(error, HttpError):
        status = error.response.status
        if status in GONE_STATUSES:
            return UrlState.GONE
        return UrlState.FAILED if status >= 500 or status == 429 else UrlState.SKIPPED
    return UrlState.SKIPPED if isinstance(error, IgnoreRequest) else UrlState.FAILED


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
