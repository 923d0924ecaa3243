"""Aliases: a page with the same informative content as a stored page is that page again, and is not stored
twice (its URL is recorded in the crawl state as an alias of the stored page) when
- its URL differs from the stored page's only by its query string (a session id, a tracking or sort
  parameter, a reply link), or
- it names the stored page as its canonical URL (`<link rel="canonical">`).

Two pages of different paths with the same clean text and no canonical link between them (an archive
holding one post, and the post) are different pages, and both stay; an empty clean text aliases nothing; a
canonical link to a page of other content is not followed (a common mistake of themes: every page of a
listing naming its first page). The page stored first keeps its URL.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from extraction import text_hash
from pipelines.storage.codec import hash_to_int
from pipelines.storage.models import Page
from records import PageRecord
from records.urls import UrlRecord, UrlState

REASON = "same_content"


def split_aliases(session: Session, pages: Sequence[PageRecord]) -> tuple[list[PageRecord], list[UrlRecord]]:
    """The pages to store, and an alias outcome for each page that a stored (or earlier) page repeats."""
    kept: list[PageRecord] = []
    aliases: list[UrlRecord] = []
    earlier: dict[tuple[str, int], str] = {}
    # A page stored already stays a page (its row is updated): aliases are decided when a URL is new.
    stored = set(session.scalars(select(Page.url).where(Page.url.in_([page.url for page in pages]))))
    for page in pages:
        path, query = page.url.partition("?")[::2]
        content = "" if page.url in stored else page.content_text
        digest = hash_to_int(page.content_hash or text_hash(page.content_text))
        # Pages of one batch may be labelled before and after their cluster's model was ready: their
        # single-page texts tell twins apart too.
        digests = (digest, hash_to_int(text_hash(page.single_page_text)))
        target = None
        if page.canonical and content:
            target = _canonical_twin(session, page.canonical, digests, earlier)
        if target is None and query and content:
            target = _earlier(earlier, path, digests) or _stored_twin(session, path, digest, page.url)
        if target is None:
            kept.append(page)
            if page.content_text:
                for twin in digests:
                    earlier.setdefault((path, twin), page.url)
                    earlier.setdefault((page.url, twin), page.url)
            continue
        aliases.append(_alias(page, target, page.fetched_at))
    return kept, aliases


def _earlier(earlier: dict[tuple[str, int], str], url: str, digests: tuple[int, int]) -> str | None:
    """The page of the batch stored under `url` with one of the same texts, if any."""
    return next((earlier[url, digest] for digest in digests if (url, digest) in earlier), None)


def _canonical_twin(
    session: Session, canonical: str, digests: tuple[int, int], earlier: dict[tuple[str, int], str]
) -> str | None:
    """The canonical page, stored or earlier in the batch, when it holds the same clean text."""
    if _earlier(earlier, canonical, digests):
        return canonical
    query = select(Page.url).where(
        Page.url == canonical, Page.content_hash == digests[0], Page.gone_at.is_(None)
    )
    return session.scalar(query)


def _stored_twin(session: Session, path: str, digest: int, url: str) -> str | None:
    """A stored page of the same path, with or without a query string, holding the same clean text."""
    query = (
        select(Page.url)
        .where(Page.url >= path, Page.url < path + "\uffff", Page.url != url)
        .where(Page.content_hash == digest, Page.gone_at.is_(None))
        .order_by(Page.id)
    )
    for candidate in session.scalars(query):
        if candidate == path or candidate.startswith(path + "?"):
            return candidate
    return None


def _alias(page: PageRecord, target: str, fetched_at: datetime) -> UrlRecord:
    return UrlRecord(
        page.url, page.site, UrlState.ALIAS, REASON, target, fetched_at, page.depth, page.referrer
    )
