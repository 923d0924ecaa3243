"""The crawl state: one row per URL met in scope (`crawl_urls`), written in the same transaction as the pages
of a batch, so that what a crash loses is that batch, and read back when a crawl starts (`due_urls`).

A page's row records its fetch (validators, the hash of its HTML), whether that changed it
(`pipelines.revisit`: informative change by default, as the store decided it: the clean text's hash is
the page's, in `pages`, kept in step by re-cleaning) and when it is due again; the links it holds are added
as queued rows (a URL met before keeps its row). A request that stored no page records its outcome
(`records.urls.UrlRecord`): skipped and why, gone, redirected, not modified (a 304: the row only).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.orm import Session

from pipelines.revisit import ChangeHistory, RevisitPolicy
from pipelines.storage.codec import hash_to_int
from pipelines.storage.content import CHUNK
from pipelines.storage.dialect import insert_for
from pipelines.storage.models import CrawlUrl, Page, Site
from pipelines.storage.repository import BatchSummary
from records import PageRecord, site_of
from records.urls import REVISITED, UrlRecord, UrlState


@dataclass(frozen=True, slots=True)
class DueUrl:
    """A URL a crawl fetches: its depth, referring URL and validators for a conditional GET."""

    url: str
    depth: int
    referrer: str
    etag: str
    last_modified: str


@dataclass(slots=True)
class StateSummary:
    """What a batch's fetches did to the crawl state: pages whose informative content changed, pages
    fetched again unchanged (304 or the same clean text), pages gone, URLs queued."""

    changed: int = 0
    unchanged: int = 0
    gone: int = 0
    queued: int = 0


def record_fetches(
    session: Session,
    pages: Sequence[PageRecord],
    written: BatchSummary,
    outcomes: Sequence[UrlRecord],
    policy: RevisitPolicy,
    now: datetime,
) -> StateSummary:
    """Write the crawl state of a batch: its stored pages (`written`: as `store_pages` stored them), their
    links, and the other outcomes."""
    moment = int(now.timestamp())
    ids = _url_ids(session, _met(pages, outcomes), moment)
    batch = _Batch(session, ids, policy, moment, StateSummary())
    batch.summary.queued = _queue_links(session, pages, ids, moment)
    _record_pages(batch, pages, written)
    _record_outcomes(batch, outcomes)
    return batch.summary


def due_urls(session: Session, hosts: Iterable[str], now: datetime) -> list[DueUrl]:
    """The URLs of these sites a crawl fetches: every queued one, and every revisited one whose time has
    come, oldest first."""
    moment = int(now.timestamp())
    referrer = CrawlUrl.__table__.alias("referrer")
    query = (
        select(CrawlUrl.url, CrawlUrl.depth, referrer.c.url, CrawlUrl.etag, CrawlUrl.last_modified)
        .join(Site, Site.id == CrawlUrl.site_id)
        .outerjoin(referrer, referrer.c.id == CrawlUrl.referrer_id)
        .where(Site.host.in_(set(hosts)), CrawlUrl.due_at <= moment)
        .where(CrawlUrl.state.in_([UrlState.QUEUED, *REVISITED]))
        .order_by(CrawlUrl.due_at, CrawlUrl.id)
    )
    return [
        DueUrl(url, depth, source or "", etag or "", modified or "")
        for url, depth, source, etag, modified in session.execute(query)
    ]


def known_urls(session: Session, hosts: Iterable[str]) -> set[str]:
    """Every URL of these sites the crawl state holds (a crawl does not schedule them again from a link)."""
    query = select(CrawlUrl.url).join(Site, Site.id == CrawlUrl.site_id).where(Site.host.in_(set(hosts)))
    return set(session.scalars(query))


def _met(pages: Sequence[PageRecord], outcomes: Sequence[UrlRecord]) -> dict[str, tuple[int, str]]:
    """Every URL the batch names, with its depth and referring URL: pages, the URLs that led to them,
    and the outcomes and their targets."""
    met: dict[str, tuple[int, str]] = {}
    for page in pages:
        met.setdefault(page.url, (page.depth, page.referrer))
        for url in page.redirects:
            met.setdefault(url, (page.depth, page.referrer))
    for outcome in outcomes:
        met.setdefault(outcome.url, (outcome.depth, outcome.referrer))
        if outcome.target:
            met.setdefault(outcome.target, (outcome.depth, outcome.url))
    return met


def _url_ids(session: Session, met: Mapping[str, tuple[int, str]], moment: int) -> dict[str, int]:
    """The rows of these URLs, added (queued) when new; their ids."""
    if not met:
        return {}
    sites = _site_ids(session, {site_of(url) for url in met})
    rows = [
        {"site_id": sites[site_of(url)], "url": url, "state": UrlState.QUEUED, "depth": depth,
         "first_seen": moment, "due_at": moment}
        for url, (depth, _) in sorted(met.items())
    ]  # fmt: skip
    session.execute(insert_for(session, CrawlUrl).on_conflict_do_nothing(index_elements=["url"]), rows)
    return _ids(session, list(met))


def _ids(session: Session, urls: Sequence[str]) -> dict[str, int]:
    ids: dict[str, int] = {}
    for start in range(0, len(urls), CHUNK):
        query = select(CrawlUrl.url, CrawlUrl.id).where(CrawlUrl.url.in_(urls[start : start + CHUNK]))
        ids.update(session.execute(query).all())
    return ids


def _site_ids(session: Session, hosts: set[str]) -> dict[str, int]:
    rows = [{"host": host} for host in sorted(hosts)]
    session.execute(insert_for(session, Site).on_conflict_do_nothing(index_elements=["host"]), rows)
    return dict(session.execute(select(Site.host, Site.id).where(Site.host.in_(hosts))).all())


def _queue_links(session: Session, pages: Sequence[PageRecord], ids: Mapping[str, int], moment: int) -> int:
    """Add the links of the pages as queued URLs (a URL met before keeps its row); how many were new."""
    links = {link: page for page in pages for link in page.links if link not in ids}
    for link in _ids(session, list(links)):
        del links[link]  # met before: it keeps its row
    if not links:
        return 0
    sites = _site_ids(session, {site_of(link) for link in links})
    rows = [
        {"site_id": sites[site_of(link)], "url": link, "state": UrlState.QUEUED, "depth": page.depth + 1,
         "referrer_id": ids.get(page.url), "first_seen": moment, "due_at": moment}
        for link, page in sorted(links.items())
    ]  # fmt: skip
    session.execute(insert_for(session, CrawlUrl).on_conflict_do_nothing(index_elements=["url"]), rows)
    return len(rows)


@dataclass(frozen=True, slots=True)
class _Batch:
    """What each part of a batch's crawl state is written with: the URLs' row ids, the revisit policy, the
    batch's time, and the summary it adds to."""

    session: Session
    ids: Mapping[str, int]
    policy: RevisitPolicy
    moment: int
    summary: StateSummary


def _record_pages(batch: _Batch, pages: Sequence[PageRecord], written: BatchSummary) -> None:
    before = _previous(batch, [page.url for page in pages])
    rows, redirects = [], []
    for page in pages:
        row_id = batch.ids[page.url]
        old = before.get(page.url)
        old_html = old.html_hash if old else None
        new_html = hash_to_int(page.html_hash) if page.html_hash else None
        fetched_before = old is not None and old.fetched_at is not None
        changed = fetched_before and batch.policy.changed(page.url in written.revised, (old_html, new_html))
        batch.summary.changed += changed
        batch.summary.unchanged += fetched_before and not changed
        interval = _interval(batch, old, changed)
        rows.append(
            {"row_id": row_id, "page_id": written.page_ids[page.url], "fetched_at": batch.moment,
             "etag": page.etag or None, "last_modified": page.last_modified or None, "html_hash": new_html,
             "interval": interval, "due_at": batch.moment + interval, "changed": int(changed)}
        )  # fmt: skip
        redirects += [{"row_id": batch.ids[url], "target_id": row_id} for url in page.redirects]
    _execute(batch.session, _STORED, rows)
    _execute(batch.session, _REDIRECTED, redirects)


@dataclass(frozen=True, slots=True)
class _Previous:
    """A URL's row before the batch: what its next interval and change are read from."""

    interval: int | None
    fetched_at: int | None
    html_hash: int | None
    fetches: int
    changes: int
    first_seen: int


def _previous(batch: _Batch, urls: Sequence[str]) -> dict[str, _Previous]:
    """These URLs' rows before this batch."""
    found: dict[str, _Previous] = {}
    columns = (CrawlUrl.interval, CrawlUrl.fetched_at, CrawlUrl.html_hash, CrawlUrl.fetches, CrawlUrl.changes)
    for start in range(0, len(urls), CHUNK):
        query = select(CrawlUrl.url, *columns, CrawlUrl.first_seen).where(
            CrawlUrl.id.in_([batch.ids[url] for url in urls[start : start + CHUNK]])
        )
        for url, interval, fetched_at, html, fetches, changes, first_seen in batch.session.execute(query):
            found[url] = _Previous(interval, fetched_at, html, fetches, changes, first_seen)
    return found


def _interval(batch: _Batch, old: _Previous | None, changed: bool) -> int:
    """The next interval of a URL fetched now: its history, this fetch included (a first fetch compares
    nothing)."""
    if old is None or not old.interval:
        return int(batch.policy.next_interval(None, changed, ChangeHistory()).total_seconds())
    history = ChangeHistory(old.fetches, old.changes + changed, batch.moment - old.first_seen)
    return int(batch.policy.next_interval(timedelta(seconds=old.interval), changed, history).total_seconds())


def _record_outcomes(batch: _Batch, outcomes: Sequence[UrlRecord]) -> None:
    session, summary, moment = batch.session, batch.summary, batch.moment
    before = _previous(batch, [outcome.url for outcome in outcomes])
    checked, settled = [], []
    for outcome in outcomes:
        interval = _interval(batch, before.get(outcome.url), changed=False)
        times: dict[str, Any] = {"row_id": batch.ids[outcome.url], "fetched_at": moment, "interval": interval}
        # No answer: due again at once, so the next crawl tries it before anything else.
        times["due_at"] = moment if outcome.state == UrlState.FAILED else moment + interval
        if outcome.not_modified:
            summary.unchanged += 1
            checked.append(times)
            continue
        summary.gone += outcome.state == UrlState.GONE
        target = batch.ids.get(outcome.target) if outcome.target else None
        settled.append(
            times | {"state": outcome.state, "reason": outcome.reason or None, "target_id": target}
        )
    _execute(session, _CHECKED, checked)
    _execute(session, _SETTLED, settled)
    gone = [outcome.url for outcome in outcomes if outcome.state == UrlState.GONE]
    if gone:
        gone_at = datetime.fromtimestamp(moment, UTC)
        statement = update(Page).where(Page.url.in_(gone), Page.gone_at.is_(None)).values(gone_at=gone_at)
        session.execute(statement, execution_options={"synchronize_session": False})


def _execute(session: Session, statement: Any, rows: Sequence[dict[str, Any]]) -> None:
    if rows:
        session.connection().execute(statement, list(rows))


_TABLE = cast(Table, CrawlUrl.__table__)
_BY_ID = _TABLE.c.id == bindparam("row_id")
_TIMES: dict[str, Any] = {name: bindparam(name) for name in ("fetched_at", "interval", "due_at")}
# A stored page's fetch; a 304's; another outcome's; a URL that redirected.
_STORED = (
    update(_TABLE)
    .where(_BY_ID)
    .values(
        state=UrlState.STORED,
        reason=None,
        page_id=bindparam("page_id"),
        etag=bindparam("etag"),
        last_modified=bindparam("last_modified"),
        html_hash=bindparam("html_hash"),
        fetches=_TABLE.c.fetches + 1,
        changes=_TABLE.c.changes + bindparam("changed"),
        **_TIMES,
    )
)
_CHECKED = update(_TABLE).where(_BY_ID).values(fetches=_TABLE.c.fetches + 1, **_TIMES)
_SETTLED = (
    update(_TABLE)
    .where(_BY_ID)
    .values(
        state=bindparam("state"),
        reason=bindparam("reason"),
        target_id=bindparam("target_id"),
        fetches=_TABLE.c.fetches + 1,
        **_TIMES,
    )
)
_REDIRECTED = update(_TABLE).where(_BY_ID).values(state=UrlState.REDIRECTED, target_id=bindparam("target_id"))
