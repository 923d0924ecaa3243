"""Extraction in worker processes (``CRAWL_EXTRACTION_WORKERS``), so that a crawl uses more than one core.

Scrapy runs every callback on the reactor's one thread: while a page is parsed, segmented and labelled
(a millisecond on a small manual page, five on a 250 KB news page), no download, link or pipeline moves.
The spider hands each body to a process pool instead and awaits the result; the reactor goes on meanwhile.
The result comes back whole (an `ExtractionResult`, pickled), so the pipelines see exactly what inline
extraction gives, with the blocks' site-model keys and the page's links, computed there too.

A worker starts with the crawl, in a fresh interpreter ("spawn": the crawl process runs threads, which a
forked child must not inherit), and takes half a second to import the library. Until it is ready, and
for good after a worker dies (killed, out of memory), pages are extracted in the crawl process: a small
crawl never waits for the pool, and no page is lost. A worker whose crawl process dies (killed, crashed)
exits within a second on its own.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred
from twisted.python.failure import Failure

from crawler import worker_process
from crawler.worker_process import Extracted
from extraction import ExtractionConfig
from extraction.methods.base import Params

logger = logging.getLogger(__name__)

T = TypeVar("T")


class ExtractionWorkers:
    """A pool of `count` worker processes extracting with the crawl's method (`name`, `params`)."""

    def __init__(self, count: int, name: str, params: Params | None) -> None:
        context = multiprocessing.get_context("spawn")
        self._pool: ProcessPoolExecutor | None = ProcessPoolExecutor(
            count, mp_context=context, initializer=worker_process.start, initargs=(name, params, os.getpid())
        )
        # Done once a worker has started: until then the spider extracts in its own process.
        self._started = self._pool.submit(worker_process.ready)

    @property
    def ready(self) -> bool:
        """True when a page handed over now would be extracted by a worker that is up."""
        if self._pool is None or not self._started.done():
            return False
        error = self._started.exception()
        if error is not None:
            self._broken(error)
            return False
        return True

    async def extract(
        self,
        config: ExtractionConfig,
        body: bytes,
        url: str,
        encoding: str | None,
        shape_max_chars: int,
        follow: bool,
    ) -> Extracted | None:
        """The page extracted by a worker (`worker_process.extract`); None when the pool broke (the caller
        extracts it itself). `ExtractionError` is raised as inline extraction raises it."""
        if self._pool is None:
            return None
        try:
            args = (config, body, url, encoding, shape_max_chars, follow)
            future = self._pool.submit(worker_process.extract, *args)
            return await maybe_deferred_to_future(_deferred(future))
        except BrokenProcessPool as error:
            self._broken(error)
            return None

    def close(self) -> None:
        """Stop the workers (pages still queued for them are the closing crawl's, already given up)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def _broken(self, error: BaseException) -> None:
        if self._pool is None:
            return
        logger.error("An extraction worker stopped (%s): pages are extracted in the crawl process now", error)
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None


def _deferred(future: Future[T]) -> Deferred[T]:
    """A Deferred fired on the reactor's thread with the future's outcome (any reactor, asyncio's or not)."""
    from twisted.internet import reactor  # the installed one: importing it first would install the default

    deferred: Deferred[T] = Deferred()

    def settle(done: Future[T]) -> None:
        error = CancelledError() if done.cancelled() else done.exception()
        if error is None:
            deferred.callback(done.result())
        else:
            deferred.errback(Failure(error))

    future.add_done_callback(lambda done: reactor.callFromThread(settle, done))
    return deferred
