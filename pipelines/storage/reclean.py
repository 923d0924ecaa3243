"""Re-cleaning: a cluster's model revises each of its stored pages; noise text goes.

The model is the cluster's, learned by this process from exactly the pages stored, or else rebuilt from
the database: what several crawler processes stored (and earlier crawls) all counts, and the result
depends only on the stored pages, so re-cleaning again gives the same labels. Each block starts again
from its single-page decision (the page's model state, `pipelines.storage.model_state`), the cluster's
model revises it (`extraction.site_models.SiteModel`), and the pages whose codes change are rewritten,
with their clean-text size and hash, the content counts and the search index. Rules are compared, not
sentences: a decision that only changed its figures ("on 40 of 45 pages" now "on 480 of 526") is the same.

A block can turn content only while its text is known: inline, in the dictionary, or kept apart while the
crawl runs (`pending_texts`); a block whose noise text an earlier crawl forgot stays noise. A content block
held inline that turns noise moves to the dictionary, its text kept apart like any noise text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from extraction import Block, text_hash
from extraction.site_models import BlockKey, SiteModel, SiteModelConfig, similarity
from pipelines.storage.codec import (
    CODE_BITS,
    CONTENT_BIT,
    Element,
    block_code,
    decode_state,
    element_code,
    hash_to_int,
    inline,
    inline_hash,
    inline_text,
    int_to_hash,
    recoded,
    unpack_signature,
)
from pipelines.storage.content import CHUNK, apply_content_deltas, content_deltas, keep_pending_texts
from pipelines.storage.model_state import StatePlaces
from pipelines.storage.models import Block as BlockRow
from pipelines.storage.models import Cluster as ClusterRow
from pipelines.storage.models import Page, PageModel, PendingText
from pipelines.storage.search_index import TextChange, index_pages

# Pages read and revised at a time: memory holds the model and a few pages, not the cluster.
_PAGES_PER_READ = 200
# A cluster whose model is rebuilt at a re-clean is revised from the pages read to rebuild it when it has
# at most this many: reading and decoding stored pages is over half of a closing re-clean (py-spy on the
# PostgreSQL manual); memory holds that many pages for the time of one cluster's re-clean.
_PAGES_HELD = 1_000


@dataclass(slots=True)
class RecleanSummary:
    """What re-cleaning did: pages revised, pages whose clean text changed (a block relabelled), blocks
    relabelled; models rebuilt from the store, clusters revised with another's model, and noise texts
    forgotten."""

    pages: int = 0
    pages_changed: int = 0
    blocks_relabelled: int = 0
    models_rebuilt: int = 0
    models_borrowed: int = 0
    purged: int = 0

    def add(self, other: RecleanSummary) -> None:
        """Add another summary's counts to this one."""
        self.pages += other.pages
        self.pages_changed += other.pages_changed
        self.blocks_relabelled += other.blocks_relabelled
        self.models_rebuilt += other.models_rebuilt
        self.models_borrowed += other.models_borrowed
        self.purged += other.purged


@dataclass(slots=True)
class _StoredPage:
    """A stored page as re-cleaning reads it: its elements, each block's text hash and text (None: not
    known), and its blocks and keys as the model takes them."""

    id: int
    title: str
    elements: list[Element]
    hashes: list[str]
    texts: list[str | None]
    blocks: list[Block] = field(default_factory=list)
    keys: list[BlockKey] = field(default_factory=list)


def reclean_cluster(
    session: Session,
    cluster_id: int,
    config: SiteModelConfig,
    model: SiteModel | None = None,
    pages: Sequence[_StoredPage] | None = None,
) -> RecleanSummary:
    """Revise the labels of every stored page of the cluster with its model, in place.

    `model` is the cluster's model when the caller holds one that has seen exactly the stored pages
    (`stored_urls`); otherwise it is rebuilt from them. `pages` are the cluster's stored pages when the
    caller read them already (`Rebuilt.pages`); otherwise they are read a few at a time, and the changed
    ones written at the end, so memory holds the model and the changes, not the pages.
    """
    if model is None:
        model, pages = rebuilt(session, cluster_id, config)
    changes = _Changes()
    for page in pages if pages is not None else _stored_pages(session, cluster_id):
        if model.ready:
            model.apply(page.blocks, page.title, page.keys)
        changes.add(page)
    changes.write(session)
    return changes.summary


class Rebuilt(NamedTuple):
    """A cluster's model rebuilt from its stored pages, and those pages as read for it when there are at
    most `_PAGES_HELD` (None: more), for a re-clean to revise without reading them again."""

    model: SiteModel
    pages: list[_StoredPage] | None


def rebuilt(session: Session, cluster_id: int, config: SiteModelConfig) -> Rebuilt:
    """The cluster's model learned from its stored pages, as single-page extraction labelled them (learning
    leaves the pages as they are), and the pages when few enough to hold."""
    model = SiteModel(config)
    held: list[_StoredPage] | None = []
    for page in _stored_pages(session, cluster_id):
        model.observe(page.blocks, page.keys)
        if held is not None:
            held.append(page)
            if len(held) > _PAGES_HELD:
                held = None  # too many to hold: the re-clean reads them again, a few at a time
    return Rebuilt(model, held)


def rebuilt_model(session: Session, cluster_id: int, config: SiteModelConfig) -> SiteModel:
    """The cluster's model learned from its stored pages (`rebuilt`)."""
    return rebuilt(session, cluster_id, config).model


def donor_cluster(
    session: Session, cluster_id: int, config: SiteModelConfig
) -> tuple[int, str, float] | None:
    """The cluster whose model revises the pages of one with too few for a model of its own: of its site's
    clusters with at least `min_pages` pages, the most similar by representative (`borrow_threshold`), as
    (id, name, similarity); None when none is similar enough. Ties go to the larger, then the older."""
    if not config.borrow_threshold:
        return None
    site_id, packed = session.execute(
        select(ClusterRow.site_id, ClusterRow.representative).where(ClusterRow.id == cluster_id)
    ).one()
    if not packed:
        return None
    own = unpack_signature(packed)
    query = select(ClusterRow.id, ClusterRow.name, ClusterRow.page_count, ClusterRow.representative).where(
        ClusterRow.site_id == site_id, ClusterRow.id != cluster_id, ClusterRow.page_count >= config.min_pages
    )
    scored = [
        (similarity(own, unpack_signature(representative)), pages, -donor, donor, name)
        for donor, name, pages, representative in session.execute(query)
        if representative
    ]
    best = max(scored, default=None)
    if best is None or best[0] < config.borrow_threshold:
        return None
    return best[3], best[4], best[0]


def stored_urls(session: Session, cluster_id: int) -> set[str]:
    """The URLs of the cluster's stored pages that its model can revise (those with a model state)."""
    query = select(Page.url).join(PageModel, PageModel.page_id == Page.id)
    query = query.where(PageModel.cluster_id == cluster_id)
    return set(session.scalars(query))


def purge_noise_text(session: Session) -> int:
    """Forget the text of every block that no stored page holds as content (those waiting apart, and those
    whose pages dropped them); return how many."""
    pending = session.execute(delete(PendingText), execution_options={"synchronize_session": False})
    dropped = session.execute(
        update(BlockRow).where(BlockRow.text.is_not(None), BlockRow.content_pages == 0).values(text=None),
        execution_options={"synchronize_session": False},
    )
    return sum(int(getattr(result, "rowcount", 0) or 0) for result in (pending, dropped))


def _stored_pages(session: Session, cluster_id: int) -> Iterator[_StoredPage]:
    """The cluster's pages with a model state, a few at a time, each block as single-page extraction
    labelled it, with its text when known."""
    places = StatePlaces.of(session, cluster_id)
    query = (
        select(Page.id, Page.title, Page.blocks, PageModel.state)
        .join(PageModel, PageModel.page_id == Page.id)
        .where(PageModel.cluster_id == cluster_id)
        .order_by(Page.id)
        .execution_options(yield_per=_PAGES_PER_READ)
    )
    batch: list[tuple[Any, ...]] = []
    for row in session.execute(query):
        batch.append(tuple(row))
        if len(batch) == _PAGES_PER_READ:
            yield from _pages(session, places, batch)
            batch = []
    yield from _pages(session, places, batch)


def _pages(session: Session, places: StatePlaces, rows: Sequence[tuple[Any, ...]]) -> Iterator[_StoredPage]:
    if not rows:
        return
    refs: set[int] = set()
    noise: set[int] = set()
    for _, _, elements, _ in rows:
        for value in elements:
            if isinstance(value, str):
                digest = inline_hash(value)
                if digest is not None:
                    noise.add(hash_to_int(digest))
            else:
                refs.add(value >> CODE_BITS)
    dictionary, pending = _dictionary(session, refs), _pending(session, noise)
    for page_id, title, elements, state in rows:
        page = _stored_page(page_id, title, elements, dictionary, pending)
        texts = [text or "" for text in page.texts]
        page.blocks, page.keys = places.blocks(decode_state(state), page.hashes, texts)
        yield page


def _stored_page(
    page_id: int,
    title: str,
    elements: Sequence[Element],
    dictionary: Mapping[int, tuple[str, str | None]],
    pending: Mapping[int, str],
) -> _StoredPage:
    hashes: list[str] = []
    texts: list[str | None] = []
    for value in elements:
        if isinstance(value, str):
            own, digest = inline_text(value), inline_hash(value)
            if digest is None:
                digest = text_hash(own or "")
            else:
                own = pending.get(hash_to_int(digest))
        else:
            digest, own = dictionary[value >> CODE_BITS]
        hashes.append(digest)
        texts.append(own)
    return _StoredPage(page_id, title, list(elements), hashes, texts)


def _dictionary(session: Session, ids: set[int]) -> dict[int, tuple[str, str | None]]:
    """The hash (hex) and text of dictionary blocks: their own, or the noise text kept apart."""
    found: dict[int, tuple[str, str | None]] = {}
    ordered = sorted(ids)
    for start in range(0, len(ordered), CHUNK):
        query = (
            select(BlockRow.id, BlockRow.hash, func.coalesce(BlockRow.text, PendingText.text))
            .outerjoin(PendingText, PendingText.hash == BlockRow.hash)
            .where(BlockRow.id.in_(ordered[start : start + CHUNK]))
        )
        for block_id, value, text in session.execute(query):
            found[block_id] = (int_to_hash(value), text)
    return found


def _pending(session: Session, hashes: set[int]) -> dict[int, str]:
    """The noise texts kept apart for these hashes."""
    found: dict[int, str] = {}
    ordered = sorted(hashes)
    for start in range(0, len(ordered), CHUNK):
        query = select(PendingText.hash, PendingText.text).where(
            PendingText.hash.in_(ordered[start : start + CHUNK])
        )
        found.update(session.execute(query).all())
    return found


@dataclass(frozen=True, slots=True)
class _Change:
    """A page re-cleaning rewrites: its elements, and its clean text before and after (None: unchanged)."""

    elements: list[Element]
    texts: TextChange | None


@dataclass(slots=True)
class _Changes:
    """The pages re-cleaning changes, gathered page by page and written at once."""

    summary: RecleanSummary = field(default_factory=RecleanSummary)
    pages: dict[int, _Change] = field(default_factory=dict)
    deltas: Counter[int] = field(default_factory=Counter)
    # Inline content blocks turned noise: their text by hash, kept apart for a later re-clean.
    set_aside: dict[int, str] = field(default_factory=dict)

    def add(self, page: _StoredPage) -> None:
        """Note the page when a block's label or rule changed, and the content counts it moves."""
        self.summary.pages += 1
        old = [element_code(value) for value in page.elements]
        revised = zip(page.blocks, old, page.texts, strict=True)
        new = [_revised(block, before, text) for block, before, text in revised]
        if new == old:
            return
        elements = [
            _recoded(value, after, text, digest)
            for value, after, text, digest in zip(page.elements, new, page.texts, page.hashes, strict=True)
        ]
        for value, after in zip(page.elements, new, strict=True):
            text = inline_text(value) if isinstance(value, str) else None
            if text is not None and not after & CONTENT_BIT:
                self.set_aside[hash_to_int(text_hash(text))] = text
        relabelled = sum((after ^ before) & CONTENT_BIT != 0 for before, after in zip(old, new, strict=True))
        texts = None
        if relabelled:
            self.summary.pages_changed += 1
            self.summary.blocks_relabelled += relabelled
            texts = (_clean_text(page.texts, old), _clean_text(page.texts, new))
            self.deltas.update(content_deltas(_refs(page.elements, old), _refs(page.elements, new)))
        self.pages[page.id] = _Change(elements, texts)

    def write(self, session: Session) -> None:
        """Rewrite the changed pages' blocks and, where their clean text changed, its size and hash; move
        the content counts and the search index."""
        if not self.pages:
            return
        keep_pending_texts(session, self.set_aside)
        blocks = [{"id": page_id, "blocks": change.elements} for page_id, change in self.pages.items()]
        session.execute(update(Page), blocks)
        texts = {page_id: change.texts for page_id, change in self.pages.items() if change.texts is not None}
        sizes = [_clean_text_row(page_id, new or "") for page_id, (_, new) in texts.items()]
        if sizes:
            session.execute(update(Page), sizes)
        apply_content_deltas(session, self.deltas)
        index_pages(session, texts)


def _revised(block: Block, before: int, text: str | None) -> int:
    """A block's code as the model revised it; a block whose text is not known cannot turn content."""
    after = block_code(block)
    if after & CONTENT_BIT and not before & CONTENT_BIT and not text:
        return before
    return after


def _recoded(value: Element, after: int, text: str | None, digest: str) -> Element:
    """An element with its revised code: an inline block that changes label is written anew (its text if
    it turned content, its hash if it turned noise)."""
    if isinstance(value, str) and bool(element_code(value) & CONTENT_BIT) != bool(after & CONTENT_BIT):
        return inline(after, text or "", digest)
    return recoded(value, after)


def _refs(elements: Sequence[Element], codes: Sequence[int]) -> list[int]:
    """The dictionary blocks the elements refer to as content, under `codes`."""
    return [
        value >> CODE_BITS
        for value, block_code in zip(elements, codes, strict=True)
        if block_code & CONTENT_BIT and not isinstance(value, str)
    ]


def _clean_text(texts: Sequence[str | None], codes: Sequence[int]) -> str:
    """A page's clean text: its content blocks' texts in order, one per line."""
    return "\n".join(text or "" for text, code in zip(texts, codes, strict=True) if code & CONTENT_BIT)


def _clean_text_row(page_id: int, text: str) -> dict[str, Any]:
    size = len(text.encode("utf-8"))
    return {"id": page_id, "stored_bytes": size, "content_hash": hash_to_int(text_hash(text))}
