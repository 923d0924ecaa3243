"""What the crawl knows of a URL beyond a stored page: its state in the crawl state table, and the record of
an outcome that stores no page (skipped, gone, redirected, not modified, refused by a guard).

A URL's state is a small code, as the store keeps it (`crawl_urls.state`); `UrlRecord` carries an outcome
from the spider to the storage pipeline, batched with the pages, so that the crawl state and the pages are
written in one transaction: what a crash loses is one batch, whatever it held.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum


class UrlState(IntEnum):
    """Where a URL stands in the crawl (stored codes: a new state takes a new number)."""

    QUEUED = 0  # met in scope, not fetched yet
    STORED = 1  # fetched, its page stored
    SKIPPED = 2  # fetched (or refused before), not a page to store: the reason says why
    GONE = 3  # answered 404 or 410
    REDIRECTED = 4  # answered with a redirect to `target`
    ALIAS = 5  # its page is `target`'s (rel=canonical, or the same informative content)
    TRAPPED = 6  # a guard refused it (the reason names the guard)
    FAILED = 7  # no answer (network error, timeout): tried again by the next crawl


# A URL that a new crawl fetches again when its time comes; the others wait for a link to them.
REVISITED = (UrlState.STORED, UrlState.GONE, UrlState.FAILED, UrlState.SKIPPED)


@dataclass(slots=True)
class UrlRecord:
    """An outcome of a request that stores no page: the URL, its site and new state, why, and what the
    fetch said."""

    url: str
    site: str
    state: UrlState
    reason: str = ""
    """Why, in a word or two: what redirected (`meta_refresh`), the error (`timeout`, `http_410`), the guard
    that refused the URL, or the message of the pipeline that dropped its page."""
    target: str = ""
    """Where a redirect or an alias leads."""
    fetched_at: datetime | None = None
    """When the server answered (None: it did not)."""
    depth: int = 0
    referrer: str = ""
    not_modified: bool = False
    """A 304: the stored page stands."""
    lease: str = ""
    """A fleet's lease on the request (`crawler.fleet`), ended when the outcome is written."""

    def __repr__(self) -> str:
        return f"UrlRecord(url={self.url!r}, state={self.state.name}, reason={self.reason!r})"
