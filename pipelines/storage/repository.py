"""Batched upserts of crawled pages: page rows with their blocks in order, the search index in step, and the
site models' state of each page.

Where a block's text goes (`pipelines.storage.codec`):
- a content block that only this page holds is written in the page's array, inline;
- a content block that another page holds too, and every noise block, goes to the block dictionary once,
  and the page refers to it. A content block first stored inline moves to the dictionary when a second page
  brings it (the first page then refers to it too): text repeated across pages is kept once. It moves only
  when its text is the very same (two texts that differ in spacing share a hash, not a row);
- noise text is kept only when asked (`pending_texts`), until the crawl's last re-clean.

Everything runs in the caller's transaction (`with sessions.begin() as session: store_pages(session, pages)`),
so a batch is stored whole or not at all, and a page never without its blocks. Each step is one statement
per batch (executemany) or per chunk of ids, whatever the batch size, so the cost per page stays small.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.orm import Session

from extraction import text_hash
from pipelines.storage.codec import (
    CONTENT,
    CONTENT_BIT,
    Element,
    code,
    element_block,
    element_code,
    hash_to_int,
    inline,
    inline_hash,
    inline_text,
    reference,
)
from pipelines.storage.content import CHUNK, apply_content_deltas, content_deltas, keep_pending_texts
from pipelines.storage.dialect import insert_for, is_postgresql
from pipelines.storage.history import StoredVersion, content_blocks, record_versions
from pipelines.storage.known import KnownBlock, KnownIds
from pipelines.storage.model_state import write_states
from pipelines.storage.models import Block, Cluster, Page, Site, clean_pages
from pipelines.storage.novelty import moved_only
from pipelines.storage.search_index import TextChange, index_pages
from pipelines.storage.signatures import signature_ids
from records import BlockRecord, PageRecord


@dataclass(slots=True)
class BatchSummary:
    """What one batch did: pages inserted, pages whose blocks were replaced, pages only refreshed; pages
    whose informative content changed (a new version), and the id of every page of the batch."""

    new: int = 0
    changed: int = 0
    unchanged: int = 0
    versions: int = 0
    page_ids: dict[str, int] = field(default_factory=dict)
    # The URLs of the stored pages whose clean text this batch changed with something new to the store
    # (`pipelines.storage.novelty`): their informative change, for their revisits.
    revised: set[str] = field(default_factory=set)

    def add(self, other: BatchSummary) -> None:
        """Add another batch's counts and ids to this one."""
        self.new += other.new
        self.changed += other.changed
        self.unchanged += other.unchanged
        self.versions += other.versions
        self.page_ids.update(other.page_ids)
        self.revised |= other.revised


@dataclass(frozen=True, slots=True)
class _StoredPage:
    id: int
    cluster_id: int | None
    fingerprint: int
    elements: list[Element]
    content_hash: int
    fetched_at: datetime


def store_pages(
    session: Session,
    records: Iterable[PageRecord],
    keep_noise_text: bool = False,
    model_state: bool = False,
    known: KnownIds | None = None,
) -> BatchSummary:
    """Upsert a batch of pages and their blocks in the session's transaction; report what changed.

    `keep_noise_text` keeps the text of noise blocks too, until a cluster's model has re-cleaned the page
    (`pipelines.storage.reclean`); without it only content text is stored. `model_state` writes each
    page's site-model state (`pipelines.storage.model_state`) so that its cluster can be re-cleaned.
    `known` holds what the caller's earlier batches learned; it learns this batch's, to be committed
    with the transaction (`KnownIds.commit`).
    """
    pages = {record.url: record for record in records}  # a URL fetched twice in one batch: the last wins
    if not pages:
        return BatchSummary()
    known = known if known is not None else KnownIds()
    _lock_urls(session, pages)
    rows = _page_rows(session, pages)
    stored = _stored_pages(session, list(pages))
    replaced = {url for url, page in stored.items() if _replaces(page, rows[url])}
    written = [url for url in pages if url not in stored or url in replaced]
    revisions = _versions(stored, replaced, rows, pages)
    # The stored versions' content, read once for both uses, before the batch writes its own blocks.
    stored_blocks = content_blocks(session, [old for old, _ in revisions])
    moved = moved_only(session, revisions, stored_blocks)
    layout = _Layout.of(session, [pages[url] for url in written], keep_noise_text, known)
    old_texts = _clean_texts(session, [stored[url].id for url in replaced])
    page_ids = _upsert_pages(session, rows, layout.elements, stored, replaced)
    deltas = layout.content_deltas(page_ids, stored)
    deltas.update(_refer_to_moved_blocks(session, layout, known, set(page_ids.values())))
    apply_content_deltas(session, deltas, layout.shared_texts)
    changes: dict[int, TextChange] = {}
    for url in written:
        page_id = page_ids[url]
        changes[page_id] = (old_texts.get(page_id) if url in replaced else None, pages[url].content_text)
    index_pages(session, changes)
    inline: dict[int, list[int]] = defaultdict(list)
    for url, values in layout.inline.items():
        for value in values:
            inline[value].append(page_ids[url])
    known.learn_inline(inline)
    if model_state:
        _write_states(session, {page_ids[url]: pages[url] for url in written}, rows, known)
    refresh_page_counts(session, {row["cluster_id"] for row in rows.values()} | _clusters(stored))
    versions = record_versions(session, revisions, stored_blocks)
    changed = len(replaced)
    new, unchanged = len(written) - changed, len(stored) - changed
    revised = {page.url for old, page in revisions if old.page_id not in moved}
    return BatchSummary(new, changed, unchanged, versions, page_ids, revised)


def _versions(
    stored: Mapping[str, _StoredPage],
    replaced: set[str],
    rows: Mapping[str, dict[str, Any]],
    pages: Mapping[str, PageRecord],
) -> list[tuple[StoredVersion, PageRecord]]:
    """The stored pages whose clean text the batch changes, as stored and as fetched."""
    return [
        (StoredVersion(page.id, page.elements, page.content_hash, page.fetched_at), pages[url])
        for url, page in stored.items()
        if url in replaced and page.content_hash != rows[url]["content_hash"]
    ]


def cluster_ids(session: Session, clusters: Iterable[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """The ids of the stored clusters named by (site host, cluster name) pairs, in id order."""
    wanted = set(clusters)
    if not wanted:
        return {}
    rows = session.execute(
        select(Site.host, Cluster.name, Cluster.id)
        .join(Site, Site.id == Cluster.site_id)
        .where(Site.host.in_({host for host, _ in wanted}))
        .where(Cluster.name.in_({name for _, name in wanted}))
        .order_by(Cluster.id)
    )
    return {(host, name): cluster_id for host, name, cluster_id in rows if (host, name) in wanted}


def site_ids(session: Session, hosts: set[str]) -> dict[str, int]:
    """The ids of the sites of `hosts`, added when new."""
    # Sorted rows take row locks in one order in every process, so concurrent batches cannot deadlock.
    rows = [{"host": host} for host in sorted(hosts)]
    session.execute(insert_for(session, Site).on_conflict_do_nothing(index_elements=["host"]), rows)
    found = session.execute(select(Site.host, Site.id).where(Site.host.in_(hosts)))
    return dict(found.all())


def exact_hash(text: str) -> int:
    """A 64-bit hash of a text as it is (spacing included): a dictionary block is shared only by the very
    same text."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big", signed=True)


def fingerprint(page: PageRecord) -> int:
    """The hash of a page's blocks as extracted: their text hashes and single-page decisions."""
    digest = hashlib.blake2b(digest_size=8)
    for block in page.blocks:
        digest.update(f"{block.hash}{block.page_label or block.label}{block.page_rule},".encode())
    return int.from_bytes(digest.digest(), "big", signed=True)


@dataclass(slots=True)
class _Layout:
    """Where each block of a batch's written pages goes: its elements by URL, the content blocks each page
    refers to and their texts, the hashes each page keeps inline, and the blocks that moved to the
    dictionary (hash -> id) whose first page, stored by an earlier batch, must refer to them too."""

    elements: dict[str, list[Element]] = field(default_factory=dict)
    content_refs: dict[str, set[int]] = field(default_factory=dict)
    shared_texts: dict[int, str] = field(default_factory=dict)
    inline: dict[str, list[int]] = field(default_factory=dict)
    moved: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(
        cls, session: Session, pages: Sequence[PageRecord], keep_noise_text: bool, known: KnownIds
    ) -> _Layout:
        """Decide every block's place, adding the dictionary blocks the batch needs."""
        blocks = _dictionary_blocks(session, pages, known)
        layout = cls()
        for page in pages:
            layout._place(page, blocks)
        layout.moved = {value: block.id for value, block in blocks.items() if known.inline_pages(value)}
        if keep_noise_text:
            _keep_noise_texts(session, pages)
        return layout

    def _place(self, page: PageRecord, blocks: Mapping[int, KnownBlock]) -> None:
        elements: list[Element] = []
        inline_hashes: list[int] = []
        refs: set[int] = set()
        for block in page.blocks:
            value, block_code = hash_to_int(block.hash), code(block.label, block.rule)
            shared = blocks.get(value)
            if shared is not None and _same_text(shared, block):
                elements.append(reference(shared.id, block_code))
                if block_code & CONTENT_BIT:
                    refs.add(shared.id)
                    self.shared_texts[shared.id] = block.text
            else:
                elements.append(inline(block_code, block.text, block.hash))
                inline_hashes.append(value)
        self.elements[page.url] = elements
        self.inline[page.url] = inline_hashes
        self.content_refs[page.url] = refs

    def content_deltas(self, page_ids: Mapping[str, int], stored: Mapping[str, _StoredPage]) -> Counter[int]:
        """How the written pages move the dictionary blocks' content counts."""
        deltas: Counter[int] = Counter()
        for url, refs in self.content_refs.items():
            before = _content_refs(stored[url].elements) if url in stored else []
            deltas.update(content_deltas(before, refs))
        return deltas


def _same_text(shared: KnownBlock, block: BlockRecord) -> bool:
    """Whether a block may refer to its dictionary entry: a noise block always (only its hash is kept), a
    content block when the entry holds no text or the very same."""
    return block.label != CONTENT or shared.text_hash in (0, exact_hash(block.text))


def _dictionary_blocks(
    session: Session, pages: Sequence[PageRecord], known: KnownIds
) -> dict[int, KnownBlock]:
    """The dictionary blocks the pages need, by hash: those the dictionary holds already, and those that
    enough pages hold (of the batch, and stored inline before) to be smaller there (`_worth_sharing`),
    added when new, the most frequent first (a small id is a short reference)."""
    pages_of: Counter[int] = Counter()
    texts: dict[int, str] = {}
    for page in pages:
        for value, text in _page_blocks(page).items():
            pages_of[value] += 1
            if text is not None:
                texts.setdefault(value, text)
    found = _look_up(session, set(pages_of), known)
    wanted = [
        value
        for value, count in pages_of.most_common()
        if value not in found and _worth_sharing(count + len(known.inline_pages(value)), texts.get(value))
    ]
    found |= _insert_blocks(session, [(value, texts.get(value)) for value in wanted])
    known.learn_blocks(found)
    return found


# What a block costs, about, in bytes: a dictionary entry beyond its text or hash (its row and its index
# entry), a reference to it in a page (the id and code in digits, a comma), and an inline block beyond its
# text or 16-digit hash (its code character, quotes and a comma).
_ENTRY_BYTES, _REFERENCE_BYTES, _INLINE_BYTES = 30, 7, 4


def _worth_sharing(pages: int, text: str | None) -> bool:
    """Whether a block held by `pages` pages is smaller once in the dictionary than inline in each (a
    content block with its `text`, a noise block with its hash only)."""
    own = len(text.encode("utf-8")) if text is not None else 16
    entry = _ENTRY_BYTES + (own if text is not None else 8)
    return pages > 1 and pages * (own + _INLINE_BYTES) > entry + pages * _REFERENCE_BYTES


def _page_blocks(page: PageRecord) -> dict[int, str | None]:
    """A page's distinct block hashes, each with its text when the page holds it as content."""
    blocks: dict[int, str | None] = {}
    for block in page.blocks:
        value = hash_to_int(block.hash)
        if block.label == CONTENT:
            blocks[value] = block.text
        else:
            blocks.setdefault(value, None)
    return blocks


def _look_up(session: Session, values: set[int], known: KnownIds) -> dict[int, KnownBlock]:
    """The dictionary blocks of `values` that exist: known, or read."""
    found: dict[int, KnownBlock] = {}
    unknown: list[int] = []
    for value in values:
        block = known.block(value)
        if block is None:
            unknown.append(value)
        else:
            found[value] = block
    return found | _read_blocks(session, unknown)


def _read_blocks(session: Session, values: Sequence[int]) -> dict[int, KnownBlock]:
    found: dict[int, KnownBlock] = {}
    for start in range(0, len(values), CHUNK):
        query = select(Block.hash, Block.id, Block.text).where(Block.hash.in_(values[start : start + CHUNK]))
        for value, block_id, text in session.execute(query):
            found[value] = KnownBlock(block_id, exact_hash(text) if text is not None else 0)
    return found


def _insert_blocks(session: Session, rows: Sequence[tuple[int, str | None]]) -> dict[int, KnownBlock]:
    """Add dictionary blocks in this order (a hash another process added meanwhile is kept as it is); each
    one's id."""
    if not rows:
        return {}
    stmt = insert_for(session, Block).on_conflict_do_nothing(index_elements=["hash"])
    session.connection().execute(stmt, [{"hash": value, "text": text} for value, text in rows])
    return _read_blocks(session, [value for value, _ in rows])


def _keep_noise_texts(session: Session, pages: Sequence[PageRecord]) -> None:
    """Keep the text of noise blocks apart (`pending_texts`, by hash), for a re-clean to restore."""
    texts: dict[int, str] = {}
    for page in pages:
        for block in page.blocks:
            if block.label != CONTENT and block.text:
                texts.setdefault(hash_to_int(block.hash), block.text)
    keep_pending_texts(session, texts)


def _refer_to_moved_blocks(
    session: Session, layout: _Layout, known: KnownIds, written: set[int]
) -> Counter[int]:
    """Make the pages of earlier batches that hold a moved block inline refer to the dictionary instead;
    the content counts this moves."""
    by_page: dict[int, dict[int, int]] = defaultdict(dict)
    for value, block_id in layout.moved.items():
        for page_id in known.inline_pages(value):
            if page_id not in written:
                by_page[page_id][value] = block_id
    known.forget_inline(layout.moved)
    deltas: Counter[int] = Counter()
    updates = []
    query = select(Page.id, Page.blocks).where(Page.id.in_(sorted(by_page)))
    for page_id, elements in session.execute(query):
        referred = [_referring(value, by_page[page_id], layout.shared_texts) for value in elements]
        if referred != elements:
            updates.append({"id": page_id, "blocks": referred})
            deltas.update(content_deltas(_content_refs(elements), _content_refs(referred)))
    if updates:
        session.execute(update(Page), updates)
    return deltas


def _referring(value: Element, moved: Mapping[int, int], texts: Mapping[int, str]) -> Element:
    """An inline element that moved (by hash; a content block with the very same text) as a reference."""
    if not isinstance(value, str):
        return value
    text, digest = inline_text(value), inline_hash(value)
    block_id = moved.get(hash_to_int(digest if digest is not None else text_hash(text or "")))
    if block_id is None or (text is not None and texts.get(block_id) != text):
        return value
    return reference(block_id, element_code(value))


def _content_refs(elements: Iterable[Element]) -> list[int]:
    """The dictionary blocks a page's elements refer to as content."""
    return [
        block_id
        for value in elements
        if not isinstance(value, str) and element_code(value) & CONTENT_BIT
        for block_id in [element_block(value)]
        if block_id is not None
    ]


def _clean_texts(session: Session, page_ids: Sequence[int]) -> dict[int, str]:
    """The clean text of stored pages, as `clean_pages` gives it."""
    texts: dict[int, str] = {}
    for start in range(0, len(page_ids), CHUNK):
        chunk = page_ids[start : start + CHUNK]
        query = select(clean_pages.c.page_id, clean_pages.c.text).where(clean_pages.c.page_id.in_(chunk))
        texts.update(session.execute(query).all())
    return texts


def _page_rows(session: Session, pages: Mapping[str, PageRecord]) -> dict[str, dict[str, Any]]:
    sites = site_ids(session, {page.site for page in pages.values()})
    wanted = {(sites[page.site], page.cluster) for page in pages.values() if page.cluster}
    clusters = added_cluster_ids(session, wanted)
    return {url: _page_row(page, sites, clusters) for url, page in pages.items()}


def _page_row(
    page: PageRecord, sites: Mapping[str, int], clusters: Mapping[tuple[int, str], int]
) -> dict[str, Any]:
    site_id = sites[page.site]
    clean_text = page.content_text
    return {
        "url": page.url,
        "status": page.status,
        "fetched_at": _utc(page.fetched_at),
        "title": page.title,
        "site_id": site_id,
        "cluster_id": clusters.get((site_id, page.cluster)),
        "raw_html_bytes": page.raw_html_bytes,
        "visible_text_bytes": page.visible_text_bytes,
        "stored_bytes": len(clean_text.encode("utf-8")),
        "content_hash": hash_to_int(page.content_hash or text_hash(clean_text)),
        "fingerprint": fingerprint(page),
        "relevance": page.relevance,
    }


def _utc(moment: datetime) -> datetime:
    # Stored in UTC: SQLite keeps no offset, so a naive time is taken as UTC and an aware one converted.
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def added_cluster_ids(session: Session, wanted: set[tuple[int, str]]) -> dict[tuple[int, str], int]:
    """The ids of clusters named by (site id, name) pairs, the rows of those not stored yet added."""
    if not wanted:
        return {}
    rows = [{"site_id": site_id, "name": name, "page_count": 0} for site_id, name in sorted(wanted)]
    stmt = insert_for(session, Cluster).on_conflict_do_nothing(index_elements=["site_id", "name"])
    session.execute(stmt, rows)
    found = session.execute(
        select(Cluster.site_id, Cluster.name, Cluster.id).where(
            Cluster.site_id.in_({site_id for site_id, _ in wanted}),
            Cluster.name.in_({name for _, name in wanted}),
        )
    )
    return {(site_id, name): cluster_id for site_id, name, cluster_id in found}


def _lock_urls(session: Session, urls: Iterable[str]) -> None:
    """PostgreSQL: hold a lock on each URL until the transaction ends, taken before the stored pages are
    read. Two processes storing one new URL would otherwise both find it missing and both insert it, and
    the second would fail on the unique URL; this way the second waits, then finds it stored and updates
    it. Keys in sorted order, so that two batches cannot deadlock; per schema, as the stores are. (SQLite's
    writers take the whole file's lock as they begin: `pipelines.storage.db`.)"""
    if not is_postgresql(session):
        return
    schema = func.hashtext(func.current_schema())
    for key in sorted({_url_key(url) for url in urls}):
        session.execute(select(func.pg_advisory_xact_lock(schema, key)))


def _url_key(url: str) -> int:
    """A 32-bit key of a URL for `pg_advisory_xact_lock` (two URLs sharing one only wait for each other)."""
    return int.from_bytes(hashlib.blake2b(url.encode("utf-8"), digest_size=4).digest(), "big", signed=True)


def _stored_pages(session: Session, urls: Sequence[str]) -> dict[str, _StoredPage]:
    columns = (Page.url, Page.id, Page.cluster_id, Page.fingerprint, Page.blocks, Page.content_hash)
    query = select(*columns, Page.fetched_at).where(Page.url.in_(urls))
    return {
        url: _StoredPage(page_id, cluster_id, value, list(elements), content, fetched_at)
        for url, page_id, cluster_id, value, elements, content, fetched_at in session.execute(query)
    }


def _replaces(stored: _StoredPage, row: Mapping[str, Any]) -> bool:
    """True when the new fetch changes the page's blocks, its single-page decisions or its cluster (else
    only its row is refreshed, and the labels a cluster's model gave it stand)."""
    return bool(stored.cluster_id != row["cluster_id"] or stored.fingerprint != row["fingerprint"])


def _upsert_pages(
    session: Session,
    rows: Mapping[str, dict[str, Any]],
    elements: Mapping[str, list[Element]],
    stored: Mapping[str, _StoredPage],
    replaced: set[str],
) -> dict[str, int]:
    """Update the rows of stored pages, insert the new ones; return the id of every page of the batch.

    A stored page that did not change keeps its blocks and clean text as stored (its labels may be a
    cluster model's): only what the fetch says of it is refreshed.
    """
    updates = [
        (rows[url] | {"blocks": elements[url]} if url in replaced else _refreshed(rows[url]))
        | {"id": page.id}
        for url, page in stored.items()
    ]
    if updates:
        session.execute(update(Page), updates)
    page_ids = {url: page.id for url, page in stored.items()}
    new_rows = [row | {"blocks": elements[url]} for url, row in rows.items() if url not in stored]
    if new_rows:
        stmt = insert(Page).returning(Page.url, Page.id, sort_by_parameter_order=True)
        page_ids.update(session.execute(stmt, new_rows).all())
    return page_ids


def _refreshed(row: Mapping[str, Any]) -> dict[str, Any]:
    # The columns of an unchanged page that a new fetch refreshes.
    return {
        name: row[name]
        for name in ("status", "fetched_at", "title", "raw_html_bytes", "visible_text_bytes", "relevance")
    }


def _write_states(
    session: Session, pages: Mapping[int, PageRecord], rows: Mapping[str, dict[str, Any]], known: KnownIds
) -> None:
    by_cluster: dict[int, dict[int, Sequence[BlockRecord]]] = defaultdict(dict)
    by_site: dict[int, dict[int, frozenset[int]]] = defaultdict(dict)
    for page_id, page in pages.items():
        row = rows[page.url]
        if row["cluster_id"] is not None:
            by_cluster[row["cluster_id"]][page_id] = page.blocks
            by_site[row["site_id"]][page_id] = page.signature
    signatures: dict[int, int] = {}
    for site_id, signed in by_site.items():
        ids = signature_ids(session, site_id, set(signed.values()))
        signatures |= {page_id: ids[signature] for page_id, signature in signed.items()}
    for cluster_id, states in sorted(by_cluster.items()):
        write_states(session, cluster_id, states, known, signatures)


def _clusters(stored: Mapping[str, _StoredPage]) -> set[int | None]:
    return {page.cluster_id for page in stored.values()}


def refresh_page_counts(session: Session, cluster_ids: set[int | None]) -> None:
    """Count the stored pages of the clusters again (recounted rather than incremented: one statement a
    batch, and right even after manual edits)."""
    ids = {cluster_id for cluster_id in cluster_ids if cluster_id is not None}
    if not ids:
        return
    pages = select(func.count()).where(Page.cluster_id == Cluster.id).scalar_subquery()
    session.execute(
        update(Cluster).where(Cluster.id.in_(ids)).values(page_count=pages),
        execution_options={"synchronize_session": False},
    )
