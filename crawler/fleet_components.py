"""The Scrapy components of a fleet: several processes on one shared frontier, scrapy-redis' scheduler.

With ``REDIS_URL`` set, the add-on installs them (`crawler.addon`); without it the crawl is one process, as
before, and none of them runs.

- `FleetScheduler`: scrapy-redis' scheduler (its priority queue, so a focused crawl's ``Request.priority``
  holds across the fleet, and its duplicate filter) under the crawl's own keys (`crawler.fleet`), which
  leases every request it hands out: a request whose process dies goes back to the queue when its lease
  runs out (``FLEET_LEASE_TIMEOUT``), taken back by whichever process finds it first.
- a request's lease ends when its outcome is written: the page or the skip, failure or 304 the store
  records with the next batch (`records.signals.batch_written`). A process that dies with pages fetched
  and not yet written gives their requests back. `FleetLeaseMiddleware` ends it earlier where nothing will
  be written: a download that failed or was dropped, and every answer when the crawl keeps no store; a
  request that comes back to the queue (a retry, a redirect's target) ends the lease it had.
- `FleetPolitenessMiddleware`: the fleet keeps each site's ``DOWNLOAD_DELAY`` between any two of its
  requests and at most ``CONCURRENT_REQUESTS_PER_DOMAIN`` of them in flight, whatever the number of
  processes. Each request then leaves at once, in a download slot of its own: the fleet's pace replaces
  the process's own per-site delay (and AutoThrottle's, which works per process).
- `FleetExtension`: holds the crawl's `Fleet`; says the process runs (a heartbeat), keeps an idle process
  alive while the fleet may still hand it work (the queue is not empty, requests are out, the seeds are
  not scheduled yet), and, in the last process to stop, deletes the crawl's keys. As the processes close,
  it gives the storage pipeline their share of closing (`FleetClosing`, `records.closing`): each cluster's
  last re-clean is done by one process, not by all of them, and the last to finish forgets noise text and
  measures the store.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from typing import Self

import redis
from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.http import Response
from scrapy.utils.asyncio import sleep
from scrapy_redis.dupefilter import RFPDupeFilter
from scrapy_redis.scheduler import Scheduler
from twisted.internet.task import LoopingCall

from crawler.fleet import LEASE, RETAKEN, Fleet, crawl_key
from records.closing import Members
from records.signals import batch_written, closing_share
from records.sites import site_of

logger = logging.getLogger(__name__)

# How often a process says it runs, as a share of the lease: a process silent for a whole lease is dead.
_HEARTBEATS_PER_LEASE = 4
# How long a request waits before it asks again for a place among its site's requests in flight.
_BUSY_WAIT = 0.05
# How soon an idle process that stays looks at the fleet's queue again. Left to itself, the engine looks
# only at its heartbeat, every 5 seconds: a process that starts while another fetches the seed, or whose
# queue ran dry while another's pages bring links, sat out 5 seconds each time (a quarter of a two-process
# crawl of 5,000 pages spent with one core idle).
_IDLE_RECHECK = 0.1


class FleetExtension:
    """The crawl's `Fleet` and the life of this process in it."""

    def __init__(self, crawler: Crawler, server: redis.Redis) -> None:
        self.crawler = crawler
        self.server = server
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._fleet: Fleet | None = None
        self._heartbeat: LoopingCall | None = None
        # Set when the scheduler opens: the idle handler takes expired requests back through it.
        self.scheduler: FleetScheduler | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """NotConfigured without ``REDIS_URL``; else connect, and fail at start when Redis does not answer."""
        url = crawler.settings.get("REDIS_URL")
        if not url:
            raise NotConfigured  # without a message: Scrapy would log a warning for a chosen setting
        server = redis.Redis.from_url(url, socket_timeout=30, socket_connect_timeout=10)
        server.ping()
        extension = cls(crawler, server)
        crawler.signals.connect(extension._opened, signal=signals.spider_opened)
        crawler.signals.connect(extension._idle, signal=signals.spider_idle)
        crawler.signals.connect(extension._closed, signal=signals.spider_closed)
        crawler.signals.connect(extension._written, signal=batch_written)
        crawler.signals.connect(extension._failed, signal=signals.spider_error)
        crawler.signals.connect(extension._closing_share, signal=closing_share)
        return extension

    @classmethod
    def of(cls, crawler: Crawler) -> FleetExtension | None:
        """The crawler's fleet extension; None when the crawl is one process."""
        return crawler.get_extension(cls)

    def fleet(self, spider: Spider) -> Fleet:
        """The crawl's fleet: its keys come from the spider's seeds and the store, or ``FLEET_KEY``."""
        if self._fleet is None:
            settings = self.crawler.settings
            seeds = list(getattr(spider, "seeds", []))
            prefix = settings.get("FLEET_KEY") or crawl_key(spider.name, seeds, settings.get("DATABASE_URL"))
            self._fleet = Fleet(self.server, prefix, settings.getfloat("FLEET_LEASE_TIMEOUT"))
        return self._fleet

    def _opened(self, spider: Spider) -> None:
        fleet = self.fleet(spider)
        fleet.join(self.worker)
        self._heartbeat = LoopingCall(fleet.join, self.worker)
        self._heartbeat.start(fleet.lease_seconds / _HEARTBEATS_PER_LEASE, now=False)
        logger.info("Fleet %s: this process is %s (Redis %s)", fleet.keys.prefix, self.worker, self._where())

    def _idle(self, spider: Spider) -> None:
        """Stay while the fleet may still hand this process work: requests are queued or out, the seeds
        are not scheduled yet, or another process is busy (its pages may bring new links). Requests whose
        leases ran out go back to the queue."""
        fleet = self.fleet(spider)
        if self.scheduler is not None and self.scheduler.take_back_expired():
            self._recheck_soon()
            raise DontCloseSpider("requests of a stopped process went back to the queue")
        if not fleet.rest(self.worker):
            self._recheck_soon()
            raise DontCloseSpider("the fleet has work")

    def _recheck_soon(self) -> None:
        """Have the engine ask the scheduler for requests again in `_IDLE_RECHECK` seconds, not at its next
        heartbeat."""
        # Scrapy has no public call for this; `engine.crawl()` does the same after it schedules a request.
        engine = self.crawler.engine
        slot = engine._slot if engine is not None else None
        if slot is not None:
            slot.nextcall.schedule(_IDLE_RECHECK)

    def _written(self, records: list[object]) -> None:
        """The requests of a written batch are done."""
        if self._fleet is not None:
            for lease in {getattr(record, "lease", "") for record in records} - {""}:
                self._fleet.release(lease)

    def _failed(self, response: Response) -> None:
        """A callback raised: the request is done, with nothing more of it to write. Its lease ends now, or
        the fleet would wait for it as long as this process runs."""
        lease = response.meta.get(LEASE)
        if self._fleet is not None and lease:
            self._fleet.release(lease)

    def _closing_share(self) -> FleetClosing | None:
        """This process's share of closing the crawl (`records.closing`), once the fleet is known."""
        return FleetClosing(self._fleet, self.worker) if self._fleet is not None else None

    def _closed(self, spider: Spider, reason: str) -> None:
        if self._heartbeat is not None and self._heartbeat.running:
            self._heartbeat.stop()
        fleet = self.fleet(spider)
        if fleet.leave(self.worker):
            logger.info("Fleet %s: the last process stopped; its Redis keys are deleted", fleet.keys.prefix)
        else:
            logger.info("Fleet %s: this process stopped (%s); the others go on", fleet.keys.prefix, reason)

    def _where(self) -> str:
        kwargs = self.server.connection_pool.connection_kwargs
        return f"{kwargs.get('host', kwargs.get('path', '?'))}:{kwargs.get('port', '')}/{kwargs.get('db', 0)}"


class FleetClosing:
    """A fleet process's `records.closing.ClosingShare`: each cluster re-cleaned by one process, the rest by
    the last to finish."""

    def __init__(self, fleet: Fleet, worker: str) -> None:
        self.fleet = fleet
        self.worker = worker

    def begin(self) -> None:
        """Say this process is closing."""
        self.fleet.begin_closing(self.worker)

    def claim(self, site: str, cluster: str, members: Members) -> bool:
        """Whether this process re-cleans the cluster."""
        return self.fleet.claim_cluster(self.worker, site, cluster, str(members))

    def end(self) -> bool:
        """Whether this process is the last of the fleet still closing."""
        return self.fleet.end_closing(self.worker)


class FleetScheduler(Scheduler):
    """scrapy-redis' scheduler under the crawl's keys, leasing what it hands out."""

    crawler: Crawler
    fleet_: Fleet
    worker: str

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """scrapy-redis' scheduler on the fleet extension's connection."""
        extension = FleetExtension.of(crawler)
        if extension is None:
            raise NotConfigured("FleetScheduler needs REDIS_URL and cleancrawl's add-on")
        # The queue outlives a process: the last one to stop deletes it (FleetExtension).
        scheduler = cls(server=extension.server, persist=True)
        scheduler.stats = crawler.stats
        scheduler.crawler = crawler
        return scheduler

    def open(self, spider: Spider) -> None:
        """Open the queue and the duplicate filter under the crawl's keys."""
        extension = FleetExtension.of(self.crawler)
        assert extension is not None  # from_crawler checked it
        extension.scheduler = self
        self.fleet_, self.worker = extension.fleet(spider), extension.worker
        self.queue_key = self.fleet_.keys.requests
        self.df = RFPDupeFilter(self.server, key=self.fleet_.keys.dupefilter, debug=False)
        super().open(spider)

    def enqueue_request(self, request: Request) -> bool:
        """Queue a request unless the fleet's duplicate filter has seen it (`Fleet.schedule`); one that comes
        back from a lease (a retry, a redirect's target) ends it."""
        lease = request.meta.pop(LEASE, None)
        fingerprint, payload = self.df.request_fingerprint(request), self.queue._encode_request(request)
        queued = self.fleet_.schedule(fingerprint, payload, request.priority, not request.dont_filter)
        if queued:
            self.stats.inc_value("scheduler/enqueued/redis")
        else:
            self.df.log(request, self.spider)
        if lease is not None:
            self.fleet_.release(lease)
        return queued

    def next_request(self) -> Request | None:
        """The best request of the fleet's queue, leased to this process; requests whose leases ran out
        go back to the queue first when it is empty."""
        popped = self.fleet_.pop_lease(self.worker)
        if popped is None and self.take_back_expired():
            popped = self.fleet_.pop_lease(self.worker)
        if popped is None:
            return None
        lease, payload = popped
        request: Request = self.queue._decode_request(payload)
        request.meta[LEASE] = lease
        self.stats.inc_value("scheduler/dequeued/redis")
        return request

    def take_back_expired(self) -> int:
        """Return to the queue the requests whose processes died (their leases ran out)."""
        taken = self.fleet_.expired()
        for payload, met in taken:
            request = self.queue._decode_request(payload)
            # Its page was not written: the dead process's claim that it stored it does not hold, and the
            # links it met first may never have reached the queue.
            request.meta[RETAKEN] = met
            logger.info("Fleet: %s goes back to the queue (its process stopped answering)", request.url)
            self.queue.push(request)
        return len(taken)

    def __len__(self) -> int:
        return len(self.queue)


class FleetLeaseMiddleware:
    """End a request's lease where no outcome of it will be written: a failed or dropped download, and
    every answer of a crawl that keeps no store."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.stores = bool(crawler.settings.get("DATABASE_URL"))

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """NotConfigured without ``REDIS_URL``."""
        if not crawler.settings.get("REDIS_URL"):
            raise NotConfigured  # without a message: Scrapy would log a warning for a chosen setting
        return cls(crawler)

    def _release(self, request: Request) -> None:
        extension, lease = FleetExtension.of(self.crawler), request.meta.pop(LEASE, None)
        if extension is not None and lease is not None and self.crawler.spider is not None:
            extension.fleet(self.crawler.spider).release(lease)

    def process_response(self, request: Request, response: Response) -> Response:
        """The request was answered: its outcome ends the lease when written, or at once with no store."""
        if not self.stores:
            self._release(request)
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        """The request failed or was dropped."""
        self._release(request)


class FleetPolitenessMiddleware:
    """Each site's delay and concurrency, held by the whole fleet."""

    def __init__(self, crawler: Crawler, delay: float, concurrency: int) -> None:
        self.crawler = crawler
        self.delay = delay
        self.concurrency = concurrency

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """NotConfigured without ``REDIS_URL`` or with ``FLEET_POLITENESS`` off."""
        settings = crawler.settings
        if not settings.get("REDIS_URL") or not settings.getbool("FLEET_POLITENESS"):
            raise NotConfigured  # without a message: Scrapy would log a warning for a chosen setting
        delay = settings.getfloat("DOWNLOAD_DELAY")
        return cls(crawler, delay, settings.getint("CONCURRENT_REQUESTS_PER_DOMAIN"))

    def _fleet(self) -> Fleet:
        extension, spider = FleetExtension.of(self.crawler), self.crawler.spider
        assert extension is not None and spider is not None  # REDIS_URL is set; the spider is open
        return extension.fleet(spider)

    async def process_request(self, request: Request) -> None:
        """Wait for the site's turn and for a place among its requests in flight."""
        fleet, site = self._fleet(), site_of(request.url)
        token = uuid.uuid4().hex
        if self.concurrency > 0:
            while not fleet.enter(site, token, self.concurrency):
                await sleep(_BUSY_WAIT)
            request.meta["fleet_busy_token"] = token
        if self.delay > 0:
            while wait := fleet.next_turn(site, self.delay):
                await sleep(wait)
        # A download slot of its own: the request leaves now, on the fleet's turn, not after this process's
        # own delay for the site (which would shift it off the fleet's pace).
        request.meta["download_slot"] = f"{site}#{token}"

    def _exit(self, request: Request) -> None:
        token = request.meta.pop("fleet_busy_token", None)
        if token is not None:
            self._fleet().exit(site_of(request.url), token)

    def process_response(self, request: Request, response: Response) -> Response:
        """Give back the request's place."""
        self._exit(request)
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        """Give back the request's place."""
        self._exit(request)
