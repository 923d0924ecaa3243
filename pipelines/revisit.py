"""When to fetch a page again: Apache Nutch's AdaptiveFetchSchedule, on informative change.

After each fetch a page's revisit interval shrinks by `dec_rate` when the page changed and grows by
`inc_rate` when it did not, within [`min_interval`, `max_interval`]; the page is due again one interval
after the fetch (Nutch, `org.apache.nutch.crawl.AdaptiveFetchSchedule`, with its default rates 0.4 and 0.2;
its `SYNC_DELTA` correction is left out: most servers send no reliable modification time). A new page
starts at `interval`.

What counts as a change is the difference: Nutch compares a signature of the whole page, so a rotating ad
or a date in the footer is a change; cleancrawl compares the hash of the page's clean text (`change`
"content"), so only informative changes shorten the interval. "html" gives Nutch's own behaviour, and a
fixed policy (`adaptive` off) keeps every interval at `interval`: the recrawl benchmark compares the three.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from scrapy.settings import BaseSettings

Change = Literal["content", "html"]


@dataclass(frozen=True, slots=True)
class RevisitPolicy:
    """A revisit schedule (settings ``RECRAWL_*``)."""

    interval: timedelta = timedelta(days=1)
    min_interval: timedelta = timedelta(hours=1)
    max_interval: timedelta = timedelta(days=30)
    inc_rate: float = 0.4
    dec_rate: float = 0.2
    adaptive: bool = True
    change: Change = "content"

    def next_interval(self, current: timedelta | None, changed: bool) -> timedelta:
        """The interval after a fetch: the current one (a new page's: `interval`) moved by the outcome."""
        if current is None or not self.adaptive:
            return self.interval
        moved = current * (1 - self.dec_rate) if changed else current * (1 + self.inc_rate)
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
    policy, change = settings.get("RECRAWL_POLICY"), settings.get("RECRAWL_CHANGE")
    if policy not in ("adaptive", "fixed"):
        raise ValueError(f"RECRAWL_POLICY must be adaptive or fixed, not {policy!r}")
    if change not in ("content", "html"):
        raise ValueError(f"RECRAWL_CHANGE must be content or html, not {change!r}")
    return RevisitPolicy(
        interval=_duration(settings, "RECRAWL_INTERVAL"),
        min_interval=_duration(settings, "RECRAWL_MIN_INTERVAL"),
        max_interval=_duration(settings, "RECRAWL_MAX_INTERVAL"),
        inc_rate=settings.getfloat("RECRAWL_INC_RATE"),
        dec_rate=settings.getfloat("RECRAWL_DEC_RATE"),
        adaptive=policy == "adaptive",
        change=change,
    )


def _duration(settings: BaseSettings, name: str) -> timedelta:
    try:
        return parse_duration(settings.get(name))
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
