"""Run one extractor over in-memory pages, timing only the extractor calls and tracking peak memory.

Memory: the resident-set high-water mark (Linux `VmHWM`) is reset through `/proc/self/clear_refs` just
before the run, so after it `VmHWM` is the largest RSS reached during this extractor's run. We report that
peak minus the RSS at the start of the run: the memory the extractor itself added (parsed trees, caches),
without the interpreter, the imported libraries and the pages already loaded. tracemalloc would miss lxml's C
allocations and slow lxml down. Where the reset is not possible (non-Linux), the fallback is the growth of
`ru_maxrss`, which only shows a run that rises above every earlier peak of the process (a lower bound).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import resource
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from extraction.evaluate.datasets import Page
from extraction.evaluate.peers import Extractor

_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")


@dataclass(slots=True, frozen=True)
class Run:
    """One extractor's predictions over the pages, with cost figures."""

    name: str
    predictions: dict[str, str]
    failures: int
    seconds: float
    peak_memory_mb: float
    peak_rss_mb: float

    @property
    def pages_per_second(self) -> float:
        """Pages divided by the time spent inside extractor calls."""
        return len(self.predictions) / self.seconds if self.seconds > 0 else 0.0


def run_extractor(extractor: Extractor, pages: Sequence[Page]) -> Run:
    """Extract every page; a tolerated exception is an empty prediction, anything else names the page."""
    _release_free_memory()
    baseline_kb, peak = _start_peak_tracking()
    predictions: dict[str, str] = {}
    failures = 0
    seconds = 0.0
    for page in pages:
        started = time.perf_counter()
        try:
            predictions[page.page_id] = extractor.run(page.html, page.url)
        except extractor.tolerated:
            predictions[page.page_id] = ""
            failures += 1
        except Exception as error:
            error.add_note(f"{extractor.name} failed on page {page.page_id}")
            raise
        finally:
            seconds += time.perf_counter() - started
    peak_kb = peak()
    added_mb = max(0, peak_kb - baseline_kb) / 1024
    return Run(extractor.name, predictions, failures, seconds, added_mb, peak_kb / 1024)


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
