"""When to fetch a page again: a page's own history of informative changes sets its next visit.

Three policies (``RECRAWL_POLICY``):

- ``estimate`` (the default): Cho and Garcia-Molina's estimate of the page's change rate (J. Cho and H.
  Garcia-Molina, "Estimating frequency of change", ACM TOIT 3(3), 2003: the bias-reduced estimator
  r = -ln((n - X + 0.5) / (n + 0.5)) of the changes per visit, X changes found in n visits), divided by the
  mean time between its visits. The next interval is the one at which a page changing at that rate is
  fresh a `target_freshness` share of the time (a Poisson process's (1 - e^-x) / x). Until a page has been
  seen to change, the rate is unknown (the estimate is 0) and the interval grows as Nutch's does.
- ``adaptive``: Apache Nutch's AdaptiveFetchSchedule (`org.apache.nutch.crawl.AdaptiveFetchSchedule`,
  default rates 0.4 and 0.2; its `SYNC_DELTA` correction left out, as most servers send no reliable
  modification time): the interval shrinks by `dec_rate` after a change and grows by `inc_rate` after none.
  It keeps no estimate of the rate: a page changing every ten days ends visited every six or so.
- ``fixed``: every interval stays `interval`.

Each stays within [`min_interval`, `max_interval`]; a new page starts at `interval`. What counts as a
change is the difference (``RECRAWL_CHANGE``): Nutch compares a signature of the whole page, so a rotating ad
or a date in the footer is a change; cleancrawl compares the hash of the page's clean text ("content"), so
only informative changes count. "html" gives Nutch's own behaviour: the recrawl benchmark compares them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Literal

from scrapy.settings import BaseSettings

Change = Literal["content", "html"]
Schedule = Literal["estimate", "adaptive", "fixed"]
SCHEDULES: tuple[Schedule, ...] = ("estimate", "adaptive", "fixed")


@dataclass(frozen=True, slots=True)
class ChangeHistory:
    """What the crawl state knows of a page's changes at a fetch: the visits that compared it with the
    version before (every fetch but the first), the changes they found, and the seconds they span."""

    visits: int = 0
    changes: int = 0
    seconds: float = 0.0

    def change_rate(self) -> float:
        """Cho and Garcia-Molina's bias-reduced estimate of the page's changes per second (0: none seen)."""
        if not self.changes or self.visits <= 0 or self.seconds <= 0:
            return 0.0
        unchanged = max(self.visits - self.changes, 0)
        per_visit = -math.log((unchanged + 0.5) / (self.visits + 0.5))
        return per_visit / (self.seconds / self.visits)


@cache
def freshness_reach(freshness: float) -> float:
    """The x = rate * interval at which a page whose changes come as a Poisson process is fresh the
    `freshness` share of the time: the root of (1 - e^-x) / x = freshness (which falls from 1 as x grows)."""
    low, high = 1e-9, 64.0
    for _ in range(100):
        middle = (low + high) / 2
        if -math.expm1(-middle) / middle > freshness:
            low = middle
        else:
            high = middle
    return (low + high) / 2


@dataclass(frozen=True, slots=True)
class RevisitPolicy:
    """A revisit schedule (settings ``RECRAWL_*``)."""

    interval: timedelta = timedelta(days=1)
    min_interval: timedelta = timedelta(hours=1)
    max_interval: timedelta = timedelta(days=30)
    inc_rate: float = 0.4
    dec_rate: float = 0.2
    schedule: Schedule = "estimate"
    target_freshness: float = 0.95
    change: Change = "content"

    def next_interval(self, current: timedelta | None, changed: bool, history: ChangeHistory) -> timedelta:
        """The interval after a fetch: the current one (a new page's: `interval`) moved by the outcome and
        the page's history, this fetch included."""
        if current is None or self.schedule == "fixed":
            return self.interval
        rate = history.change_rate() if self.schedule == "estimate" else 0.0
        if rate > 0:
            moved = timedelta(seconds=min(freshness_reach(self.target_freshness) / rate, 1e9))
        elif changed:
            moved = current * (1 - self.dec_rate)
        else:
            moved = current * (1 + self.inc_rate)
        return min(self.max_interval, max(self.min_interval, moved))

    def changed(self, content_changed: bool, html: tuple[int | None, int | None]) -> bool:
        """Whether a fetch changed a page fetched before: its clean text changed (the store's decision,
        the one its history records), or its raw HTML's hash, (before, after), differs."""
        if self.change == "content":
            return content_changed
        before, after = html
        return before is not None and before != after


def now_or(setting: str) -> datetime:
    """The crawl's present: ``RECRAWL_NOW`` (an ISO 8601 time, for a simulated clock) or the real time."""
    if not setting:
        return datetime.now(UTC)
    moment = datetime.fromisoformat(setting)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_duration(value: str | float | int) -> timedelta:
    """A duration from seconds or a number with a unit: ``90``, ``45m``, ``6h``, ``1.5d``, ``2w``.

    ValueError, saying what it takes, for anything else (zero and negative durations included)."""
    text = str(value).strip().lower()
    number, unit = (text[:-1], text[-1]) if text and text[-1] in _UNITS else (text, "s")
    try:
        seconds = float(number) * _UNITS[unit]
    except ValueError:
        raise ValueError(f"{value!r} is not a duration: seconds, or a number with s, m, h, d or w") from None
    if seconds <= 0:
        raise ValueError(f"{value!r} is not a duration above zero")
    return timedelta(seconds=seconds)


def revisit_policy(settings: BaseSettings) -> RevisitPolicy:
    """The crawl's revisit policy from its ``RECRAWL_*`` settings (ValueError names a bad one)."""
    schedule, change = settings.get("RECRAWL_POLICY"), settings.get("RECRAWL_CHANGE")
    if schedule not in SCHEDULES:
        raise ValueError(f"RECRAWL_POLICY must be one of {', '.join(SCHEDULES)}, not {schedule!r}")
    if change not in ("content", "html"):
        raise ValueError(f"RECRAWL_CHANGE must be content or html, not {change!r}")
    freshness = settings.getfloat("RECRAWL_TARGET_FRESHNESS")
    if not 0 < freshness < 1:
        raise ValueError(f"RECRAWL_TARGET_FRESHNESS must be above 0 and below 1, not {freshness!r}")
    return RevisitPolicy(
        interval=_duration(settings, "RECRAWL_INTERVAL"),
        min_interval=_duration(settings, "RECRAWL_MIN_INTERVAL"),
        max_interval=_duration(settings, "RECRAWL_MAX_INTERVAL"),
        inc_rate=settings.getfloat("RECRAWL_INC_RATE"),
        dec_rate=settings.getfloat("RECRAWL_DEC_RATE"),
        schedule=schedule,
        target_freshness=freshness,
        change=change,
    )


def _duration(settings: BaseSettings, name: str) -> timedelta:
    try:
        return parse_duration(settings.get(name))
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
