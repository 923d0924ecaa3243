"""How the processes of one crawl share the work of closing it: the last re-clean of each cluster, then
forgetting unused noise text and measuring the store.

One process does it all (`ALONE`). The processes of a fleet (`crawler.fleet`) close at about the same time,
once the fleet has nothing left to fetch; each cluster is then re-cleaned by one of them, and the last to
finish forgets noise text and measures the store. Re-cleaning depends only on the stored pages, so a second
re-clean of a cluster whose pages did not change since would only repeat the first: a cluster is claimed
with its stored pages (`Members`), and claimed again by whoever finds them changed.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol


class Members(NamedTuple):
    """A cluster's stored pages as closing claims it: how many, and the sum of their ids (pages that move
    between clusters when a crawl closes, `pipelines.storage.settle`, change it even when the count stays)."""

    pages: int
    id_sum: int

    def __str__(self) -> str:
        return f"{self.pages}:{self.id_sum}"


class ClosingShare(Protocol):
    """This process's share of closing the crawl."""

    def begin(self) -> None:
        """This process starts its share."""

    def claim(self, site: str, cluster: str, members: Members) -> bool:
        """True when this process re-cleans the cluster of these stored pages: no other process has, or is
        doing it, with them."""

    def end(self) -> bool:
        """This process is done with its re-cleans; True when no other process is still at its share."""


class Alone:
    """A crawl of one process: it closes everything."""

    def begin(self) -> None:
        """Nothing to share."""

    def claim(self, site: str, cluster: str, members: Members) -> bool:
        """Every cluster is this process's."""
        return True

    def end(self) -> bool:
        """This process is the last."""
        return True


ALONE = Alone()
