"""The crawl's memory shared by its processes: which URLs were met, which pages were stored, the page budget.

One process (no ``REDIS_URL``) keeps it in memory (`LocalFrontier`). A fleet of processes started with the
same command and ``REDIS_URL`` keeps it in Redis (`RedisFrontier`, over `crawler.fleet.Fleet`), beside
scrapy-redis' shared request queue and duplicate filter: a link one process met is not scheduled by
another, a page reached under two URLs by two processes is stored once, ``max_pages`` is the fleet's
budget, and the seeds and the crawl state's due URLs are scheduled once, by the first process to start.

The spider keeps its own set of the URLs it met as a cache in front of this: a link seen on hundreds of
pages costs one set lookup after the first time, in either case.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from crawler.fleet import Fleet


class Frontier(Protocol):
    """What the spider asks of the crawl's shared memory."""

    def first_sight(self, urls: Sequence[str], lease: str = "") -> set[str]:
        """Of `urls` (none met by this process), those no process of the crawl met before; all are met now.
        `lease` is the fleet lease of the page that met them ("": none)."""
        ...

    def first_store(self, url: str) -> bool:
        """Whether no other process stored the page of final URL `url` (this one checked its own); it is
        stored now."""
        ...

    def take_page(self, budget: int | None) -> bool:
        """Count a page against the crawl's `budget` (None: no budget); False, uncounted, when it is spent."""
        ...

    def drop_page(self) -> None:
        """Give back a page a pipeline dropped: it was not stored."""
        ...

    def pages(self) -> int:
        """The pages counted so far."""
        ...

    def seeds_first(self) -> bool:
        """Whether this process schedules the seeds and the due URLs (the first to ask, in a fleet)."""
        ...

    def seeded(self) -> None:
        """Say that the seeds and the due URLs are scheduled."""
        ...

    def done(self, lease: str) -> None:
        """End the lease of a request whose outcome is not written (a fleet's; "" and one process: none)."""
        ...


class LocalFrontier:
    """One process's memory: the spider's own sets are the crawl's, so every URL it meets is new."""

    def __init__(self) -> None:
        self._pages = 0

    def first_sight(self, urls: Sequence[str], lease: str = "") -> set[str]:
        """All of them."""
        return set(urls)

    def first_store(self, url: str) -> bool:
        """Always: the spider checks its own stored set first."""
        return True

    def take_page(self, budget: int | None) -> bool:
        """Count a page within `budget`."""
        if budget is not None and self._pages >= budget:
            return False
        self._pages += 1
        return True

    def drop_page(self) -> None:
        """Uncount a page."""
        self._pages -= 1

    def pages(self) -> int:
        """The pages counted."""
        return self._pages

    def seeds_first(self) -> bool:
        """Always: the process is the crawl."""
        return True

    def seeded(self) -> None:
        """Nothing to tell."""

    def done(self, lease: str) -> None:
        """No leases."""


class RedisFrontier:
    """A fleet's memory, in Redis (`crawler.fleet.Fleet`)."""

    def __init__(self, fleet: Fleet) -> None:
        self.fleet = fleet

    def first_sight(self, urls: Sequence[str], lease: str = "") -> set[str]:
        """The URLs this call added to the fleet's set of met URLs, recorded under `lease` until it ends:
        should this process die before it queues them, they go back to the queue with the page."""
        return self.fleet.meet(urls, lease)

    def first_store(self, url: str) -> bool:
        """Whether this call added `url` to the fleet's stored pages."""
        return bool(self.fleet.server.sadd(self.fleet.keys.stored, url))

    def take_page(self, budget: int | None) -> bool:
        """Count a page in the fleet's counter, within `budget`."""
        return self.fleet.take(self.fleet.keys.pages, budget)

    def drop_page(self) -> None:
        """Uncount a page in the fleet's counter."""
        self.fleet.server.decr(self.fleet.keys.pages)

    def pages(self) -> int:
        """The fleet's pages."""
        return int(self.fleet.server.get(self.fleet.keys.pages) or 0)

    def seeds_first(self) -> bool:
        """Whether this process is the first of the fleet to ask."""
        return self.fleet.claim_seeding()

    def seeded(self) -> None:
        """Tell the fleet the seeds are scheduled: a process that finds the queue empty may now stop."""
        self.fleet.finish_seeding()

    def done(self, lease: str) -> None:
        """End the lease."""
        if lease:
            self.fleet.release(lease)
