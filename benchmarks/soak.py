"""The soak run of issue 15 (`make soak`): a generated site with faults mixed in, crawled to the end.

A site of ``--pages`` pages (`benchmarks.sitegen`, written once under ``.cache/soak``) is served by
`benchmarks.faults.FaultServer` with the issue's rates: 5% server errors (half a 503 that a retry gets past,
half a 500 on every attempt), 2% connection resets mid-body (then the page), 1% slow drips (3 s, under
``DOWNLOAD_TIMEOUT``), 1% oversized bodies (20 MB, past ``DOWNLOAD_MAXSIZE``; half with a Content-Length,
half without) and 1% wrong charsets. Each run crawls it with ``scrapy crawl site`` from the project, each
crawl in a process of its own, into a new store:

- ``sqlite``: one process into a SQLite file;
- ``postgresql``: one process into a PostgreSQL database of its own (created, then dropped);
- ``postgresql-2``: two processes started at once into one PostgreSQL database, ``CRAWL_LOCK=False``. Each
  has its own frontier (no shared frontier yet: issue 18), so both fetch the whole site; each page must
  still be stored once.

What a correct crawler stores is fixed before the crawl, from the fault of each path (`faults.py` decides
it per path from a hash): a page is *servable* unless its fault is permanent (``permanent-500``:
500 on every attempt; ``oversized``: past ``DOWNLOAD_MAXSIZE`` on every attempt). Transient faults (a 503
for the first attempt with ``RETRY_TIMES`` = 2, a reset then the page, a drip that ends within the
timeout, a wrong charset decoded as browsers do) leave a page servable. The *expected* pages are the
servable pages a crawler can find: reachable from ``/`` through the links of servable pages
(`FaultServer.reachable`); a page linked only from permanently broken pages cannot be found.

Each run reports: expected pages against pages stored, the expected pages missing, pages stored that are
not servable (or that no link leads to), duplicates (rows of one URL in ``pages``; one page under two
URLs), and per process its exit code, wall time, pages/s, peak RSS (``wait4``), requests and responses,
retries and skips by reason (Scrapy's and cleancrawl's stats), and ERROR lines in its log. The targets:
every expected page stored once, nothing else stored, 0 duplicates, every crawl exits 0, and a peak RSS
of at most 300 MB for one process.

``python -m benchmarks.soak [--pages 50000] [--runs sqlite,postgresql,postgresql-2] [--seed 0]
[--json FILE]``; exit 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import bindparam, create_engine, text

from benchmarks.faults import Fault, FaultConfig, FaultServer
from benchmarks.postgres import POSTGRES_SERVER, new_database
from benchmarks.sitegen import GeneratedSite, default_meta_dir, generate_site, load_site

REPO_ROOT = Path(__file__).resolve().parent.parent
CACHE = REPO_ROOT / ".cache" / "soak"
RUNS = ("sqlite", "postgresql", "postgresql-2")
RSS_TARGET_MB = 300.0
# A local server: no politeness delay, AutoThrottle off, 16 requests at once (as benchmarks/crawl.py).
# Everything else (retries, timeouts, size caps, Retry-After, trap guards) stays the project's default.
CRAWL_SETTINGS = {
    "AUTOTHROTTLE_ENABLED": "False",
    "DOWNLOAD_DELAY": "0",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
    "LOG_LEVEL": "INFO",
    "PROGRESS_INTERVAL_PAGES": "1000",
}
STAT_PREFIXES = ("retry/", "cleancrawl/pages_skipped/", "downloader/exception_type_count/")
STATS = (
    "downloader/request_count",
    "downloader/response_count",
    "cleancrawl/pages_crawled",
    "cleancrawl/pages_kept",
    "cleancrawl/pages_stored",
    "cleancrawl/pages_store_failed",
    "cleancrawl/pages_aliased",
    "cleancrawl/decode_replacements",
    "cleancrawl/reclean_failed",
    "cleancrawl/links_capped",
)


# --- the site and what a correct crawler stores of it ---------------------------------------------------


def soak_site(pages: int, cache: Path = CACHE) -> GeneratedSite:
    """The generated site of `pages` pages (seed 0) under `cache`, written once and reused afterwards."""
    root = cache / f"sitegen-{pages}"
    parameters = default_meta_dir(root) / "site.json"
    if parameters.is_file() and json.loads(parameters.read_text("utf-8"))["pages_requested"] == pages:
        return load_site(root)
    print(f"soak: generating a {pages}-page site under {root}", file=sys.stderr, flush=True)
    return generate_site(root, pages, overwrite=True)


@dataclass(frozen=True, slots=True)
class Expectation:
    """A site behind a fault server: its pages by fault, and which of them a correct crawl stores."""

    site: GeneratedSite
    config: FaultConfig
    pages: int
    faults: dict[str, int]  # fault -> pages
    servable: frozenset[str]  # paths not permanently broken
    expected: frozenset[str]  # servable and reachable from "/" through servable pages
    charset: frozenset[str]  # expected pages served with a wrong charset


def expectation(site: GeneratedSite, config: FaultConfig) -> Expectation:
    """What a correct crawl of `site` behind a fault server of `config` stores."""
    server = FaultServer(site.root, config)
    counts = server.fault_counts(site.kinds)
    reachable = frozenset(server.reachable("/"))
    return Expectation(
        site=site,
        config=config,
        pages=site.pages,
        faults={fault.value: counts[fault] for fault in Fault},
        servable=frozenset(server.servable(site.kinds)),
        expected=reachable,
        charset=frozenset(path for path in reachable if server.fault(path) == Fault.CHARSET),
    )


# --- running crawls -------------------------------------------------------------------------------------


@dataclass(slots=True)
class Process:
    """One `scrapy crawl site` process: how it ended, what it took and its stats."""

    returncode: int
    seconds: float
    peak_mb: float
    errors: int  # ERROR lines and tracebacks in its log, but for Scrapy's retry give-ups
    log: str
    stats: dict[str, Any] = field(default_factory=dict)

    def stat(self, key: str) -> int:
        return int(self.stats.get(key, 0) or 0)

    def counters(self) -> dict[str, int]:
        """The stats a soak reports: the main counters, then retries and skips by reason."""
        found = {key: self.stat(key) for key in STATS}
        for key in sorted(self.stats):
            if key.startswith(STAT_PREFIXES):
                found[key] = self.stat(key)
        return found


def crawl_command(start: str, store: str, stats: Path, settings: Mapping[str, str]) -> list[str]:
    """``scrapy crawl site`` from `start` into `store`, writing its final stats to `stats`."""
    every = {**CRAWL_SETTINGS, **settings, "DATABASE_URL": store, "STATS_JSON_PATH": str(stats)}
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"seeds={start}"]
    for name, value in every.items():
        command += ["-s", f"{name}={value}"]
    return command


def run_crawls(
    commands: Sequence[list[str]], logs: Sequence[Path], timeout: float
) -> list[tuple[int, float, float]]:
    """Start every command at once; (exit code, wall seconds, peak RSS MB) of each, killed past `timeout`.

    ``wait4`` on each child gives its own peak RSS (``RUSAGE_CHILDREN`` would be the maximum over all).
    """
    started = time.perf_counter()
    processes = []
    for command, log in zip(commands, logs, strict=True):
        with log.open("w") as output:
            processes.append(
                subprocess.Popen(command, cwd=REPO_ROOT, stdout=output, stderr=subprocess.STDOUT)
            )
    results: dict[int, tuple[int, float, float]] = {}
    while len(results) < len(processes):
        for number, process in enumerate(processes):
            if number in results:
                continue
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                process.returncode = os.waitstatus_to_exitcode(status)
                results[number] = (process.returncode, time.perf_counter() - started, usage.ru_maxrss / 1024)
        if len(results) < len(processes):
            if time.perf_counter() - started > timeout:
                for number, process in enumerate(processes):
                    if number not in results:
                        process.send_signal(signal.SIGKILL)
            time.sleep(0.2)
    return [results[number] for number in range(len(processes))]


def count_errors(log: Path) -> int:
    """ERROR lines of a crawl's log and its tracebacks, less Scrapy's "Gave up retrying" (a permanent 500
    ends that way; they are counted in ``retry/max_reached``)."""
    with log.open(encoding="utf-8", errors="replace") as lines:
        return sum(
            ("] ERROR: " in line and "] ERROR: Gave up retrying " not in line) or line.startswith("Traceback")
            for line in lines
        )


@contextmanager
def new_store(engine: str, folder: Path, postgres: str = POSTGRES_SERVER) -> Iterator[str]:
    """The URL of a new, empty store: a SQLite file in `folder`, or a PostgreSQL database of its own,
    dropped afterwards."""
    if engine == "sqlite":
        path = folder / "soak.db"
        for stale in folder.glob("soak.db*"):
            stale.unlink()
        yield f"sqlite:///{path}"
        return
    with new_database("cc_soak", postgres) as url:
        yield url


# --- reading the store ----------------------------------------------------------------------------------


def page_key(path: str) -> str:
    """A path as one page: ``/a``, ``/a/`` and ``/a/index.html`` are the same page of a static site."""
    if path.endswith("/index.html"):
        path = path[: -len("index.html")]
    return path if path.endswith("/") else path + "/"


@dataclass(frozen=True, slots=True)
class Stored:
    """What the store holds: its rows by URL path, and the duplicates among them."""

    rows: int
    paths: frozenset[str]
    duplicate_urls: dict[str, int]  # URL -> rows, for URLs of more than one row in `pages`
    duplicate_pages: dict[str, list[str]]  # one page stored under several URLs
    shared_text: int  # pages whose clean text another stored URL holds too (reported, not a target)


# What a wrong decode leaves in text: U+FFFD, or UTF-8 read as windows-1252 ("â€™" for "’", "Ã©" for "é").
GARBLED = ("\ufffd", "â€", "Ã", "Â")


def garbled_pages(store: str, urls: Sequence[str]) -> list[str]:
    """The URLs among `urls` whose stored clean text shows a wrong decode."""
    if not urls:
        return []
    query = text("SELECT url, text FROM clean_pages WHERE url IN :urls").bindparams(
        bindparam("urls", expanding=True)
    )
    engine = create_engine(store)
    try:
        with engine.connect() as connection:
            rows = connection.execute(query, {"urls": list(urls)}).all()
    finally:
        engine.dispose()
    return sorted(url for url, clean in rows if any(mark in (clean or "") for mark in GARBLED))


def read_store(store: str) -> Stored:
    """The rows of `pages` in `store`, by URL."""
    engine = create_engine(store)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT url, content_hash FROM pages")).all()
    finally:
        engine.dispose()
    by_url = Counter(url for url, _ in rows)
    by_page: dict[str, set[str]] = {}
    for url, _ in rows:
        by_page.setdefault(page_key(urlsplit(url).path), set()).add(url)
    by_text = Counter(content for _, content in rows)
    return Stored(
        rows=len(rows),
        paths=frozenset(urlsplit(url).path for url in by_url),
        duplicate_urls={url: count for url, count in by_url.items() if count > 1},
        duplicate_pages={key: sorted(urls) for key, urls in by_page.items() if len(urls) > 1},
        shared_text=sum(count for count in by_text.values() if count > 1),
    )


# --- one run --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Run:
    """One soak run: its crawls, what the store holds against what it should, the server's load."""

    name: str
    engine: str
    pages: int
    servable: int
    expected: int
    stored: int
    missing: list[str]  # expected, not stored
    unservable_stored: list[str]  # stored though permanently broken
    unexpected: list[str]  # servable, stored, but not reachable by links (reported)
    duplicate_urls: dict[str, int]
    duplicate_pages: dict[str, list[str]]
    shared_text: int
    garbled: list[str]  # wrong-charset pages whose stored clean text shows a wrong decode (reported)
    seconds: float
    requests: int  # answered by the server, all processes
    answers: dict[str, int]  # the server's answers by kind
    processes: list[Process]

    @property
    def duplicates(self) -> int:
        return sum(count - 1 for count in self.duplicate_urls.values()) + sum(
            len(urls) - 1 for urls in self.duplicate_pages.values()
        )

    @property
    def stored_once(self) -> bool:
        """Every expected page stored, once, and no page that is not servable."""
        return not self.missing and not self.unservable_stored and not self.duplicates

    def failures(self, rss_target: float = RSS_TARGET_MB) -> list[str]:
        """The targets this run misses, each as a line."""
        found = []
        if self.missing:
            found.append(f"{len(self.missing)} expected pages not stored, e.g. {self.missing[:3]}")
        if self.unservable_stored:
            found.append(
                f"{len(self.unservable_stored)} unservable pages stored: {self.unservable_stored[:3]}"
            )
        if self.duplicates:
            found.append(f"{self.duplicates} duplicates")
        for number, process in enumerate(self.processes, 1):
            if process.returncode:
                found.append(f"process {number} exited with {process.returncode} (log {process.log})")
            if process.errors:
                found.append(
                    f"process {number} logged {process.errors} ERROR lines or tracebacks ({process.log})"
                )
        if len(self.processes) == 1 and self.processes[0].peak_mb > rss_target:
            found.append(f"peak RSS {self.processes[0].peak_mb:.0f} MB > {rss_target:.0f} MB")
        return found


def _answer_kind(answer: str) -> str:
    """A server answer without the detail that varies ("200 oversized, client left" -> "200 oversized")."""
    return answer.split(",")[0].replace(" unannounced", "")


def soak_run(
    name: str,
    expected: Expectation,
    store: str,
    workdir: Path,
    processes: int = 1,
    settings: Mapping[str, str] | None = None,
    timeout: float = 7200,
) -> Run:
    """Crawl the site behind a new fault server with `processes` crawls at once into `store`, and check it."""
    workdir.mkdir(parents=True, exist_ok=True)
    extra = dict(settings or {})
    if processes > 1:
        extra["CRAWL_LOCK"] = "False"
    server = FaultServer(expected.site.root, expected.config)
    with server as base:
        stats = [workdir / f"{name}-{number}.stats.json" for number in range(1, processes + 1)]
        logs = [workdir / f"{name}-{number}.log" for number in range(1, processes + 1)]
        for stale in stats:
            stale.unlink(missing_ok=True)
        commands = [crawl_command(base + "/", store, path, extra) for path in stats]
        started = time.perf_counter()
        ended = run_crawls(commands, logs, timeout)
        seconds = time.perf_counter() - started
        answers = Counter(
            _answer_kind(answer) for path in list(server.records) for answer in server.record(path).answers
        )
        requests = server.requests()
        charset_urls = sorted(base + path for path in expected.charset)
    crawls = [
        Process(code, wall, peak, count_errors(log), str(log), _read_stats(path))
        for (code, wall, peak), log, path in zip(ended, logs, stats, strict=True)
    ]
    held = read_store(store)
    return Run(
        name=name,
        engine=store.split(":", 1)[0].split("+")[0],
        pages=expected.pages,
        servable=len(expected.servable),
        expected=len(expected.expected),
        stored=held.rows,
        missing=sorted(expected.expected - held.paths),
        unservable_stored=sorted(held.paths - expected.servable),
        unexpected=sorted((held.paths & expected.servable) - expected.expected),
        duplicate_urls=held.duplicate_urls,
        duplicate_pages=held.duplicate_pages,
        shared_text=held.shared_text,
        garbled=garbled_pages(store, charset_urls),
        seconds=seconds,
        requests=requests,
        answers=dict(sorted(answers.items())),
        processes=crawls,
    )


def _read_stats(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    loaded = json.loads(path.read_text("utf-8"))
    return loaded if isinstance(loaded, dict) else {}


# --- report ---------------------------------------------------------------------------------------------


def render_run(run: Run) -> str:
    """One run's figures as text."""
    verdict = "every expected page stored once" if run.stored_once else "NOT every expected page stored once"
    lines = [
        f"== {run.name}: {len(run.processes)} process(es) into {run.engine}, {run.seconds:.0f} s: {verdict}",
        f"   pages {run.pages}, servable {run.servable}, expected (servable and reachable) {run.expected}, "
        f"stored {run.stored}; missing {len(run.missing)}, unservable stored {len(run.unservable_stored)}, "
        f"stored but unreachable {len(run.unexpected)}; duplicates {run.duplicates} "
        f"(URLs of several rows {len(run.duplicate_urls)}, pages under several URLs "
        f"{len(run.duplicate_pages)}); pages sharing their clean text with another {run.shared_text}; "
        f"wrong-charset pages garbled (U+FFFD or mojibake in the clean text) {len(run.garbled)}",
        f"   server: {run.requests} requests; answers "
        + ", ".join(f"{k} {v}" for k, v in run.answers.items()),
    ]
    for number, process in enumerate(run.processes, 1):
        stored = process.stat("cleancrawl/pages_stored")
        lines.append(
            f"   process {number}: exit {process.returncode}, {process.seconds:.0f} s, "
            f"{stored / process.seconds if process.seconds else 0:.1f} pages stored/s, "
            f"{process.stat('downloader/response_count') / process.seconds if process.seconds else 0:.1f} "
            f"responses/s, peak RSS {process.peak_mb:.0f} MB, ERROR lines and tracebacks {process.errors}"
        )
        lines.append("     " + ", ".join(f"{key} {value}" for key, value in process.counters().items()))
    for sample, label in ((run.missing, "missing"), (run.unservable_stored, "unservable stored")):
        if sample:
            lines.append(f"   {label}: " + " ".join(sample[:10]))
    return "\n".join(lines)


def render_summary(runs: Sequence[Run], pages: int, rss_target: float = RSS_TARGET_MB) -> str:
    """The runs side by side, and the targets."""
    lines = [
        f"soak of a {pages}-page generated site with faults",
        "| run | processes | expected | stored | missing | duplicates | wall s | pages stored/s | "
        "peak RSS MB | requests per process | exit |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        peaks = " / ".join(f"{p.peak_mb:.0f}" for p in run.processes)
        requests = " / ".join(str(p.stat("downloader/request_count")) for p in run.processes)
        codes = " / ".join(str(p.returncode) for p in run.processes)
        lines.append(
            f"| {run.name} | {len(run.processes)} | {run.expected} | {run.stored} | {len(run.missing)} | "
            f"{run.duplicates} | {run.seconds:.0f} | {run.stored / run.seconds if run.seconds else 0:.1f} | "
            f"{peaks} | {requests} | {codes} |"
        )
    failures = [f"{run.name}: {line}" for run in runs for line in run.failures(rss_target)]
    lines.append(
        "targets: every expected page stored once, 0 duplicates, exit 0, "
        f"peak RSS <= {rss_target:.0f} MB for one process: " + ("met" if not failures else "MISSED")
    )
    lines += [f"  missed: {line}" for line in failures]
    return "\n".join(lines)


# --- CLI ------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Generate (once) the site, run the soak runs asked for, print their figures; 1 if a target is missed."""
    args = _arguments(argv)
    runs_wanted = [name.strip() for name in args.runs.split(",") if name.strip()]
    unknown = [name for name in runs_wanted if name not in RUNS]
    if unknown:
        raise SystemExit(f"soak: unknown run {unknown[0]!r}: {', '.join(RUNS)}")
    site = soak_site(args.pages, args.cache)
    config = FaultConfig(seed=args.seed)
    expected = expectation(site, config)
    print(
        f"soak: {site.pages} pages, faults "
        + ", ".join(f"{fault} {count}" for fault, count in expected.faults.items())
        + f"; servable {len(expected.servable)}, expected (reachable) {len(expected.expected)}",
        file=sys.stderr,
        flush=True,
    )
    workdir = args.cache / f"runs-{args.pages}"
    runs = []
    for name in runs_wanted:
        engine = "sqlite" if name == "sqlite" else "postgresql"
        with new_store(engine, workdir if engine == "sqlite" else args.cache, args.postgres) as store:
            workdir.mkdir(parents=True, exist_ok=True)
            print(f"soak: {name} ...", file=sys.stderr, flush=True)
            run = soak_run(
                name, expected, store, workdir,
                processes=2 if name == "postgresql-2" else 1, timeout=args.timeout,
            )  # fmt: skip
        print(render_run(run), flush=True)
        runs.append(run)
    print(render_summary(runs, site.pages, args.rss_target), flush=True)
    if args.json:
        figures = [{**asdict(run), "duplicates": run.duplicates} for run in runs]
        args.json.write_text(json.dumps(figures, indent=1) + "\n", "utf-8")
    return 1 if any(run.failures(args.rss_target) for run in runs) else 0


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--pages", type=int, default=50_000, help="pages of the generated site (default 50000)"
    )
    parser.add_argument("--runs", default=",".join(RUNS), help=f"comma-separated, of {', '.join(RUNS)}")
    parser.add_argument(
        "--seed", type=int, default=0, help="the fault server's seed (which paths get faults)"
    )
    parser.add_argument(
        "--timeout", type=float, default=7200, help="seconds a run may take before it is killed"
    )
    parser.add_argument("--rss-target", type=float, default=RSS_TARGET_MB, help="MB, one process")
    parser.add_argument("--postgres", default=POSTGRES_SERVER, help="server URL, without a database")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where the site and the logs go")
    parser.add_argument("--json", type=Path, help="write every run's figures to this file")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(main())
