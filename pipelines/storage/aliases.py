"""Aliases: a page reached under a URL that differs from a stored page's only by its query string, with the
same informative content, is that page again (a session id, a tracking or sort parameter, a reply link).
It is not stored twice: its URL is recorded in the crawl state as an alias of the stored page.

Only the query string is looked at. Two pages of different paths with the same clean text (an archive
holding one post, and the post) are different pages, and both stay; an empty clean text aliases nothing.
The page first stored under the path keeps it.
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
    for page in pages:
        path, query = page.url.partition("?")[::2]
        content = page.content_text
        digest = hash_to_int(page.content_hash or text_hash(content))
        target = None
        if query and content:
            target = earlier.get((path, digest)) or _stored_twin(session, path, digest, page.url)
        if target is None:
            kept.append(page)
            if content:
                earlier.setdefault((path, digest), page.url)
            continue
        aliases.append(_alias(page, target, page.fetched_at))
    return kept, aliases


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
