"""An evolving news/blog site on a simulated clock: the site the recrawl benchmark revisits.

`EvolvingSite(seed, pages=300, start=START, days=30)` plans, from the seed alone, a site of `pages`
articles published over the year before `start` and its life over the next `days`:

- change classes: ~5% "hot" articles change with a mean interval of one day, ~15% "warm" ones every ten
  days on average, ~80% never (`EvolvingConfig.classes`); changes are a Poisson process (exponential gaps),
  and each one edits the informative content: a paragraph rewritten, added or removed (never the first
  one, which opens with the lede that listings show);
- new articles arrive as a Poisson process (`growth` × `pages` of them over the span, on average) and
  appear on the home page, their category's listing and the "Latest posts" box; a few articles
  (`removal`) are taken down at a random time and answer 404 or 410 from then on;
- validators: each article sends ``Last-Modified`` (the time of its last informative change), a weak
  ``ETag`` of its content version, both, or neither (`validators` shares); conditional GETs get 304 when
  the content is unchanged, ``If-None-Match`` taking precedence over ``If-Modified-Since`` (RFC 9110
  §13.2.2). Listing pages send both, derived from their informative text;
- every response changes its template, content or not: the "Latest posts" box (the newest articles at the
  simulated time), a "Trending now" box and an ad drawn per fetch, the date in the header, a view counter
  in the article's byline and a share counter under it, a CSRF token (a ``<meta>`` and a hidden input of
  the comment form) and a footer "Page generated at <time> in <s> s · visitor number <n>".

The simulated clock is `site.now` (settable; `site.advance(delta)`); every response is computed for it.
`serve_evolving(site)` serves the site over HTTP/1.1 from a thread of the calling process, so the clock
stays in the benchmark's process while a crawler runs in a subprocess; ``GET /__clock__`` reads the
simulated time (ISO 8601), ``POST /__clock__?at=ISO`` sets it and ``POST /__clock__?advance=SECONDS``
moves it. `site.respond(path, headers)` answers in-process, as the server does (and logs the same way).
Ground truth: `live_text(path, at)` (title and body, one line per block, or None when the page does not
exist then), `change_times(path)`, `paths_at(at)`, the fetch log `site.fetches` (time, path, status,
304 or not), `freshness(site, stored, span, step)`, and `stored_from_fetches(site)`, the copies a crawler
that stores every 200 holds according to the fetch log. `extraction.extract` leaves an article's ``h1``
out of `result.text` (it matches the page's ``<title>``, so it goes to `result.title`): compare its text
with `live_text` without the first line.

Pages: ``/`` and ``/page/N/`` (newest first), ``/category/NAME/`` and ``/category/NAME/page/N/``,
``/about/``, and articles at ``/YYYY/MM/DD/slug/``. Prose, categories and the inline CSS/JS come from
`benchmarks.sitegen`. Times are aware UTC datetimes (naive ones given to the API are taken as UTC), and
every scheduled time is a whole second, as HTTP dates are.

CLI: ``python -m benchmarks.evolving describe --seed 0 --pages 300`` prints the schedule's summary;
``python -m benchmarks.evolving serve --seed 0 --port 8000`` serves the site until interrupted.
"""

from __future__ import annotations

import argparse
import bisect
import functools
import hashlib
import random
import re
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime, parsedate_to_datetime
from enum import StrEnum
from http.server import BaseHTTPRequestHandler
from typing import TypeVar
from urllib.parse import parse_qs, urlsplit

from benchmarks.localserver import BurstServer, KeepAliveMixIn, running
from benchmarks.sitegen import (
    _SEARCH,
    _TAG_RE,
    CATEGORIES,
    SITE_NAME,
    TAGLINE,
    Prose,
    _authors,
    _date,
    _mix,
    _pools,
    _script,
    _style,
    _widget,
    slugify,
)

START = datetime(2024, 3, 1, tzinfo=UTC)
CLOCK_PATH = "/__clock__"
ABOUT_PATH = "/about/"
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_LISTING_RE = re.compile(r"^(?:/category/([a-z]+))?/(?:page/(\d+)/)?$")
_ADS = (
    ("Lumen Roasters", "Fresh coffee, roasted on Tuesdays. 20% off your first bag."),
    ("Northfold Outdoor", "Waterproofs that survive a real winter. Free returns."),
    ("Pagewise Books", "Second-hand books, sorted by people who read them."),
    ("Tidewater Insurance", "Cover for boats, bikes and sheds. Get a quote in two minutes."),
    ("Gridline Energy", "Switch to a fixed tariff before the spring price rise."),
    ("Harbourside Hotels", "Two nights by the sea, breakfast included, from 89 pounds."),
)
_T = TypeVar("_T")


# --- configuration ---------------------------------------------------------------------------------------


class Validators(StrEnum):
    """The cache validators an article sends, and so the conditional requests it honours."""

    LAST_MODIFIED = "last-modified"
    ETAG = "etag"
    BOTH = "both"
    NONE = "none"

    @property
    def etag(self) -> bool:
        """Sends a weak ETag and honours If-None-Match."""
        return self in (Validators.ETAG, Validators.BOTH)

    @property
    def last_modified(self) -> bool:
        """Sends Last-Modified and honours If-Modified-Since."""
        return self in (Validators.LAST_MODIFIED, Validators.BOTH)


class Edit(StrEnum):
    """What one informative change does to an article's body."""

    REWRITE = "rewrite"
    ADD = "add"
    REMOVE = "remove"


@dataclass(frozen=True, slots=True)
class ChangeClass:
    """A share of the articles that change with one mean interval (None: never)."""

    name: str
    share: float
    mean_interval: timedelta | None


DEFAULT_CLASSES = (
    ChangeClass("hot", 0.05, timedelta(days=1)),
    ChangeClass("warm", 0.15, timedelta(days=10)),
    ChangeClass("static", 0.80, None),
)
DEFAULT_VALIDATORS = (
    (Validators.LAST_MODIFIED, 0.35),
    (Validators.ETAG, 0.25),
    (Validators.BOTH, 0.15),
    (Validators.NONE, 0.25),
)


@dataclass(frozen=True, slots=True)
class EvolvingConfig:
    """How the site evolves, beyond its seed, size and span.

    The shares of `classes` and `validators` are exact quotas over the initial articles (largest
    remainders, then shuffled), and the weights of a random draw for the articles that arrive later.
    """

    classes: tuple[ChangeClass, ...] = DEFAULT_CLASSES
    validators: tuple[tuple[Validators, float], ...] = DEFAULT_VALIDATORS
    growth: float = 0.10  # mean number of new articles over the span, as a share of `pages`
    removal: float = 0.02  # chance that an article is taken down during the span
    gone_410: float = 0.5  # share of the taken-down articles that answer 410 (the others 404)
    edits: tuple[tuple[Edit, float], ...] = ((Edit.REWRITE, 0.5), (Edit.ADD, 0.3), (Edit.REMOVE, 0.2))
    history_days: int = 365  # the initial articles were published over this many days before `start`
    per_page: int = 10  # excerpts per listing page
    latest: int = 5  # articles in the "Latest posts" and "Trending now" boxes
    head_bytes: int = 6_000  # inline CSS + JS per page


# --- the plan --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EvolvingArticle:
    """One article's identity and schedule (its body is drawn, version by version, when asked for)."""

    index: int  # publication order: the initial articles oldest first, then the new ones as they arrive
    path: str
    title: str
    lede: str
    category: int
    author: int
    published: datetime
    removed: datetime | None  # from then on the article answers `gone_status`
    gone_status: int
    change_class: str
    validators: Validators
    changes: tuple[datetime, ...]  # the informative changes, strictly increasing, within the span
    new: bool  # published during the span (not there at its start)

    def alive(self, at: datetime) -> bool:
        """Published and not taken down at `at`."""
        return self.published <= at and (self.removed is None or at < self.removed)

    def version(self, at: datetime) -> int:
        """How many changes happened up to `at` (a change at `at` counts: the new text is live)."""
        return bisect.bisect_right(self.changes, at)


@dataclass(frozen=True, slots=True)
class _Block:
    """One block of an article body: its HTML and the lines of informative text it renders to."""

    tag: str
    html: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Version:
    """One version of an article's body."""

    blocks: tuple[_Block, ...]
    text: str  # title and body, one line per block: the informative content
    html: str  # the inner HTML of div.entry-content
    edit: Edit | None  # the edit that made it from the previous version (None for the first)


@dataclass(frozen=True, slots=True)
class _Listing:
    """The home page or a category: paginated excerpts of its articles, newest first."""

    heading: str
    description: str
    base: str
    category: int | None  # None: every article

    def page_path(self, number: int) -> str:
        """The url path of page `number` (1-based)."""
        return self.base if number == 1 else f"{self.base}page/{number}/"


def _aware(moment: datetime) -> datetime:
    """`moment` as an aware UTC datetime (a naive one is taken as UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _whole(moment: datetime) -> datetime:
    """Down to the second: HTTP dates have no fractions, and Last-Modified must compare exactly."""
    return moment.replace(microsecond=0)


def _quota(labels: Sequence[_T], shares: Sequence[float], count: int, rng: random.Random) -> list[_T]:
    """`count` labels in exact proportions (largest remainders), shuffled."""
    total = sum(shares) or 1.0
    exact = [count * share / total for share in shares]
    numbers = [int(value) for value in exact]
    by_remainder = sorted(range(len(shares)), key=lambda i: (numbers[i] - exact[i], i))
    for i in by_remainder[: count - sum(numbers)]:
        numbers[i] += 1
    drawn = [label for label, number in zip(labels, numbers, strict=True) for _ in range(number)]
    rng.shuffle(drawn)
    return drawn


def _arrivals(rng: random.Random, expected: float, start: datetime, end: datetime) -> list[datetime]:
    """A Poisson process of `expected` arrivals over [start, end) on average, at whole seconds."""
    if expected <= 0:
        return []
    rate = expected / (end - start).total_seconds()
    times: list[datetime] = []
    moment = start
    while True:
        moment += timedelta(seconds=rng.expovariate(rate))
        if moment >= end:
            return times
        times.append(_whole(moment) + timedelta(seconds=1))  # after `start`, never at it


def _change_times(
    rng: random.Random, mean: timedelta | None, begin: datetime, stop: datetime
) -> list[datetime]:
    """Exponential gaps of mean `mean` from `begin` until `stop`; distinct whole seconds after `begin`."""
    if mean is None:
        return []
    times: list[datetime] = []
    moment = begin
    while True:
        moment += timedelta(seconds=rng.expovariate(1.0 / mean.total_seconds()))
        if moment >= stop:
            return times
        second = _whole(moment)
        if second > begin and (not times or second > times[-1]):
            times.append(second)


@dataclass(slots=True)
class _Planner:
    """Draws the articles of a site in publication order, each from its own generator."""

    seed: int
    start: datetime
    end: datetime
    config: EvolvingConfig
    authors: int = 8
    titles: set[str] = field(default_factory=set)
    paths: set[str] = field(default_factory=set)

    def plan(self, pages: int) -> list[EvolvingArticle]:
        """The initial articles, then the ones that arrive during the span."""
        rng = random.Random(_mix(self.seed, "evolving", "plan"))
        history = timedelta(days=self.config.history_days)
        initial = [self.start - history + history * (i + rng.random() * 0.8) / pages for i in range(pages)]
        arrivals = _arrivals(rng, pages * self.config.growth, self.start, self.end)
        classes = self.config.classes
        class_shares = [c.share for c in classes]
        kinds = [kind for kind, _ in self.config.validators]
        kind_shares = [share for _, share in self.config.validators]
        drawn_classes = _quota(classes, class_shares, pages, rng)
        drawn_classes += rng.choices(classes, class_shares, k=len(arrivals))
        drawn_kinds = _quota(kinds, kind_shares, pages, rng) + rng.choices(
            kinds, kind_shares, k=len(arrivals)
        )
        moments = [_whole(moment) for moment in initial] + arrivals
        return [
            self.article(i, moment, drawn_classes[i], drawn_kinds[i], i >= pages)
            for i, moment in enumerate(moments)
        ]

    def article(
        self, index: int, published: datetime, change: ChangeClass, kind: Validators, new: bool
    ) -> EvolvingArticle:
        """Article `index`: its names, removal and changes, from its own generator."""
        rng = random.Random(_mix(self.seed, "evolving", "article", index))
        category = rng.randrange(len(CATEGORIES))
        prose = Prose(rng, _pools(CATEGORIES[category], ()))
        title = prose.title()
        while title in self.titles:  # a repeated headline would make two articles share text
            title = prose.title()
        self.titles.add(title)
        path = f"/{published.year}/{published.month:02d}/{published.day:02d}/{slugify(title)}/"
        if path in self.paths:
            path = f"{path[:-1]}-{index}/"
        self.paths.add(path)
        begin = max(self.start, published)
        removed = None
        if rng.random() < self.config.removal:
            removed = _whole(begin + (self.end - begin) * rng.random()) + timedelta(seconds=1)
        gone = 410 if rng.random() < self.config.gone_410 else 404
        changes = _change_times(rng, change.mean_interval, begin, min(self.end, removed or self.end))
        return EvolvingArticle(
            index, path, title, prose.sentence(), category, rng.randrange(self.authors), published,
            removed, gone, change.name, kind, tuple(changes), new,
        )  # fmt: skip


# --- bodies ----------------------------------------------------------------------------------------------


def _markup(category: int) -> list[str]:
    """Two marked-up topical words the prose may draw, so a body has an inline element or two."""
    words = CATEGORIES[category].nouns
    return [f"<em>{words[0]}</em>", f'<a href="/category/{CATEGORIES[category].name}/">{words[-1]}</a>']


def _paragraph(prose: Prose) -> _Block:
    text = prose.paragraph()
    return _Block("p", f"<p>{text}</p>", (_TAG_RE.sub("", text),))


def _first_body(article: EvolvingArticle, prose: Prose) -> list[_Block]:
    """Version 0: 3-9 paragraphs, the first opening with the lede; maybe a subheading and a list."""
    first = f"{article.lede} {prose.paragraph()}"
    blocks = [_Block("p", f"<p>{first}</p>", (_TAG_RE.sub("", first),))]
    blocks += [_paragraph(prose) for _ in range(prose.randint(2, 8))]
    if prose.random() < 0.5:
        heading = prose.heading()
        block = _Block("h2", f"<h2>{heading}</h2>", (_TAG_RE.sub("", heading),))
        blocks.insert(prose.randint(1, len(blocks) - 1), block)
    if prose.random() < 0.3:
        items = [prose.phrase() for _ in range(prose.randint(3, 5))]
        html = "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"
        blocks.insert(
            prose.randint(1, len(blocks)), _Block("ul", html, tuple(_TAG_RE.sub("", i) for i in items))
        )
    return blocks


def _edit(blocks: list[_Block], prose: Prose, edits: Sequence[tuple[Edit, float]]) -> Edit:
    """Apply one edit to `blocks` (in place) and say which: the first paragraph is never touched."""
    kind = _weighted(prose.random(), edits)
    movable = [i for i, block in enumerate(blocks) if block.tag == "p" and i > 0]
    if kind is Edit.REMOVE and len(movable) < 2:
        kind = Edit.ADD  # an article keeps its lede paragraph and one more
    if kind is Edit.REWRITE and not movable:
        kind = Edit.ADD
    if kind is Edit.ADD:
        blocks.insert(prose.randint(1, len(blocks)), _paragraph(prose))
    elif kind is Edit.REWRITE:
        blocks[prose.choice(movable)] = _paragraph(prose)
    else:
        del blocks[prose.choice(movable)]
    return kind


def _weighted(roll: float, choices: Sequence[tuple[_T, float]]) -> _T:
    """The choice whose band of the cumulative weights holds `roll` (in [0, 1))."""
    bound, total = 0.0, sum(weight for _, weight in choices)
    for choice, weight in choices:
        bound += weight / total
        if roll < bound:
            return choice
    return choices[-1][0]  # rounding left `roll` just past the last bound


def _version(article: EvolvingArticle, blocks: Sequence[_Block], edit: Edit | None) -> _Version:
    lines = [article.title, *(line for block in blocks for line in block.lines)]
    return _Version(tuple(blocks), "\n".join(lines), "\n".join(block.html for block in blocks), edit)


# --- requests and the fetch log ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fetch:
    """One request the site answered (the clock endpoint is not logged)."""

    at: datetime  # simulated time of the answer
    path: str
    status: int
    conditional: bool  # the request carried If-None-Match or If-Modified-Since
    method: str = "GET"

    @property
    def not_modified(self) -> bool:
        """Answered 304 Not Modified."""
        return self.status == 304


@dataclass(frozen=True, slots=True)
class Response:
    """What the site answers to one request."""

    status: int
    headers: dict[str, str]
    body: bytes


@dataclass(frozen=True, slots=True)
class _View:
    """What one fetch draws for its template: the time, its serial number and its own generator."""

    now: datetime
    serial: int
    rng: random.Random

    @property
    def token(self) -> str:
        """The CSRF token of this response."""
        return f"{self.rng.getrandbits(128):032x}"


def _http_date(moment: datetime) -> str:
    return format_datetime(moment, usegmt=True)


def _parse_http_date(value: str) -> datetime | None:
    try:
        return _aware(parsedate_to_datetime(value))
    except (TypeError, ValueError, IndexError):
        return None


def _etag_matches(header: str, etag: str | None) -> bool:
    """If-None-Match's weak comparison (RFC 9110 §8.8.3.2): a listed tag with the same opaque value,
    or ``*``."""
    tags = [tag.strip() for tag in header.split(",")]
    if "*" in tags:
        return True  # "*" matches any current representation, with or without an ETag
    wanted = None if etag is None else etag.removeprefix("W/")
    return wanted is not None and any(tag.removeprefix("W/") == wanted for tag in tags)


def not_modified(headers: Mapping[str, str], etag: str | None, last_modified: datetime | None) -> bool:
    """RFC 9110 §13.2.2: If-None-Match when present (If-Modified-Since is then ignored), else
    If-Modified-Since when the representation has a modification date. `headers` has lower-case names."""
    if "if-none-match" in headers:
        return _etag_matches(headers["if-none-match"], etag)
    since = headers.get("if-modified-since")
    if since is None or last_modified is None:
        return False
    date = _parse_http_date(since)
    return date is not None and last_modified <= date


# --- the site --------------------------------------------------------------------------------------------


class EvolvingSite:
    """A seeded site whose articles change over a simulated span; thread-safe, reproducible."""

    def __init__(
        self,
        seed: int,
        pages: int = 300,
        start: datetime = START,
        days: int = 30,
        config: EvolvingConfig | None = None,
    ) -> None:
        if pages < 1:
            raise ValueError("an evolving site needs at least one article")
        self.seed = seed
        self.config = config or EvolvingConfig()
        self.start = _whole(_aware(start))
        self.end = self.start + timedelta(days=days)
        self.authors = _authors(seed)
        self.articles = _Planner(seed, self.start, self.end, self.config, len(self.authors)).plan(pages)
        self.initial_pages = pages
        self.listings = [_Listing("Latest posts", TAGLINE, "/", None)] + [
            _Listing(c.name.capitalize(), c.description, f"/category/{c.name}/", i)
            for i, c in enumerate(CATEGORIES)
        ]
        self.fetches: list[Fetch] = []
        self._by_path = {article.path: article for article in self.articles}
        self._now = self.start
        self._serial = 0
        self._lock = threading.Lock()
        self._bodies: dict[int, list[_Version]] = {}
        self._body_lock = threading.Lock()
        self._listing_changes: dict[str, tuple[datetime, ...]] = {}
        theme = random.Random(_mix(seed, "evolving", "theme"))
        self._style = _style(theme, self.config.head_bytes * 2 // 3)
        self._script = _script(theme, self.config.head_bytes // 3)
        # Cached per simulated time: the clock moves seldom, and the ground truth asks the same times.
        self._alive_at = functools.lru_cache(maxsize=512)(self._compute_alive)
        self._members_at = functools.lru_cache(maxsize=1024)(self._compute_members)

    # --- the clock -----------------------------------------------------------------------------------

    @property
    def now(self) -> datetime:
        """The simulated time every response is computed for."""
        with self._lock:
            return self._now

    @now.setter
    def now(self, moment: datetime) -> None:
        with self._lock:
            self._now = _aware(moment)

    def advance(self, delta: timedelta) -> datetime:
        """Move the clock by `delta`; the new time."""
        with self._lock:
            self._now += delta
            return self._now

    def reset(self, at: datetime | None = None) -> None:
        """Clock back to `at` (default: the start), fetch log and per-fetch draws from zero: a fresh run."""
        with self._lock:
            self._now = _aware(at) if at is not None else self.start
            self._serial = 0
            self.fetches.clear()

    # --- ground truth --------------------------------------------------------------------------------

    def _compute_alive(self, at: datetime) -> tuple[EvolvingArticle, ...]:
        return tuple(article for article in reversed(self.articles) if article.alive(at))

    def alive(self, at: datetime) -> tuple[EvolvingArticle, ...]:
        """The articles that exist at `at`, newest first."""
        return self._alive_at(_aware(at))

    def paths_at(self, at: datetime) -> list[str]:
        """The url paths of the articles that exist at `at`, oldest first."""
        return [article.path for article in reversed(self.alive(at))]

    def listing_paths_at(self, at: datetime) -> list[str]:
        """The url paths of the listing pages (home, categories, their further pages) at `at`."""
        return [
            listing.page_path(number)
            for listing in self.listings
            for number in range(1, self._page_count(listing, at) + 1)
        ]

    def article(self, path: str) -> EvolvingArticle | None:
        """The article at `path` (whether it exists at a given time or not), or None."""
        return self._by_path.get(path)

    def live_text(self, path: str, at: datetime) -> str | None:
        """The informative content of `path` at `at`, one line per block; None when it does not exist then.

        An article: its title, then its body's blocks (paragraph, subheading, list item). A listing page:
        its heading, then each excerpt's title, byline (date · author) and lede. The about page: its text.
        """
        at = _aware(at)
        article = self._by_path.get(path)
        if article is not None:
            return self._body(article, article.version(at)).text if article.alive(at) else None
        if path == ABOUT_PATH:
            return _ABOUT_TEXT
        found = self._listing_page(path)
        return None if found is None else self._listing_text(*found, at)

    def change_times(self, path: str) -> list[datetime]:
        """When the informative content of `path` changed during the span (appearing is not a change).

        An article: its scheduled edits. A listing page: the arrivals and removals of articles that
        changed what the page shows (a page that stops existing has no change; `live_text` says None).
        """
        article = self._by_path.get(path)
        if article is not None:
            return list(article.changes)
        found = self._listing_page(path)
        if found is None:
            return []
        with self._lock:
            cached = self._listing_changes.get(path)
        if cached is None:
            cached = self._compute_listing_changes(*found)
            with self._lock:
                self._listing_changes[path] = cached
        return list(cached)

    def last_modified(self, path: str, at: datetime) -> datetime | None:
        """The time of the last informative change of `path` up to `at` (its Last-Modified), or None."""
        at = _aware(at)
        changes = self.change_times(path)
        before = bisect.bisect_right(changes, at)
        if before:
            return changes[before - 1]
        article = self._by_path.get(path)
        if article is not None:
            return article.published
        found = self._listing_page(path)
        if found is None:
            return self.start - timedelta(days=self.config.history_days + 1)  # the about page
        members = self._members(found[0], at)
        return max((a.published for a in members), default=self.start)

    def versions(self, article: EvolvingArticle) -> int:
        """How many versions `article` has over the span (its changes plus one)."""
        return len(article.changes) + 1

    def edit_of(self, article: EvolvingArticle, version: int) -> Edit | None:
        """The edit that made `version` of `article` (None for version 0)."""
        return self._body(article, version).edit

    # --- bodies and listings -------------------------------------------------------------------------

    def _body(self, article: EvolvingArticle, version: int) -> _Version:
        """Version `version` of the article's body: version 0 drawn, each next one an edit of the last."""
        with self._body_lock:
            versions = self._bodies.get(article.index)
            if versions is None:
                rng = random.Random(_mix(self.seed, "evolving", "body", article.index))
                prose = Prose(rng, _pools(CATEGORIES[article.category], (), _markup(article.category)))
                versions = self._bodies[article.index] = [
                    _version(article, _first_body(article, prose), None)
                ]
            while len(versions) <= version:
                blocks = list(versions[-1].blocks)
                rng = random.Random(_mix(self.seed, "evolving", "edit", article.index, len(versions)))
                prose = Prose(rng, _pools(CATEGORIES[article.category], (), _markup(article.category)))
                edit = _edit(blocks, prose, self.config.edits)
                versions.append(_version(article, blocks, edit))
            return versions[version]

    def _listing_page(self, path: str) -> tuple[_Listing, int] | None:
        """The listing and page number that `path` names (whether that page exists now or not)."""
        match = _LISTING_RE.match(path)
        if match is None:
            return None
        name, number = match.group(1), int(match.group(2) or 1)
        if match.group(2) is not None and number < 2:
            return None  # /page/1/ is the listing's first page under another name: not served
        if name is None:
            return self.listings[0], number
        listing = next((item for item in self.listings[1:] if item.base == f"/category/{name}/"), None)
        return None if listing is None else (listing, number)

    def _members(self, listing: _Listing, at: datetime) -> tuple[EvolvingArticle, ...]:
        """The listing's articles at `at`, newest first."""
        return self._members_at(listing.category, _aware(at))

    def _compute_members(self, category: int | None, at: datetime) -> tuple[EvolvingArticle, ...]:
        alive = self.alive(at)
        return alive if category is None else tuple(a for a in alive if a.category == category)

    def _page_count(self, listing: _Listing, at: datetime) -> int:
        per_page = self.config.per_page
        return max(1, -(-len(self._members(listing, at)) // per_page))

    def _shown(self, listing: _Listing, number: int, at: datetime) -> Sequence[EvolvingArticle] | None:
        """The articles on page `number` of `listing` at `at`; None when the page does not exist."""
        members = self._members(listing, at)
        per_page = self.config.per_page
        shown = members[(number - 1) * per_page : number * per_page]
        return shown if shown or number == 1 else None

    def _listing_text(self, listing: _Listing, number: int, at: datetime) -> str | None:
        shown = self._shown(listing, number, at)
        if shown is None:
            return None
        lines = [_listing_heading(listing, number)]
        lines += [line for a in shown for line in (a.title, self._byline(a), a.lede)]
        return "\n".join(lines) if shown else "\n".join([*lines, _NOTHING_YET])

    def _byline(self, article: EvolvingArticle) -> str:
        """An excerpt's date and author line, as listings show it."""
        return f"{_date(article.published)} · {self.authors[article.author]}"

    def _compute_listing_changes(self, listing: _Listing, number: int) -> tuple[datetime, ...]:
        """The arrival and removal times of the listing's articles that changed this page's text."""
        events = sorted(
            {a.published for a in self.articles if a.published > self.start}
            | {a.removed for a in self.articles if a.removed is not None}
        )
        events = [e for e in events if e < self.end]
        changes, previous = [], self._listing_text(listing, number, self.start)
        for event in events:
            text = self._listing_text(listing, number, event)
            if text is not None and previous is not None and text != previous:
                changes.append(event)
            previous = text
        return tuple(changes)

    # --- answering -----------------------------------------------------------------------------------

    def respond(self, path: str, headers: Mapping[str, str] | None = None, method: str = "GET") -> Response:
        """The answer to a GET (or HEAD) of `path` at the simulated time, logged in `fetches`.

        `headers` are the request's headers (any case). A HEAD is answered as a GET (the server sends no
        body) and logged as a HEAD.
        """
        lower = {name.lower(): value for name, value in (headers or {}).items()}
        path = urlsplit(path).path or "/"  # the query string selects nothing on this site
        with self._lock:
            view = _View(self._now, self._serial, random.Random(_mix(self.seed, "fetch", self._serial)))
            self._serial += 1
        response = self._answer(path, lower, view)
        conditional = "if-none-match" in lower or "if-modified-since" in lower
        with self._lock:
            self.fetches.append(Fetch(view.now, path, response.status, conditional, method))
        return response

    def _answer(self, path: str, headers: Mapping[str, str], view: _View) -> Response:
        article = self._by_path.get(path)
        if article is not None:
            return self._answer_article(article, headers, view)
        if path == ABOUT_PATH:
            modified = self.last_modified(path, view.now)
            if not_modified(headers, None, modified):
                return _not_modified(view, None, modified)
            html = _page(self, view, "page", f"About – {SITE_NAME}", _ABOUT_HTML)
            return _ok(view, html, _validator_headers(None, modified))
        found = self._listing_page(path)
        shown = None if found is None else self._shown(*found, view.now)
        if found is None or shown is None:
            return _error(view, 404)
        text = self._listing_text(*found, view.now) or ""
        etag = f'W/"l{hashlib.blake2b(text.encode(), digest_size=6).hexdigest()}"'
        modified = self.last_modified(path, view.now)
        if not_modified(headers, etag, modified):
            return _not_modified(view, etag, modified)
        html = _listing_html(self, view, found[0], found[1], shown)
        return _ok(view, html, _validator_headers(etag, modified))

    def _answer_article(self, article: EvolvingArticle, headers: Mapping[str, str], view: _View) -> Response:
        if view.now < article.published:
            return _error(view, 404)
        if not article.alive(view.now):
            return _error(view, article.gone_status)
        version = article.version(view.now)
        kind = article.validators
        etag = f'W/"a{article.index}v{version}"' if kind.etag else None
        modified = (
            (article.changes[version - 1] if version else article.published) if kind.last_modified else None
        )
        if not_modified(headers, etag, modified):
            return _not_modified(view, etag, modified)
        html = _article_html(self, view, article, self._body(article, version))
        return _ok(view, html, _validator_headers(etag, modified))


# --- responses -------------------------------------------------------------------------------------------


def _validator_headers(etag: str | None, modified: datetime | None) -> dict[str, str]:
    headers = {}
    if etag is not None:
        headers["ETag"] = etag
    if modified is not None:
        headers["Last-Modified"] = _http_date(modified)
    return headers


def _ok(view: _View, html: str, extra: dict[str, str]) -> Response:
    headers = {"Date": _http_date(view.now), "Content-Type": "text/html; charset=utf-8", **extra}
    return Response(200, headers, html.encode("utf-8"))


def _not_modified(view: _View, etag: str | None, modified: datetime | None) -> Response:
    # A 304 repeats the validators a 200 would send (RFC 9110 §15.4.5), and has no body.
    return Response(304, {"Date": _http_date(view.now), **_validator_headers(etag, modified)}, b"")


def _error(view: _View, status: int) -> Response:
    text = {404: "Not found", 410: "Gone: this article was removed"}[status]
    body = f"<!DOCTYPE html><html><head><title>{text}</title></head><body><h1>{text}</h1></body></html>"
    headers = {"Date": _http_date(view.now), "Content-Type": "text/html; charset=utf-8"}
    return Response(status, headers, body.encode())


# --- the template ----------------------------------------------------------------------------------------

_NOTHING_YET = "Nothing has been published here yet."
_ABOUT_LINES = (
    "About",
    f"{SITE_NAME} is written by eight people who like to explain how things work, from telescopes to tides.",
    "We publish a few articles a week and correct them when readers tell us we got something wrong.",
)
_ABOUT_TEXT = "\n".join(_ABOUT_LINES)
_ABOUT_HTML = (
    f'<article class="page"><header class="entry-header"><h1 class="entry-title">{_ABOUT_LINES[0]}</h1>'
    f'</header><div class="entry-content"><p>{_ABOUT_LINES[1]}</p><p>{_ABOUT_LINES[2]}</p></div></article>'
)


def _listing_heading(listing: _Listing, number: int) -> str:
    return listing.heading + (f" – Page {number}" if number > 1 else "")


def _long_date(moment: datetime) -> str:
    return f"{_WEEKDAYS[moment.weekday()]}, {_date(moment)}"


def _nav() -> str:
    items = "".join(
        f'<li class="menu-item"><a href="/category/{c.name}/">{c.name.capitalize()}</a></li>'
        for c in CATEGORIES
    )
    return (
        '<nav id="site-navigation" class="main-navigation" aria-label="Primary">'
        '<button class="menu-toggle" aria-controls="primary-menu" aria-expanded="false">Menu</button>'
        f'<ul id="primary-menu"><li class="menu-item"><a href="/">Home</a></li>{items}'
        f'<li class="menu-item"><a href="{ABOUT_PATH}">About</a></li></ul></nav>'
    )


_NAV = _nav()


def _links(articles: Iterable[EvolvingArticle], dated: bool) -> str:
    items = "".join(
        f'<li><a href="{a.path}">{a.title}</a>'
        + (f' <span class="post-date">{_date(a.published)}</span>' if dated else "")
        + "</li>"
        for a in articles
    )
    return f"<ul>{items}</ul>"


def _sidebar(site: EvolvingSite, view: _View) -> str:
    """Search, the newest articles at this time, a per-fetch trending box and a per-fetch ad."""
    alive = site.alive(view.now)
    count = site.config.latest
    latest = _widget("widget_recent_entries", "Latest posts", _links(alive[:count], dated=True))
    trending = view.rng.sample(alive, min(count, len(alive)))
    popular = _widget("widget_trending", "Trending now", _links(trending, dated=False))
    number = view.rng.randrange(len(_ADS))
    name, line = _ADS[number]
    ad = (
        f'<section class="widget widget_ad"><div class="ad-slot" data-ad="{number}"><span class="ad-label">'
        f'Advertisement</span><a href="https://ads.example.net/click?c={number}&amp;r={view.serial}" '
        f'rel="sponsored nofollow"><img src="https://ads.example.net/banner/{number}.png" width="300" '
        f'height="250" alt="{name}"><strong>{name}</strong> {line}</a></div></section>'
    )
    return f'<aside id="secondary" class="widget-area">{_SEARCH}{latest}{popular}{ad}</aside>'


def _footer(view: _View) -> str:
    """The footer: newsletter, links, and the per-fetch generation time and visitor counter."""
    seconds = 0.01 + view.rng.random() * 0.2
    visitor = 1_204_311 + view.serial * 3 + view.rng.randrange(3)
    stamp = view.now.strftime("%Y-%m-%d %H:%M:%S UTC")
    return (
        '<footer id="colophon" class="site-footer"><div class="footer-widgets"><section class="newsletter">'
        '<h2 class="widget-title">The weekly digest</h2><p>One email on Fridays with the week’s posts. '
        'No spam, unsubscribe at any time.</p><form class="newsletter-form" method="post" '
        'action="/subscribe">'
        '<input type="email" name="email" placeholder="you@example.com" required>'
        '<button type="submit">Subscribe</button></form></section><nav class="footer-navigation" '
        f'aria-label="Footer"><ul><li><a href="{ABOUT_PATH}">About us</a></li><li><a href="/">Home</a></li>'
        '<li><a href="#page">Back to top</a></li></ul></nav></div><div class="site-info">'
        f'<p class="generated">Page generated at {stamp} in {seconds:.3f} s · you are visitor number '
        f'{visitor:,}</p><p class="copyright">© 2013–{view.now.year} {SITE_NAME}. All rights reserved.</p>'
        "</div></footer>"
    )


def _page(site: EvolvingSite, view: _View, kind: str, title: str, main: str) -> str:
    """A whole page: head with inline CSS/JS and a CSRF meta, header, main content, sidebar, footer."""
    token = view.token
    main = main.replace("{csrf}", token)
    return (
        '<!DOCTYPE html>\n<html lang="en-GB">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<title>{title}</title>\n<meta name="csrf-token" content="{token}">\n'
        f"<style>\n{site._style}\n</style>\n<script>\n{site._script}\n</script>\n</head>\n"
        f'<body class="{kind}">\n<div id="page" class="site">'
        '<a class="skip-link screen-reader-text" href="#main">Skip to content</a>\n'
        '<header id="masthead" class="site-header"><div class="site-branding">'
        f'<p class="site-title"><a href="/" rel="home">{SITE_NAME}</a></p>'
        f'<p class="site-description">{TAGLINE}</p><p class="site-date">{_long_date(view.now)}</p></div>'
        f'{_NAV}</header>\n<div id="content" class="site-content">\n<main id="main" class="site-main">\n'
        f"{main}\n</main>\n{_sidebar(site, view)}\n</div>\n{_footer(view)}\n</div>\n"
        f'<script>almanac.page={{"type":"{kind}","t":{view.serial}}};almanac.ready&&almanac.ready();</script>\n'
        "</body>\n</html>\n"
    )


def _share(article: EvolvingArticle, view: _View) -> str:
    shares = 3 + int((view.now - article.published).total_seconds() // 7200) + view.rng.randrange(5)
    links = "".join(
        f'<a class="share-{name.lower()}" href="https://{host}/share?url={article.path}" '
        f'rel="nofollow noopener">{name}</a>'
        for name, host in (("Mastodon", "social.example.org"), ("Email", "mail.example.com"))
    )
    return (
        f'<div class="share-buttons"><span class="share-label">Share this:</span>{links}'
        f'<span class="share-count">Shared {shares:,} times</span></div>'
    )


def _article_html(site: EvolvingSite, view: _View, article: EvolvingArticle, body: _Version) -> str:
    """An article page: byline with a live view count, the body, share buttons, a comment form."""
    category = CATEGORIES[article.category]
    views = 40 + int((view.now - article.published).total_seconds() // 600) + view.rng.randrange(50)
    updated = ""
    version = article.version(view.now)
    if version:
        moment = article.changes[version - 1]
        updated = f' · <time class="updated" datetime="{moment.isoformat()}">Updated {_date(moment)}</time>'
    readers = 1 + view.rng.randrange(30)
    main = (
        f'<article id="post-{article.index}" class="post type-post status-publish category-{category.name}">'
        f'<header class="entry-header"><h1 class="entry-title">{article.title}</h1>'
        f'<div class="entry-meta"><span class="byline">By <span class="author vcard">'
        f"{site.authors[article.author]}</span></span> · "
        f'<time class="entry-date published" datetime="{article.published.isoformat()}">'
        f'{_date(article.published)}</time>{updated} · in <a href="/category/{category.name}/" '
        f'rel="category tag">{category.name.capitalize()}</a> · <span class="post-views">{views:,} views'
        f'</span></div></header>\n<div class="entry-content">\n{body.html}\n</div>\n'
        f'<footer class="entry-footer">{_share(article, view)}</footer></article>\n'
        '<section id="comments" class="comments-area"><div id="respond" class="comment-respond">'
        '<h3 class="comment-reply-title">Leave a reply</h3><form action="/comment" method="post" '
        'class="comment-form"><input type="hidden" name="csrf_token" value="{csrf}">'
        '<p><label>Comment<textarea name="comment" rows="6"></textarea></label></p>'
        '<p><label>Name<input name="author" type="text"></label></p><p><input type="submit" '
        f'value="Post comment"></p><p class="comment-notes">{readers} people are reading this right now.'
        "</p></form></div></section>"
    )
    return _page(site, view, "single-post", f"{article.title} – {SITE_NAME}", main)


def _listing_html(
    site: EvolvingSite, view: _View, listing: _Listing, number: int, shown: Sequence[EvolvingArticle]
) -> str:
    """A listing page: its header, the excerpts, the page links."""
    excerpts = (
        "\n".join(
            f'<article class="post excerpt category-{CATEGORIES[a.category].name}">'
            f'<h2 class="entry-title"><a href="{a.path}" rel="bookmark">{a.title}</a></h2>'
            f'<div class="entry-meta"><time datetime="{a.published.isoformat()}">{_date(a.published)}</time>'
            f" · {site.authors[a.author]}</div>"
            f'<div class="entry-summary"><p>{a.lede}</p></div>'
            f'<a class="more-link" href="{a.path}">Continue reading</a></article>'
            for a in shown
        )
        or f'<p class="no-results">{_NOTHING_YET}</p>'
    )
    last = site._page_count(listing, view.now)
    links = []
    if number > 1:
        links.append(f'<a class="prev page-numbers" href="{listing.page_path(number - 1)}">« Newer</a>')
    if number < last:
        links.append(f'<a class="next page-numbers" href="{listing.page_path(number + 1)}">Older »</a>')
    pagination = f'<nav class="navigation pagination"><div class="nav-links">{" ".join(links)}</div></nav>'
    heading = _listing_heading(listing, number)
    main = (
        f'<header class="page-header"><h1 class="page-title">{heading}</h1>'
        f'<div class="archive-description"><p>{listing.description}</p></div></header>\n'
        f"{excerpts}\n{pagination}"
    )
    kind = "home" if listing.category is None else "archive category"
    return _page(site, view, kind, f"{heading} – {SITE_NAME}", main)


# --- freshness -------------------------------------------------------------------------------------------


def sample_times(start: datetime, end: datetime, step: timedelta) -> list[datetime]:
    """``start + k·step`` for k = 0, 1, … while before `end` (a half-open span)."""
    if step <= timedelta(0):
        raise ValueError("the sampling step must be positive")
    count = max(0, -(-(_aware(end) - _aware(start)) // step))
    return [_aware(start) + k * step for k in range(count)]


def freshness(
    site: EvolvingSite,
    stored: Callable[[str, datetime], str | None],
    span: tuple[datetime, datetime] | None = None,
    step: timedelta = timedelta(hours=1),
    paths: Iterable[str] | None = None,
) -> float:
    """The share of (page, time) points where the stored copy equals the live informative content.

    Exactly: the times are t_k = a + k·step for k = 0, 1, … with t_k < b, where (a, b) = `span` (default
    the site's span). At each t_k the pages are the articles that exist then (`site.paths_at(t_k)`:
    published at or before t_k, not yet removed), or, when `paths` is given, those of `paths` whose
    `site.live_text` at t_k is not None. A point (p, t_k) is fresh when ``stored(p, t_k) ==
    site.live_text(p, t_k)``, compared as strings (a change at exactly t_k is already live, so a copy
    fetched before it is stale at t_k). The result is fresh points / points, or 1.0 when there are no
    points. Removed pages stop counting at their removal; pages not yet crawled count as stale (`stored`
    returns None for them). This is the time average of Cho and Garcia-Molina's freshness, sampled.
    """
    begin, finish = span or (site.start, site.end)
    chosen = None if paths is None else list(paths)
    fresh = total = 0
    for moment in sample_times(begin, finish, step):
        for path in site.paths_at(moment) if chosen is None else chosen:
            live = site.live_text(path, moment)
            if live is None:
                continue
            total += 1
            fresh += stored(path, moment) == live
    return fresh / total if total else 1.0


def stored_from_fetches(
    site: EvolvingSite, fetches: Iterable[Fetch] | None = None
) -> Callable[[str, datetime], str | None]:
    """The stored copy implied by a fetch log: `live_text` as of the path's last 200 at or before t.

    A 304 leaves the copy as it was (it said the content had not changed); a 404 or 410 makes a crawler
    drop it (None). This is what a crawler that stores every 200 it gets holds, whatever its extractor.
    """
    events: dict[str, list[tuple[datetime, datetime | None]]] = {}
    for fetch in sorted(fetches if fetches is not None else list(site.fetches), key=lambda f: f.at):
        if fetch.status == 200:
            events.setdefault(fetch.path, []).append((fetch.at, fetch.at))
        elif fetch.status in (404, 410):
            events.setdefault(fetch.path, []).append((fetch.at, None))
    times = {path: [at for at, _ in items] for path, items in events.items()}

    def stored(path: str, at: datetime) -> str | None:
        index = bisect.bisect_right(times.get(path, []), at)
        if not index:
            return None
        fetched = events[path][index - 1][1]
        return None if fetched is None else site.live_text(path, fetched)

    return stored


# --- serving ---------------------------------------------------------------------------------------------


class _Server(BurstServer):
    """The threaded server of one evolving site (`site.fetches` says what was asked and answered)."""

    site: EvolvingSite


class _Handler(KeepAliveMixIn, BaseHTTPRequestHandler):
    """GET and HEAD from the site at its simulated time; GET and POST of the clock endpoint."""

    server: _Server

    def do_GET(self) -> None:
        """A page, or the simulated time."""
        if urlsplit(self.path).path == CLOCK_PATH:
            return self._text(200, self.server.site.now.isoformat())
        self._page("GET")

    def do_HEAD(self) -> None:
        """A page's headers."""
        self._page("HEAD")

    def do_POST(self) -> None:
        """Set (``?at=ISO``) or move (``?advance=SECONDS``) the simulated clock; other POSTs are refused."""
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)  # the connection stays usable for the next request
        parts = urlsplit(self.path)
        if parts.path != CLOCK_PATH:
            return self._text(405, "method not allowed")
        query = parse_qs(parts.query)
        site = self.server.site
        try:
            if "at" in query:
                site.now = datetime.fromisoformat(query["at"][0])
            elif "advance" in query:
                site.advance(timedelta(seconds=float(query["advance"][0])))
            else:
                return self._text(400, "give ?at=ISO-8601 or ?advance=SECONDS")
        except (ValueError, OverflowError) as error:  # not a date, or a step past year 9999
            return self._text(400, f"bad clock value: {error}")
        self._text(200, site.now.isoformat())

    def _page(self, method: str) -> None:
        response = self.server.site.respond(self.path, dict(self.headers.items()), method)
        # Not `send_response`: it adds the real Date, and the response has the simulated one.
        self.send_response_only(response.status)
        self.send_header("Server", self.version_string())
        for name, value in response.headers.items():
            self.send_header(name, value)
        if response.status != 304:  # a 304 has no body, and no Content-Length of one (RFC 9110 §8.6)
            self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        if method == "GET" and response.body:
            self.wfile.write(response.body)

    def _text(self, status: int, text: str) -> None:
        body = (text + "\n").encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def serve_evolving(site: EvolvingSite, port: int = 0) -> Iterator[str]:
    """Serve `site` on 127.0.0.1 (a free port unless `port`) from a thread; yields the base URL."""
    server = _Server(("127.0.0.1", port), _Handler)
    server.site = site
    # A short poll interval: stopping the server waits for the loop to notice.
    with running(server, poll_interval=0.05, name="evolving-site") as base:
        yield base


# --- summary and CLI -------------------------------------------------------------------------------------


def describe(site: EvolvingSite) -> list[str]:
    """The schedule in a few lines: change classes, changes and edits, arrivals, removals, validators."""
    classes: Counter[str] = Counter(a.change_class for a in site.articles)
    changes: Counter[str] = Counter()
    edits: Counter[str] = Counter()
    for article in site.articles:
        changes[article.change_class] += len(article.changes)
        edits.update(str(site.edit_of(article, v)) for v in range(1, site.versions(article)))
    new = [a for a in site.articles if a.new]
    removed = [a for a in site.articles if a.removed is not None]
    gone: Counter[int] = Counter(a.gone_status for a in removed)
    kinds: Counter[str] = Counter(str(a.validators) for a in site.articles)
    span = f"{site.start.isoformat()} to {site.end.isoformat()}"
    lines = [
        f"seed {site.seed}: {site.initial_pages} articles at the start, {len(site.articles)} in all; "
        f"span {span}",
        "change classes (all articles, new ones included):",
    ]
    for change in site.config.classes:
        every = f"mean interval {_days(change.mean_interval)}" if change.mean_interval else "never changes"
        name = change.name
        lines.append(f"  {name:<8} {classes[name]:>5} pages, {changes[name]:>5} changes ({every})")
    lines += [
        f"content changes: {sum(changes.values())} ("
        + ", ".join(f"{edit} {edits[str(edit)]}" for edit, _ in site.config.edits)
        + ")",
        f"new articles: {len(new)}; removed: {len(removed)} ({gone[404]} answer 404, {gone[410]} answer 410)",
        "validators: " + ", ".join(f"{kind} {kinds[str(kind)]}" for kind, _ in site.config.validators),
        f"listing pages: {len(site.listing_paths_at(site.start))} at the start, "
        f"{len(site.listing_paths_at(site.end))} at the end; "
        f"home page changes: {len(site.change_times('/'))}",
    ]
    return lines


def _days(delta: timedelta) -> str:
    days = delta.total_seconds() / 86400
    return f"{days:g} day" + ("" if days == 1 else "s")


def main(argv: list[str] | None = None, out: Callable[[str], object] = print) -> int:
    """``python -m benchmarks.evolving describe|serve --seed S --pages N [--days D] [--port P]``."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.evolving", description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("describe", "serve"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pages", type=int, default=300, help="articles at the start (default 300)")
    parser.add_argument("--days", type=int, default=30, help="the simulated span (default 30)")
    parser.add_argument("--port", type=int, default=0, help="serve: the port (default a free one)")
    args = parser.parse_args(argv)
    site = EvolvingSite(args.seed, args.pages, days=args.days)
    if args.command == "describe":
        for line in describe(site):
            out(line)
        return 0
    with serve_evolving(site, args.port) as base:
        out(f"serving {base}/ at simulated {site.now.isoformat()}; the clock is at {base}{CLOCK_PATH}")
        with suppress(KeyboardInterrupt):
            threading.Event().wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
