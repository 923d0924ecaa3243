"""Crawl benchmark (`make bench-crawl`): cleancrawl against a plain Scrapy crawl of the same local sites.

For each site of `benchmarks.sites` that is built (``make sites-data``; served from disk on 127.0.0.1 by
nginx, or `http.server` without it) this runs, one after the other, in subprocesses with the same settings
(AutoThrottle off, no delay, 16 requests per host):

- ``plain``: a `CrawlSpider` with a default `LinkExtractor`, no pipelines and none of the project's add-on
  (`PlainSpider` below, run with ``scrapy runspider``), the baseline a Scrapy user starts from;
- ``single-page``: the `site` spider with extraction, clustering, noise removal and SQLite storage,
  site models off (``SITE_MODELS_ENABLED=False``): every page keeps its single-page labels;
- ``cleancrawl``: the same with site models on (the default): cluster models revise labels and re-clean
  stored pages; its ``model s`` column is the time the models took inline (observing and revising each
  page), ``reclean s`` the time the re-cleaning passes took, and ``models`` their share of the crawl.

It prints one table: wall time, pages, pages per second and peak memory (max RSS of the crawl process alone)
of each crawl; stored bytes against raw HTML and against all visible text (`index_savings`); the F1 of
the stored clean text (`clean_pages`) against the site's ground truth (GT: the ground-truth pages the
crawl reached) with the benchmark metric; and, for comparison, trafilatura and readability run
in-process over the served files of the same pages (their time is extraction alone, no crawl).

With ``--methods all`` (or a list of names, `extraction.methods.registry.METHODS`) it runs instead one
``site`` crawl per extraction method (``EXTRACTION_METHOD``, everything else as the ``cleancrawl`` run)
and prints the same columns, one row per method, each scored on the ground-truth pages its crawl reached.

Usage: ``python -m benchmarks.crawl [--shared DIR] [--sites all|NAME,...] [--peers trafilatura,...]
[--methods all|NAME,...]``
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scrapy.linkextractors import LinkExtractor
from scrapy.settings import BaseSettings
from scrapy.spiders import CrawlSpider, Rule

from benchmarks.nginx import serve_site
from benchmarks.options import add_shared_option
from benchmarks.sites import DEFAULT_CACHE, TestSite, catalogue
from benchmarks.tables import ruled
from extraction.evaluate.metric import Summary, score_page, summarize
from extraction.evaluate.peers import PeerUnavailableError, load_peer
from extraction.methods.registry import DEFAULT_METHOD, METHODS, get_method

REPO_ROOT = Path(__file__).resolve().parent.parent
PYTHON_DOCS = Path("/usr/share/doc/python3.11/html")
# Identical for both crawlers: a local server needs no politeness, and the comparison wants equal load.
CRAWL_SETTINGS = {
    "AUTOTHROTTLE_ENABLED": "False",
    "DOWNLOAD_DELAY": "0",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
    "LOG_LEVEL": "INFO",
}


class PlainSpider(CrawlSpider):
    """The baseline: follow every link the default `LinkExtractor` finds on the start URL's host."""

    name = "plain"
    rules = (Rule(LinkExtractor(), follow=True),)

    def __init__(self, start: str = "", **kwargs: Any) -> None:
        self.start_urls = [start]
        self.allowed_domains = [urlsplit(start).hostname or ""]
        super().__init__(**kwargs)

    @classmethod
    def update_settings(cls, settings: BaseSettings) -> None:
        """None of the project's add-on (cleancrawl's pipelines, extensions and middlewares: it would open
        the store), no item pipelines, and Scrapy's own meta refresh, as a plain crawl has."""
        super().update_settings(settings)
        plain = {"ADDONS": {}, "ITEM_PIPELINES": {}, "METAREFRESH_ENABLED": True}
        settings.setdict(plain, priority="spider")


@dataclass(slots=True, frozen=True)
class ServedSite:
    """A site the benchmarks serve: its name, its files, and the path a crawl starts from."""

    name: str
    root: Path
    start: str


@dataclass(slots=True, frozen=True)
class TruthPage:
    """One ground-truth page: its file under the site root, the URL paths that may reach it, its text."""

    file: str
    paths: tuple[str, ...]
    text: str


@dataclass(slots=True)
class Figures:
    """What one run measured: a crawl (subprocess), or a peer extractor over the files (in-process)."""

    name: str
    pages: int
    seconds: float
    """The run ("cleancrawl", "single-page", another method's name or a peer's), the pages it kept (a peer:
    the ground-truth pages it extracted) and its wall time."""
    max_rss_mb: float | None = None
    stored_vs_html: float | None = None
    stored_vs_text: float | None = None
    """The store's bytes against the pages' HTML and against their clean text (`index_savings`)."""
    f1: Summary | None = None
    # Site models: seconds inline (observing, revising) and re-cleaning stored pages, within `seconds`.
    model_seconds: float | None = None
    reclean_seconds: float | None = None

    @property
    def model_share(self) -> float | None:
        """The share of the crawl's wall time its site models took (inline and re-cleaning)."""
        if self.reclean_seconds is None or not self.seconds:
            return None
        return ((self.model_seconds or 0.0) + self.reclean_seconds) / self.seconds


def load_truth(path: Path) -> list[TruthPage]:
    """The ground truth of a site (sites/README.md): one page per line.

    A page may be crawled under its `url_path` (whizzy links directories: `/2009/05/x/`) or under its
    file's path (the Python docs link `c-api/index.html`, whose `url_path` is `/c-api/`).
    """
    pages = []
    for line in path.read_text("utf-8").splitlines():
        record = json.loads(line)
        paths = (record["url_path"], "/" + record["file"])
        pages.append(TruthPage(record["file"], paths, record["main_text"]))
    return pages


def stored_text(texts: dict[str, str], base: str, page: TruthPage) -> str | None:
    """The stored clean text of a ground-truth page (`texts`: URL -> text, from `clean_pages`), or None."""
    for path in page.paths:
        text = texts.get(base + path)
        if text is not None:
            return text
    return None


def score_stored(texts: dict[str, str], base: str, truth: list[TruthPage]) -> Summary:
    """The benchmark metric over the ground-truth pages; a page that was not stored counts as empty."""
    return summarize([score_page(page.text, stored_text(texts, base, page) or "") for page in truth])


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table."""
    options = _arguments(argv)
    wanted = options.sites.split(",")
    peers = [name for name in options.peers.split(",") if name]
    methods = _methods(options.methods)
    rows: list[SiteRow] = []
    for site in catalogue(options.shared, DEFAULT_CACHE):
        if wanted != ["all"] and site.name not in wanted:
            continue
        if not site.root.is_dir() or not site.truth.is_file():
            missing = f"{site.root} or {site.truth} is missing (make sites-data)"
            print(f"skipping {site.name}: {missing}", file=sys.stderr)
            continue
        rows.append(bench_methods(site, methods) if methods else bench_site(site, peers))
    print(render(rows))
    return 0


@dataclass(slots=True)
class SiteRow:
    """The figures of one site: both crawls, then the peers on the ground-truth pages the crawl stored."""

    site: TestSite
    runs: list[Figures]


def bench_site(site: TestSite, peers: list[str]) -> SiteRow:
    """Serve the site, crawl it both ways, score the stored text, then the peers on the same pages."""
    truth = load_truth(site.truth)
    print(f"{site.name}: crawling", file=sys.stderr)
    with serve_site(site.root) as base, tempfile.TemporaryDirectory() as tmp:
        plain = run_plain(base + site.start, Path(tmp))
        single, single_texts = run_cleancrawl(base + site.start, Path(tmp), site_models=False)
        ours, texts = run_cleancrawl(base + site.start, Path(tmp), site_models=True)
    # Ground-truth pages that no link reaches (4 of the Python docs) cannot be crawled: score the rest.
    reached = [page for page in truth if stored_text(texts, base, page) is not None]
    single.f1 = score_stored(single_texts, base, reached)
    ours.f1 = score_stored(texts, base, reached)
    print(f"{site.name}: scoring peers on {len(reached)} of {len(truth)} ground-truth pages", file=sys.stderr)
    runs = [plain, single, ours]
    for name in peers:
        try:
            runs.append(peer_figures(name, site.root, reached))
        except PeerUnavailableError as error:
            print(f"{name} not run: {error}", file=sys.stderr)
    return SiteRow(site, runs)


def bench_methods(site: TestSite, methods: list[str]) -> SiteRow:
    """Serve the site and crawl it once per extraction method; score each crawl's stored text."""
    truth = load_truth(site.truth)
    runs = []
    with serve_site(site.root) as base, tempfile.TemporaryDirectory() as tmp:
        for method in methods:
            print(f"{site.name}: crawling with {method}", file=sys.stderr)
            figures, texts = run_cleancrawl(base + site.start, Path(tmp), site_models=True, method=method)
            reached = [page for page in truth if stored_text(texts, base, page) is not None]
            figures.f1 = score_stored(texts, base, reached)
            runs.append(figures)
    return SiteRow(site, runs)


def _methods(names: str) -> list[str]:
    """The methods of ``--methods``: every one for "all"; an unknown name is an error before any crawl."""
    if names == "all":
        return list(METHODS)
    methods = [name for name in names.split(",") if name]
    for name in methods:
        get_method(name)
    return methods


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.crawl", description=__doc__.splitlines()[0])
    add_shared_option(parser, "sites/")
    parser.add_argument(
        "--sites", default="all", help="comma-separated site names (benchmarks.sites), or all that are built"
    )
    parser.add_argument(
        "--peers",
        default="trafilatura,trafilatura-comments,readability",
        help="peer extractors to score (trafilatura-comments: its default, comments kept)",
    )
    parser.add_argument(
        "--methods", default="", help="'all' or comma-separated extraction methods: one crawl per method"
    )
    return parser.parse_args(argv)


def run_plain(start: str, tmp: Path) -> Figures:
    """Crawl with `PlainSpider`; its pages are the responses it received, robots.txt aside (from the stats
    Scrapy dumps into its log: the project's add-on, which writes them to a file, is off)."""
    log_path = tmp / "plain.log"
    child = run_scrapy(["runspider", str(Path(__file__)), "-a", f"start={start}", *_settings()], log_path)
    log = log_path.read_text("utf-8", errors="replace")
    pages = _logged_stat(log, "response_received_count") - _logged_stat(log, "robotstxt/response_count")
    return Figures("plain Scrapy", pages, child.seconds, child.rss_mb)


def _logged_stat(log: str, name: str) -> int:
    """A count from the stats a crawl's log ends with (0 when absent)."""
    found = re.search(rf"'{re.escape(name)}': (\d+)", log)
    return int(found.group(1)) if found else 0


def run_cleancrawl(
    start: str, tmp: Path, site_models: bool, method: str = DEFAULT_METHOD
) -> tuple[Figures, dict[str, str]]:
    """Crawl with the `site` spider into a new SQLite file; the figures and the stored clean text by URL.

    The run is named after its method, or for cleancrawl's own, "cleancrawl" or "single-page" (site models
    off); site models are part of the cleancrawl method only.
    """
    name = method if method != DEFAULT_METHOD else "cleancrawl" if site_models else "single-page"
    stats_path, database = tmp / f"{name}-stats.json", tmp / f"{name}.sqlite"
    settings = _settings(
        STATS_JSON_PATH=str(stats_path),
        DATABASE_URL=f"sqlite:///{database}",
        SITE_MODELS_ENABLED=str(site_models),
        EXTRACTION_METHOD=method,
    )
    child = run_scrapy(["crawl", "site", "-a", f"seeds={start}", *settings], tmp / f"{name}.log")
    seconds, rss = child.seconds, child.rss_mb
    stats = json.loads(stats_path.read_text("utf-8"))
    figures = Figures(name, int(stats.get("cleancrawl/pages_kept", 0)), seconds, rss)
    if "cleancrawl/reclean_seconds" in stats:
        figures.reclean_seconds = float(stats["cleancrawl/reclean_seconds"])
        figures.model_seconds = float(stats.get("cleancrawl/site_model_seconds", 0.0))
    with sqlite3.connect(database) as connection:
        row = connection.execute("SELECT stored_vs_html, stored_vs_text FROM index_savings").fetchone()
        figures.stored_vs_html, figures.stored_vs_text = row
        texts = dict(connection.execute("SELECT url, text FROM clean_pages").fetchall())
    return figures, texts


def _settings(**extra: str) -> list[str]:
    pairs = {**CRAWL_SETTINGS, **extra}
    return [arg for name, value in pairs.items() for arg in ("-s", f"{name}={value}")]


@dataclass(frozen=True, slots=True)
class ChildRun:
    """A finished scrapy child: wall seconds, its own CPU seconds and peak RSS in MB."""

    seconds: float
    cpu: float
    rss_mb: float


# Runs argv[2:] as its own child and writes that child's peak RSS (KiB) to the file argv[1]. A child
# forked from the benchmark starts with the benchmark's own peak (Linux keeps the high-water mark across
# fork and exec), which the peers' libraries and texts raise to hundreds of MB; a grandchild does not.
_MEASURE_RSS = (
    "import resource, subprocess, sys; code = subprocess.call(sys.argv[2:]); "
    "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)); "
    "sys.exit(code)"
)


def run_scrapy(scrapy_args: list[str], log_path: Path) -> ChildRun:
    """Run `python -m scrapy ARGS` from the repository root, its output in `log_path`; RuntimeError with the
    log's end when it fails."""
    rss_path = log_path.with_suffix(".rss")
    scrapy = [sys.executable, "-m", "scrapy", *scrapy_args]
    command = [sys.executable, "-c", _MEASURE_RSS, str(rss_path), *scrapy]
    started = time.perf_counter()
    with log_path.open("w") as log:
        process = subprocess.Popen(command, cwd=REPO_ROOT, stdout=log, stderr=log)
        # wait4 on this child gives its own CPU time, the crawl's included (RUSAGE_CHILDREN sums all).
        _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code:
        tail = log_path.read_text("utf-8", errors="replace")[-3000:]
        raise RuntimeError(f"scrapy {' '.join(scrapy_args[:2])} exited with {code}:\n{tail}")
    return ChildRun(seconds, usage.ru_utime + usage.ru_stime, int(rss_path.read_text()) / 1024)


def peer_figures(name: str, root: Path, truth: list[TruthPage]) -> Figures:
    """A peer's F1 and speed over the served files of the ground-truth pages, decoded as UTF-8."""
    peer = load_peer(name)
    scores = []
    started = time.perf_counter()
    for page in truth:
        html = (root / page.file).read_bytes().decode("utf-8", errors="replace")
        try:
            text = peer.run(html, None)
        except peer.tolerated:
            text = ""
        scores.append(score_page(page.text, text))
    return Figures(name, len(truth), time.perf_counter() - started, f1=summarize(scores))


# The columns of `render`'s table, each as wide as `_line` pads its cells.
TABLE_HEADER = (
    f"{'site':<10} {'run':<16} {'pages':>6} {'wall s':>7} {'pages/s':>8} {'peak MB':>8} "
    f"{'stored/HTML':>11} {'stored/text':>11} {'GT':>4} {'F1':>6} {'P':>6} {'R':>6} "
    f"{'model s':>7} {'reclean s':>9} {'models':>6}"
)


def render(rows: list[SiteRow]) -> str:
    """The benchmark table: one line per crawl and per peer (peers: extraction alone, in-process)."""
    return "\n".join(ruled(TABLE_HEADER, (_line(row.site.name, run) for row in rows for run in row.runs)))


def _line(site: str, run: Figures) -> str:
    rate = run.pages / run.seconds if run.seconds else 0.0
    memory = "" if run.max_rss_mb is None else f"{run.max_rss_mb:.0f}"
    return (
        f"{site:<10} {run.name:<16} {run.pages:>6} {run.seconds:>7.1f} {rate:>8.1f} {memory:>8} "
        f"{_ratio(run.stored_vs_html):>11} {_ratio(run.stored_vs_text):>11} {_summary(run.f1):>25}"
        f"{_model_cells(run)}"
    )


def _model_cells(run: Figures) -> str:
    """The site models' seconds inline and re-cleaning, and their share of the wall time."""
    if run.reclean_seconds is None:
        return ""
    return f" {run.model_seconds or 0.0:>7.2f} {run.reclean_seconds:>9.2f} {_ratio(run.model_share):>6}"


def _ratio(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}%"


def _summary(score: Summary | None) -> str:
    if score is None:
        return ""
    return f"{score.pages:>4} {score.f1:>6.3f} {score.precision:>6.3f} {score.recall:>6.3f}"


if __name__ == "__main__":
    sys.exit(main())
