"""Run extractors over in-memory pages, timing only the extractor calls and tracking peak memory.

Fairness: before each timed pass an extractor is called untimed on the first few pages (`warmup`), so lazy
imports, compiled patterns and first-call caches are not charged to whichever extractor happens to run
first. `run_rounds` repeats the timed passes, rotating the order of the extractors each round, and keeps
each extractor's fastest pass, as `timeit` does: on a shared machine a slower pass measures other processes.

Memory: the resident-set high-water mark (Linux `VmHWM`) is reset through `/proc/self/clear_refs` just
before the run (warm-up included: what it caches is memory the extractor needs), so after it `VmHWM` is the
largest RSS reached during this extractor's run. We report that
peak minus the RSS at the start of the run: the memory the extractor itself added (parsed trees, caches),
without the interpreter, the imported libraries and the pages already loaded. tracemalloc would miss lxml's C
allocations and slow lxml down. Where the reset is not possible (non-Linux), the fallback is the growth of
`ru_maxrss`, which only shows a run that rises above every earlier peak of the process (a lower bound).
With several passes the largest peak of any pass is reported: a later pass, finding the caches of an earlier
one already grown, would otherwise understate what the extractor needs.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import resource
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from extraction.config import ExtractionConfig
from extraction.errors import ExtractionError
from extraction.evaluate.datasets import Page
from extraction.evaluate.peers import Extractor
from extraction.methods.base import Params, SitePage
from extraction.methods.registry import get_method

_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")


@dataclass(slots=True, frozen=True)
class BlockOutcome:
    """One block of a method's result: its text and whether the method labelled it content."""

    text: str
    content: bool


# One page's call: its predicted text and, for a method, its blocks.
PageCall = Callable[[Page], tuple[str, list[BlockOutcome] | None]]


@dataclass(slots=True, frozen=True)
class Run:
    """One extractor's predictions over the pages, with cost figures; a method's run (`run_method`) also
    keeps its blocks per page, which the block-level scores need. `seconds` is the fastest of `passes`
    timed passes (`run_rounds`)."""

    name: str
    predictions: dict[str, str]
    failures: int
    seconds: float
    peak_memory_mb: float
    peak_rss_mb: float
    blocks: dict[str, list[BlockOutcome]] = field(default_factory=dict)
    passes: int = 1

    @property
    def pages_per_second(self) -> float:
        """Pages divided by the time spent inside extractor calls."""
        return len(self.predictions) / self.seconds if self.seconds > 0 else 0.0


def run_rounds(passes: Sequence[Callable[[], Run]], repeat: int) -> list[Run]:
    """Call every timed pass `repeat` times, each round starting one extractor later (A B C, B C A, ...);
    return one Run per pass, in the given order, with the first pass's predictions (they are deterministic),
    the fastest pass's seconds and the largest peak memory any pass reached."""
    runs: list[list[Run]] = [[] for _ in passes]
    for round_number in range(repeat):
        for offset in range(len(passes)):
            index = (round_number + offset) % len(passes)
            runs[index].append(passes[index]())
    return [_best(timed) for timed in runs]


def _best(runs: Sequence[Run]) -> Run:
    """The first run with the shortest time and the highest memory peaks of all the runs."""
    return replace(
        runs[0],
        seconds=min(run.seconds for run in runs),
        peak_memory_mb=max(run.peak_memory_mb for run in runs),
        peak_rss_mb=max(run.peak_rss_mb for run in runs),
        passes=len(runs),
    )


def run_extractor(extractor: Extractor, pages: Sequence[Page], warmup: int = 0) -> Run:
    """Extract every page, after `warmup` untimed calls on the first pages; a tolerated exception is an
    empty prediction, anything else names the page."""

    def one(page: Page) -> tuple[str, list[BlockOutcome] | None]:
        return extractor.run(page.html, page.url), None

    return _timed(extractor.name, pages, one, extractor.tolerated, keeps_blocks=False, warmup=warmup)


def run_method(
    name: str,
    pages: Sequence[Page],
    config: ExtractionConfig | None = None,
    params: Params | None = None,
    warmup: int = 0,
) -> Run:
    """Run the method of `extraction.methods` called `name` over the pages (after `warmup` untimed calls on
    the first pages), keeping each block's label.

    A site-level method first learns, for each page, from the other pages of its site (`Page.site`;
    a page without one learns from nothing); that learning is timed with the page. Only an
    `ExtractionError` (input the method refuses) counts as an empty prediction.
    """
    method = get_method(name, config, params)
    sites: dict[str, list[Page]] = {}
    for page in pages:
        sites.setdefault(page.site or page.page_id, []).append(page)

    def one(page: Page) -> tuple[str, list[BlockOutcome] | None]:
        learner = method
        if method.site_level:
            learner = get_method(name, config, params)
            others = [other for other in sites[page.site or page.page_id] if other is not page]
            learner.learn([SitePage(other.html, other.url) for other in others])
        result = learner.extract(page.html, page.url)
        return result.text, [BlockOutcome(block.text, block.is_content) for block in result.blocks]

    return _timed(name, pages, one, (ExtractionError,), keeps_blocks=True, warmup=warmup)


def _timed(
    name: str,
    pages: Sequence[Page],
    one: PageCall,
    tolerated: tuple[type[Exception], ...],
    keeps_blocks: bool,
    warmup: int,
) -> Run:
    """Call `one` untimed on the first `warmup` pages, then on every page, timing only those calls and
    tracking the peak memory both add; a page whose call raised a tolerated exception has an empty
    prediction (and no block, if blocks are kept)."""
    _release_free_memory()
    baseline_kb, peak = _start_peak_tracking()
    for page in pages[:warmup]:
        _attempt(name, page, one, tolerated)
    predictions: dict[str, str] = {}
    blocks: dict[str, list[BlockOutcome]] = {}
    failures = 0
    seconds = 0.0
    for page in pages:
        started = time.perf_counter()
        outcome = _attempt(name, page, one, tolerated)
        seconds += time.perf_counter() - started
        if outcome is None:
            outcome = "", [] if keeps_blocks else None
            failures += 1
        predictions[page.page_id], outcomes = outcome
        if outcomes is not None:
            blocks[page.page_id] = outcomes
    peak_kb = peak()
    added_mb = max(0, peak_kb - baseline_kb) / 1024
    return Run(name, predictions, failures, seconds, added_mb, peak_kb / 1024, blocks)


def _attempt(
    name: str, page: Page, one: PageCall, tolerated: tuple[type[Exception], ...]
) -> tuple[str, list[BlockOutcome] | None] | None:
    """`one(page)`, or None when it raised a tolerated exception; any other exception names the page."""
    try:
        return one(page)
    except tolerated:
        return None
    except Exception as error:
        error.add_note(f"{name} failed on page {page.page_id}")
        raise


def _release_free_memory() -> None:
    """Collect garbage and hand free heap pages back to the OS (glibc), so the previous extractor's freed
    memory does not sit in the RSS baseline and hide this extractor's growth."""
    gc.collect()
    # Not glibc: the baseline keeps freed memory, so growth is under-reported.
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _start_peak_tracking() -> tuple[int, Callable[[], int]]:
    """Reset the RSS high-water mark if the OS allows; return the baseline (KiB) and a peak reader."""
    try:
        _CLEAR_REFS.write_text("5")
        rss = _status_kib("VmRSS")
        if rss is not None:
            return rss, _hwm_reader
    except OSError:
        pass
    return _maxrss_kib(), _maxrss_kib


def _hwm_reader() -> int:
    """The process's RSS high-water mark since the last reset, in KiB."""
    return _status_kib("VmHWM") or 0


def _status_kib(field: str) -> int | None:
    """A `kB` field of /proc/self/status, or None when absent."""
    for line in _STATUS.read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    return None


def _maxrss_kib() -> int:
    """ru_maxrss in KiB (Linux reports KiB, macOS bytes)."""
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return maxrss // 1024 if sys.platform == "darwin" else maxrss
