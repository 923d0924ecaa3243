"""Scale-out benchmark (`make bench-scale`, issue 18): 1, 2 and 3 crawler processes on one frontier.

A generated news site (`benchmarks.sitegen`, ``--pages`` pages, seed 0), or with ``--site`` a test site of
`benchmarks.sites` (the PostgreSQL manual: one template over pages of several kinds, which processes meeting
them in other orders could cluster otherwise), is served by nginx with an access log (`benchmarks.nginx`),
so the server is not the bottleneck and every fetch is counted where it happened.
For each fleet size N, N ``scrapy crawl site`` processes start at once with the same command: the same
seed, ``REDIS_URL`` (the machine's Redis, a key prefix of the run's own) and ``DATABASE_URL`` (a new
PostgreSQL database of the run's own). Each process runs under a launcher that reads its peak RSS alone
(`benchmarks.crawl.run_scrapy`).

Then, unless ``--kill 0``, two processes of which one is killed (SIGKILL) once the server has answered
``--kill`` of the site's pages, with a short ``FLEET_LEASE_TIMEOUT`` (40 s), so that the survivor takes
the dead process's requests back within the run: the pages stored, each once, against one process's, and
the paths of any page lost (the run's logs are kept in ``.cache/scale/killed``).

Printed per fleet: wall seconds (first start to last exit), pages stored and pages per second, fetches at
the server, duplicate fetches (a path fetched more than once, robots.txt excepted, one per process), each
process's pages and peak RSS, whether the store holds each page once, and how many pages' clean text
(`clean_pages`) or cluster differ from the first fleet size's (one process) for the same URL; then issue
18's targets, met or missed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit
from uuid import uuid4

import redis
from sqlalchemy import text

from benchmarks.crawl import CRAWL_SETTINGS, REPO_ROOT, ChildRun, run_scrapy
from benchmarks.nginx import parse_access_log, serve_nginx
from benchmarks.options import add_shared_option
from benchmarks.postgres import new_database
from benchmarks.sites import DEFAULT_CACHE, TestSite, catalogue
from benchmarks.store import generated_site
from benchmarks.tables import ruled
from pipelines.storage import make_engine

REDIS_URL = "redis://127.0.0.1:6379/0"


@dataclass(frozen=True, slots=True)
class FleetRun:
    """What one fleet size measured."""

    processes: int
    seconds: float
    """The crawl processes run side by side on one database and one Redis, and the wall time until the last
    of them ended."""
    pages: int
    distinct_pages: int
    """The rows of `pages` and the distinct URLs among them (a page stored twice counts once)."""
    fetches: int
    duplicates: int
    """The requests the web server logged, and the fetches of a path after its first (robots.txt aside)."""
    children: list[ChildRun]
    machine_cpu: float
    """The CPU seconds the whole machine spent while the fleet ran (`/proc/stat`): the crawl processes, and
    PostgreSQL, Redis and nginx serving them."""
    stored: list[int]
    outcome: dict[str, tuple[str, str]]
    """Each stored page's clean text (a digest) and cluster, by its URL's path."""

    def differing(self, other: FleetRun) -> tuple[int, int]:
        """Of the URLs both runs stored, how many differ in clean text and how many in cluster."""
        common = self.outcome.keys() & other.outcome.keys()
        text = sum(self.outcome[url][0] != other.outcome[url][0] for url in common)
        cluster = sum(self.outcome[url][1] != other.outcome[url][1] for url in common)
        return text, cluster

    @property
    def pages_per_second(self) -> float:
        """Pages stored per wall second."""
        return self.pages / self.seconds if self.seconds else 0.0

    def cpu_per_thousand(self) -> tuple[float, float]:
        """CPU seconds per 1,000 pages stored: the crawl processes', and the rest of the machine's."""
        crawlers = sum(child.cpu for child in self.children)
        per = 1000 / self.pages if self.pages else 0.0
        return crawlers * per, max(0.0, self.machine_cpu - crawlers) * per


def run_fleet(count: int, root: Path, folder: Path, start: str = "/") -> FleetRun:
    """Crawl the site at `root` from its path `start` with `count` processes into a new database; its files
    in `folder`, a directory of its own."""
    folder.mkdir()
    log = folder / "access.log"
    with new_database(f"cc_scale_{count}") as database, serve_nginx(root, access_log=log, workers=2) as base:
        arguments = _fleet_crawl(base + start, database, LOG_LEVEL="INFO")
        started, busy = time.perf_counter(), _busy_cpu_seconds()
        with ThreadPoolExecutor(max_workers=count) as pool:
            futures = [
                pool.submit(run_scrapy, [*arguments, "-s", f"STATS_JSON_PATH={_stats(folder, count, i)}"],
                            folder / f"crawl-{count}-{i}.log")
                for i in range(count)
            ]  # fmt: skip
            children = [future.result() for future in futures]
        seconds, machine_cpu = time.perf_counter() - started, _busy_cpu_seconds() - busy
        pages, distinct, outcome = _stored(database)
    counts = parse_access_log(log)
    fetched = {path: n for path, n in counts.per_path.items() if path != "/robots.txt"}
    stored = [_stat(_stats(folder, count, i), "item_scraped_count") for i in range(count)]
    duplicates = sum(n - 1 for n in fetched.values() if n > 1)
    return FleetRun(
        count, seconds, pages, distinct, counts.requests, duplicates, children, machine_cpu, stored, outcome
    )


def _busy_cpu_seconds() -> float:
    """The CPU seconds all the machine's cores have spent busy since boot (Linux's `/proc/stat`: every state
    but idle and waiting for I/O)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(value) for value in fields)
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True, slots=True)
class KillRun:
    """Two processes, one of them killed (SIGKILL) mid-crawl: what the survivor and the store ended with."""

    killed_after: int
    """Pages the server had answered when the process was killed."""
    survivor_code: int
    pages: int
    distinct_pages: int
    outcome: dict[str, tuple[str, str]]
    """Each stored page's clean text (a digest) and cluster, by its URL's path."""


def run_killed(root: Path, folder: Path, kill_share: float, start: str = "/") -> KillRun:
    """Crawl the site at `root` with two processes into a new database and kill the first once the server
    has answered `kill_share` of the site's pages; the survivor takes back the requests the dead process
    held when their leases run out (``FLEET_LEASE_TIMEOUT``, short here) and finishes the crawl."""
    folder.mkdir()
    log = folder / "access.log"
    expected = sum(1 for _ in root.rglob("*.html"))
    with new_database("cc_scale_kill") as database, serve_nginx(root, access_log=log, workers=2) as base:
        command = [sys.executable, "-m", "scrapy", *_fleet_crawl(base + start, database, **_KILL_SETTINGS)]
        logs = [(folder / f"crawl-{i}.log").open("w") for i in range(2)]
        doomed, survivor = (
            subprocess.Popen(command, cwd=REPO_ROOT, stdout=out, stderr=subprocess.STDOUT) for out in logs
        )
        served = 0
        while doomed.poll() is None and served < kill_share * expected:
            time.sleep(0.5)
            served = _lines(log)
        doomed.kill()
        doomed.wait()
        code = survivor.wait()
        for out in logs:
            out.close()
        pages, distinct, outcome = _stored(database)
    kept = REPO_ROOT / ".cache" / "scale" / "killed"
    shutil.rmtree(kept, ignore_errors=True)
    shutil.copytree(folder, kept)  # the crawl logs and the access log, to find what a lost page went through
    return KillRun(served, code, pages, distinct, outcome)


def _fleet_crawl(seed: str, database: str, **extra: str) -> list[str]:
    """The arguments of `scrapy` for the processes of one fleet crawling from `seed` into `database`, under a
    new Redis key prefix: made once per fleet, given to each of its processes."""
    settings = {**CRAWL_SETTINGS, "DATABASE_URL": database, "REDIS_URL": REDIS_URL, **extra}
    settings["FLEET_KEY"] = f"cleancrawl-bench:{uuid4().hex}"
    arguments = ["crawl", "site", "-a", f"seeds={seed}"]
    return arguments + [part for name, value in settings.items() for part in ("-s", f"{name}={value}")]


# The kill run: a request the dead process held goes back to the queue after FLEET_LEASE_TIMEOUT, which must
# be above DOWNLOAD_TIMEOUT x (RETRY_TIMES + 1) (`crawler.default_settings`).
_KILL_SETTINGS = {"FLEET_LEASE_TIMEOUT": "40", "DOWNLOAD_TIMEOUT": "10", "RETRY_TIMES": "2"}


def _lines(path: Path) -> int:
    with path.open("rb") as log:
        return sum(1 for _ in log)


def _stored(database: str) -> tuple[int, int, dict[str, tuple[str, str]]]:
    """Pages stored, distinct URLs among them, and each URL's clean-text digest and cluster."""
    engine = make_engine(database)
    try:
        with engine.connect() as connection:
            row = connection.execute(text("SELECT count(*), count(DISTINCT url) FROM pages")).one()
            rows = connection.execute(text("SELECT url, text, site || ' ' || cluster FROM clean_pages"))
            return (
                int(row[0]),
                int(row[1]),
                _outcome([(str(url), str(body), str(cluster)) for url, body, cluster in rows]),
            )
    finally:
        engine.dispose()


def _outcome(rows: Sequence[tuple[str, str, str]]) -> dict[str, tuple[str, str]]:
    """Each page's clean-text digest and its cluster, by the URL's path (each run serves the site on a port
    of its own), the cluster named by its first path: runs that group the pages alike name their clusters
    alike, whichever page founded each."""
    paths = [(_path(url), body, cluster) for url, body, cluster in rows]
    first: dict[str, str] = {}
    for path, _, cluster in paths:
        first[cluster] = min(first.get(cluster, path), path)
    digest = hashlib.blake2b
    return {path: (digest(body.encode()).hexdigest(), first[cluster]) for path, body, cluster in paths}


def _path(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}" if parts.query else parts.path


def _stats(folder: Path, count: int, index: int) -> Path:
    return folder / f"stats-{count}-{index}.json"


def _stat(path: Path, key: str) -> int:
    return int(json.loads(path.read_text("utf-8")).get(key, 0)) if path.exists() else 0


def targets(runs: Sequence[FleetRun], killed: KillRun | None) -> list[str]:
    """Issue 18's targets, met or missed, as the runs measured them."""
    lines = []
    one = next((run for run in runs if run.processes == 1), None)
    two = next((run for run in runs if run.processes == 2), None)
    if one and two:
        ratio = two.pages_per_second / one.pages_per_second if one.pages_per_second else 0.0
        lines.append(_target(ratio >= 1.5, f"2 processes at least 1.5x the pages/s of 1: {ratio:.2f}x"))
    duplicates = sum(run.duplicates for run in runs)
    lines.append(_target(duplicates == 0, f"0 duplicate fetches: {duplicates} over {len(runs)} fleets"))
    if one:
        differ = sum(sum(run.differing(one)) for run in runs)
        apart = sum(len(run.outcome.keys() ^ one.outcome.keys()) for run in runs)
        what = f"clean text and clusters as 1 process's: {differ} pages differ, {apart} stored by one only"
        lines.append(_target(not differ and not apart, what))
    if killed is not None:
        expected = one.distinct_pages if one else killed.distinct_pages
        whole = killed.survivor_code == 0 and killed.distinct_pages == killed.pages == expected
        lost = sorted(one.outcome.keys() - killed.outcome.keys()) if one else []
        what = (
            f"killing 1 of 2 processes loses no page: killed after {killed.killed_after:,} fetches, "
            f"{killed.distinct_pages:,} of {expected:,} pages stored, "
            f"{killed.pages - killed.distinct_pages} twice, the survivor's exit code {killed.survivor_code}"
            + (f"; lost: {', '.join(lost[:5])} (logs in .cache/scale/killed)" if lost else "")
        )
        lines.append(_target(whole, what))
    return lines


def _target(met: bool, what: str) -> str:
    return f"{'met' if met else 'MISSED'}: {what}"


def render(runs: list[FleetRun]) -> str:
    """The table of the runs."""
    header = (
        f"{'processes':>9} {'wall s':>7} {'pages':>7} {'pages/s':>8} {'vs 1':>6} {'fetches':>8} {'dup':>4}  "
        f"{'text ≠':>6} {'cluster ≠':>9} {'CPU s/1k':>13}  "
        "pages per process / peak RSS MB per process / each page stored once"
    )
    base = runs[0].pages_per_second if runs else 0.0
    rows = [_row(run, runs[0], base) for run in runs]
    notes = [
        "text ≠, cluster ≠: pages whose clean text or cluster differ from the first run's (same URL)",
        "CPU s/1k: CPU seconds per 1,000 pages stored, of the crawl processes + of the rest of the machine "
        "(PostgreSQL, Redis, nginx) while the fleet ran",
    ]
    return "\n".join([*ruled(header, rows), *notes])


def _row(run: FleetRun, first: FleetRun, base: float) -> str:
    texts, clusters = run.differing(first)
    crawlers, rest = run.cpu_per_thousand()
    return (
        f"{run.processes:>9} {run.seconds:>7.1f} {run.pages:>7,} {run.pages_per_second:>8.1f} "
        f"{run.pages_per_second / base if base else 0:>5.2f}x {run.fetches:>8,} {run.duplicates:>4} "
        f"{texts:>6,} {clusters:>9,} {crawlers:>6.1f} + {rest:>4.1f}  "
        f"{' / '.join(f'{n:,}' for n in run.stored)}; {' / '.join(f'{c.rss_mb:.0f}' for c in run.children)}; "
        f"{'yes' if run.pages == run.distinct_pages else 'NO'}"
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks.scale [--pages N | --site NAME] [--fleets 1,2,3] [--kill SHARE]``."""
    args = _arguments(argv)
    redis.Redis.from_url(REDIS_URL).ping()
    if args.site:
        site = _test_site(args.shared, args.site)
        root, start, what = site.root, site.start, f"the {site.name} site"
    else:
        root, start, what = (
            generated_site(args.pages, REPO_ROOT / ".cache" / "store").root,
            "/",
            f"{args.pages:,} pages",
        )
    runs: list[FleetRun] = []
    with tempfile.TemporaryDirectory(prefix="cleancrawl-scale-") as folder:
        for count in (int(value) for value in args.fleets.split(",")):
            print(f"{count} process(es) crawling {what} ...", flush=True)
            runs.append(run_fleet(count, root, Path(folder) / f"run-{len(runs)}", start))
        killed = None
        if args.kill:
            print(f"2 processes, one killed at {args.kill:.0%} of the site ...", flush=True)
            killed = run_killed(root, Path(folder) / "killed", args.kill, start)
    print(render(runs))
    print("\n".join(targets(runs, killed)))
    return 0


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scale", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--pages", type=int, default=20_000, help="pages of the generated site (default 20000)"
    )
    parser.add_argument(
        "--site",
        default="",
        help="a built test site to crawl instead (benchmarks.sites, e.g. postgresql-docs)",
    )
    add_shared_option(parser, "sites/, for --site whizzy or oemforum")
    parser.add_argument("--fleets", default="1,2,3", help="fleet sizes to run (default 1,2,3)")
    parser.add_argument(
        "--kill",
        type=float,
        default=0.3,
        help="share of the site fetched when one of two processes is "
        "killed, in a run of its own (default 0.3; 0: no such run)",
    )
    return parser.parse_args(argv)


def _test_site(shared: Path, name: str) -> TestSite:
    """The test site of that name whose files are here (its ground truth is not needed); exits with one line
    when there is none."""
    sites = {site.name: site for site in catalogue(shared, DEFAULT_CACHE) if site.root.is_dir()}
    if name not in sites:
        here = ", ".join(sorted(sites)) or "none"
        raise SystemExit(f"--site {name}: no such test site on this machine (here: {here}; make sites-data)")
    return sites[name]


if __name__ == "__main__":
    raise SystemExit(main())
