"""``scrapy schedule``: run a crawl on a timetable until stopped.

Usage::

    scrapy schedule site -a seeds=URL[,URL...] --every 6h [--runs N] [-s NAME=VALUE ...]

Every ``--every`` (seconds, or a number with ``s``, ``m``, ``h``, ``d``, ``w``) from its start, the
command runs ``scrapy crawl`` with the same spider, arguments and settings in a process of its own, so
that each run is the incremental recrawl the crawl state makes of it: what is due is fetched, the rest
waits. A slot that comes while a run is still going is skipped, not queued. Two runs never overlap on one
store, whoever started them (this command, cron, a person): each crawl holds the store's crawl lock
(``CRAWL_LOCK``), and a slot whose store is locked is logged and skipped.

After each run one line sums it up from the run's stats: URLs due, responses fetched, unchanged (304 or
the same clean text), changed, new and gone pages. Ctrl-C (or SIGTERM) stops the timetable; a run in
progress is asked to stop as Ctrl-C stops a crawl, and its state is kept. ``--runs N`` stops after N runs.
The exit code is 1 when the last run failed, else 0.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from scrapy.exceptions import UsageError
from scrapy.utils.conf import arglist_to_dict
from scrapy.utils.log import configure_logging

from crawler.addon import apply_defaults
from crawler.command_base import ProjectCommand
from pipelines.lock import CrawlLock, CrawlLockHeldError
from pipelines.revisit import parse_duration
from pipelines.storage import make_engine
from records import stats

logger = logging.getLogger(__name__)


class Command(ProjectCommand):
    """Run a crawl every INTERVAL (an incremental recrawl each time) until stopped."""

    usage = "[options] <spider> --every INTERVAL"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """Scrapy's common options, spider arguments, the interval and a number of runs."""
        super().add_options(parser)
        parser.add_argument("-a", dest="spargs", action="append", default=[], metavar="NAME=VALUE")
        parser.add_argument("--every", metavar="INTERVAL", help="time between two runs' starts, e.g. 6h")
        parser.add_argument("--runs", type=int, default=0, metavar="N", help="stop after N runs (0: never)")

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """Check the interval and the spider arguments before the first run."""
        assert self.settings is not None
        apply_defaults(self.settings)
        super().process_options(args, opts)
        try:
            opts.spargs = arglist_to_dict(opts.spargs)
        except ValueError:
            raise UsageError("invalid -a value, use -a NAME=VALUE") from None
        if not opts.every:
            raise UsageError("--every INTERVAL is required, e.g. --every 6h")
        try:
            opts.interval = parse_duration(opts.every).total_seconds()
        except ValueError as error:
            raise UsageError(f"--every {opts.every}: {error}") from None
        if opts.interval <= 0 or opts.runs < 0:
            raise UsageError("--every must be positive and --runs not negative")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Run the timetable."""
        if len(args) != 1:
            raise UsageError("name one spider, e.g. scrapy schedule site -a seeds=URL --every 6h")
        assert self.settings is not None
        configure_logging(self.settings)
        timetable = Timetable(args[0], opts, self.settings.get("DATABASE_URL") or "")
        self.exitcode = timetable.run()


class Timetable:
    """The runs of one schedule: start each at its slot, sum it up, sleep until the next slot."""

    def __init__(self, spider: str, opts: argparse.Namespace, database_url: str) -> None:
        self.spider = spider
        self.opts = opts
        self.database_url = database_url
        self.stopping = False
        self.child: subprocess.Popen[bytes] | None = None

    def run(self) -> int:
        """Run until stopped or `--runs` is reached; 1 when the last run failed."""
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, self._stop)
        started, runs, failed = time.monotonic(), 0, False
        while not self.stopping and (not self.opts.runs or runs < self.opts.runs):
            runs += 1
            failed = self._run_once(runs)
            slots = int((time.monotonic() - started) // self.opts.interval) + 1
            self._sleep_until(started + slots * self.opts.interval)
        return int(failed)

    def _run_once(self, number: int) -> bool:
        """One run, or a logged skip when another crawl holds the store; True when it failed."""
        if self._store_locked():
            logger.info("Run %d skipped: another crawl holds the store", number)
            return False
        with tempfile.TemporaryDirectory(prefix="cleancrawl-schedule-") as folder:
            stats_path = Path(folder) / "stats.json"
            logger.info("Run %d: %s", number, " ".join(self._command(stats_path)[2:]))
            self.child = subprocess.Popen(self._command(stats_path))
            code = self.child.wait()
            self.child = None
            values = json.loads(stats_path.read_text("utf-8")) if stats_path.exists() else {}
        if code:
            logger.error("Run %d failed with exit code %d", number, code)
        else:
            logger.info("Run %d done: %s", number, run_summary(values))
        return code != 0

    def _command(self, stats_path: Path) -> list[str]:
        command = [sys.executable, "-m", "scrapy", "crawl", self.spider]
        for name, value in self.opts.spargs.items():
            command += ["-a", f"{name}={value}"]
        for pair in self.opts.set:
            command += ["-s", pair]
        if not any(pair.startswith("STATS_JSON_PATH=") for pair in self.opts.set):
            command += ["-s", f"STATS_JSON_PATH={stats_path}"]
        if self.opts.loglevel:
            command += ["--loglevel", self.opts.loglevel]
        return command

    def _store_locked(self) -> bool:
        if not self.database_url:
            return False
        engine = make_engine(self.database_url)
        try:
            CrawlLock.acquire(engine).release()
        except CrawlLockHeldError:
            return True
        finally:
            engine.dispose()
        return False

    def _sleep_until(self, moment: float) -> None:
        while not self.stopping and time.monotonic() < moment:
            time.sleep(min(1.0, moment - time.monotonic()))

    def _stop(self, signum: int, frame: Any) -> None:
        """Stop after the run in progress, which gets the signal too (Scrapy stops a crawl cleanly)."""
        if not self.stopping:
            logger.info("Stopping the schedule (%s)", signal.Signals(signum).name)
        self.stopping = True
        if self.child is not None and signum == signal.SIGTERM:
            self.child.send_signal(signal.SIGINT)


def run_summary(values: dict[str, Any]) -> str:
    """What one run did, from its stats."""
    counts = {
        "due": values.get(stats.RECRAWL_DUE, 0),
        "fetched": values.get("downloader/response_count", 0),
        "not modified": values.get("downloader/response_status_count/304", 0),
        "unchanged": values.get(stats.RECRAWL_UNCHANGED, 0),
        "changed": values.get(stats.RECRAWL_CHANGED, 0),
        "new": values.get(stats.PAGES_NEW, 0),
        "gone": values.get(stats.RECRAWL_GONE, 0),
    }
    return ", ".join(f"{count} {name}" for name, count in counts.items())
