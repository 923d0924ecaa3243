"""Scale-out benchmark (`make bench-scale`, issue 18): 1, 2 and 3 crawler processes on one frontier.

A generated news site (`benchmarks.sitegen`, ``--pages`` pages, seed 0) is served by nginx with an access
log (`benchmarks.nginx`), so the server is not the bottleneck and every fetch is counted where it happened.
For each fleet size N, N ``scrapy crawl site`` processes start at once with the same command: the same
seed, ``REDIS_URL`` (the machine's Redis, a key prefix of the run's own) and ``DATABASE_URL`` (a new
PostgreSQL database of the run's own). Each process runs under a launcher that reads its peak RSS alone
(`benchmarks.crawl.run_scrapy`).

Printed per fleet: wall seconds (first start to last exit), pages stored and pages per second, fetches at
the server, duplicate fetches (a path fetched more than once, robots.txt excepted, one per process), each
process's pages and peak RSS, whether the store holds each page once, and how many pages' clean text
(`clean_pages`) or cluster differ from the first fleet size's (one process) for the same URL.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from uuid import uuid4

import redis
from sqlalchemy import text

from benchmarks.crawl import CRAWL_SETTINGS, REPO_ROOT, ChildRun, run_scrapy
from benchmarks.nginx import parse_access_log, serve_nginx
from benchmarks.postgres import new_database
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
    stored: list[int]
    outcome: dict[str, tuple[str, str]]
    """Each stored URL's clean text (a digest) and cluster."""

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


def run_fleet(count: int, root: Path, folder: Path) -> FleetRun:
    """Crawl the site at `root` with `count` processes into a new database; its files in `folder`, a
    directory of its own."""
    folder.mkdir()
    log = folder / "access.log"
    with new_database(f"cc_scale_{count}") as database, serve_nginx(root, access_log=log, workers=2) as base:
        prefix = f"cleancrawl-bench:{uuid4().hex}"
        settings = {**CRAWL_SETTINGS, "DATABASE_URL": database, "REDIS_URL": REDIS_URL, "FLEET_KEY": prefix}
        settings["LOG_LEVEL"] = "INFO"
        arguments = ["crawl", "site", "-a", f"seeds={base}/"]
        arguments += [part for name, value in settings.items() for part in ("-s", f"{name}={value}")]
        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=count) as pool:
            futures = [
                pool.submit(run_scrapy, [*arguments, "-s", f"STATS_JSON_PATH={_stats(folder, count, i)}"],
                            folder / f"crawl-{count}-{i}.log")
                for i in range(count)
            ]  # fmt: skip
            children = [future.result() for future in futures]
        seconds = time.perf_counter() - started
        pages, distinct, outcome = _stored(database)
    counts = parse_access_log(log)
    fetched = {path: n for path, n in counts.per_path.items() if path != "/robots.txt"}
    stored = [_stat(_stats(folder, count, i), "item_scraped_count") for i in range(count)]
    duplicates = sum(n - 1 for n in fetched.values() if n > 1)
    return FleetRun(count, seconds, pages, distinct, counts.requests, duplicates, children, stored, outcome)


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
    """Each URL's clean-text digest and its cluster, named by the cluster's first URL: runs that group the
    pages alike name their clusters alike, whichever page founded each."""
    first: dict[str, str] = {}
    for url, _, cluster in rows:
        first[cluster] = min(first.get(cluster, url), url)
    return {url: (hashlib.blake2b(body.encode()).hexdigest(), first[cluster]) for url, body, cluster in rows}


def _stats(folder: Path, count: int, index: int) -> Path:
    return folder / f"stats-{count}-{index}.json"


def _stat(path: Path, key: str) -> int:
    return int(json.loads(path.read_text("utf-8")).get(key, 0)) if path.exists() else 0


def render(runs: list[FleetRun]) -> str:
    """The table of the runs."""
    header = (
        f"{'processes':>9} {'wall s':>7} {'pages':>7} {'pages/s':>8} {'vs 1':>6} {'fetches':>8} {'dup':>4}  "
        f"{'text ≠':>6} {'cluster ≠':>9}  pages per process / peak RSS MB per process / each page stored once"
    )
    base = runs[0].pages_per_second if runs else 0.0
    rows = [_row(run, runs[0], base) for run in runs]
    notes = ["text ≠, cluster ≠: pages whose clean text or cluster differ from the first run's (same URL)"]
    return "\n".join([*ruled(header, rows), *notes])


def _row(run: FleetRun, first: FleetRun, base: float) -> str:
    texts, clusters = run.differing(first)
    return (
        f"{run.processes:>9} {run.seconds:>7.1f} {run.pages:>7,} {run.pages_per_second:>8.1f} "
        f"{run.pages_per_second / base if base else 0:>5.2f}x {run.fetches:>8,} {run.duplicates:>4} "
        f"{texts:>6,} {clusters:>9,}  "
        f"{' / '.join(f'{n:,}' for n in run.stored)}; {' / '.join(f'{c.rss_mb:.0f}' for c in run.children)}; "
        f"{'yes' if run.pages == run.distinct_pages else 'NO'}"
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks.scale [--pages N] [--fleets 1,2,3]``."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scale", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--pages", type=int, default=20_000, help="pages of the generated site (default 20000)"
    )
    parser.add_argument("--fleets", default="1,2,3", help="fleet sizes to run (default 1,2,3)")
    args = parser.parse_args(argv)
    redis.Redis.from_url(REDIS_URL).ping()
    site = generated_site(args.pages, REPO_ROOT / ".cache" / "store")
    runs: list[FleetRun] = []
    with tempfile.TemporaryDirectory(prefix="cleancrawl-scale-") as folder:
        for count in (int(value) for value in args.fleets.split(",")):
            print(f"{count} process(es) crawling {args.pages:,} pages ...", flush=True)
            runs.append(run_fleet(count, site.root, Path(folder) / f"run-{len(runs)}"))
    print(render(runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
