"""Store benchmark (`make bench-store`): cleancrawl's store against a baseline store of one crawl (issue 13).

For each site (whizzy, the Python 3.11 docs and a generated news site of ``--pages`` pages, each served from
disk on 127.0.0.1 by nginx, or by `http.server` without it) and each engine (SQLite, PostgreSQL), one
``site`` crawl in a subprocess (AutoThrottle off, no delay, 16 requests per host) writes both stores: the
clean store (``DATABASE_URL``) and the baseline (``BASELINE_DATABASE_URL``: every page's visible text whole,
with the same full-text index), both compacted the same way when the crawl ends. SQLite stores are new files;
PostgreSQL stores are new databases of their own on 127.0.0.1:5432, dropped afterwards.

Sizes (`pipelines.storage.sizes.savings_report`, `pipelines.storage.baseline.baseline_size`): raw HTML and
clean text are `index_savings`'; the store is SQLite's whole file (`ls -l`) or, on PostgreSQL, the
project's tables and indexes (the sum of the parts); the baseline is its file, or its table with its
indexes; the empty store is a new migrated store measured the same way. `scrapy savings`' sum of the parts
is checked against the file (SQLite) or the database less an empty one (PostgreSQL, ``template1``).

Search quality, the same queries on both stores (`pipelines.storage.search.search`, and the baseline's own
tables searched by the same code):

- title MRR: for each post (whizzy: ``/YYYY/MM/DD/slug/``; Python docs: every page; generated site: its
  ground-truth articles), the page's ``<title>`` as stored (``clean_pages.title``) less the site's suffix
  (the ``" – whizzy.org"`` that most of its titles end with) is the query; the page's rank among the first
  100 results (0 beyond), at most ``--queries`` posts drawn with ``--seed``, a post whose title is another
  page's too (the Python docs' 30 "Index" pages) passed over: no query can tell them apart;
- template phrases: the 5 lines of the baseline's text (``baseline_pages.text``, one block per line) that
  the most pages hold, on at least 90% of them and of at least 3 words, whose words no page holds in a
  row except as that line (else a query of them finds content too), each queried as a quoted phrase with
  every page a candidate: the pages each store returns (cleancrawl's should be none).

Each run prints a block: sizes, ratios, search figures, the crawl's wall time and issue 13's targets met
or missed; a summary table ends the output.

Usage: ``python -m benchmarks.store [--shared DIR] [--sites whizzy,python311,generated]
[--engines sqlite,postgresql] [--pages 20000] [--queries 300] [--seed 0]``
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from sqlalchemy import text
from sqlalchemy.orm import Session

from benchmarks.crawl import CRAWL_SETTINGS, PYTHON_DOCS, REPO_ROOT, ServedSite
from benchmarks.nginx import serve_site
from benchmarks.options import add_shared_option
from benchmarks.postgres import new_database
from benchmarks.sitegen import GeneratedSite, default_meta_dir, generate_site, load_site
from benchmarks.tables import ruled
from pipelines.storage import make_engine, migrate, session_factory
from pipelines.storage.baseline import BASELINE_STORE, baseline_size
from pipelines.storage.search import search, search_store, words
from pipelines.storage.sizes import PARTS, savings_report

ENGINES = ("sqlite", "postgresql")
RESULTS = 100  # a title's page ranked beyond this counts 0
SEPARATORS = (" – ", " — ", " | ", " - ")  # between a page's own title and the site's name
TEMPLATE_SHARE = 0.9
TEMPLATE_PHRASES = 5
TEMPLATE_WORDS = 3
_POST_PATH = re.compile(r"/\d{4}/\d{2}/\d{2}/[^/]+/")
# A page as search sees it: its words in order, and how many of its lines have each sequence of words.
PageWords = tuple[list[str], Counter[tuple[str, ...]]]


# --- pure helpers ------------------------------------------------------------------------------------------


def site_suffix(titles: Iterable[str]) -> str:
    """The site's name as its titles end with it (separator included, e.g. " – whizzy.org"): the most
    common ending after a separator, when at least half of the titles have it; else ""."""
    titles = list(titles)
    endings = Counter(
        separator + title.rpartition(separator)[2]
        for title in titles
        for separator in SEPARATORS
        if separator in title
    )
    if not endings:
        return ""
    ending, count = endings.most_common(1)[0]
    return ending if 2 * count >= len(titles) else ""


def clean_title(title: str, suffix: str) -> str:
    """A page's own title: its ``<title>`` less the site's suffix."""
    return title.removesuffix(suffix).strip() if suffix else title.strip()


def template_phrases(
    texts: Sequence[str], share: float = TEMPLATE_SHARE, count: int = TEMPLATE_PHRASES
) -> list[str]:
    """The `count` lines (blocks) that the most pages' texts hold, of those on at least `share` of the pages,
    of at least `TEMPLATE_WORDS` words and whose words no page holds in a row but as that line: most
    frequent first, ties in alphabetical order.

    Search matches words, not lines: a line such as "3.11.2 Documentation »" (a breadcrumb) is, as a quoted
    query, the words "3 11 2 documentation", which the Python docs' download page holds as content
    ("Download Python 3.11.2 Documentation"). A store that returns that page returns content, not the
    template; such a line is no test of template phrases and is passed over (`_only_as_lines`).
    """
    pages: Counter[str] = Counter()
    for page in texts:
        pages.update({line.strip() for line in page.split("\n")})
    frequent = [
        (line, held)
        for line, held in pages.items()
        if held >= share * len(texts) and len(words(line)) >= TEMPLATE_WORDS
    ]
    frequent.sort(key=lambda pair: (-pair[1], pair[0]))
    tokens: list[PageWords] = []
    chosen: list[str] = []
    for line, _ in frequent:
        if len(chosen) == count:
            break
        if not tokens:  # the pages' words, once, when there is a line to check
            tokens = [_page_words(page) for page in texts]
        if _only_as_lines(tuple(words(line)), tokens):
            chosen.append(line)
    return chosen


def _page_words(page: str) -> PageWords:
    """A page's words as search sees them (the whole text), and how many of its lines have each sequence."""
    lines = [tuple(words(line)) for line in page.split("\n")]
    return [word for line in lines for word in line], Counter(lines)


def _only_as_lines(phrase: tuple[str, ...], pages: Iterable[PageWords]) -> bool:
    """Whether the phrase's words, wherever a page holds them in a row, are a line of their own there."""
    size = len(phrase)
    for page_words, lines in pages:
        found = sum(
            1
            for index, word in enumerate(page_words)
            if word == phrase[0] and tuple(page_words[index : index + size]) == phrase
        )
        if found > lines[phrase]:
            return False
    return True


def reciprocal_rank(results: Sequence[str], url: str) -> float:
    """1/rank of `url` among the result URLs (best first), 0 when absent."""
    return 1 / (results.index(url) + 1) if url in results else 0.0


def mean(values: Sequence[float]) -> float:
    """The mean, 0 for no values."""
    return sum(values) / len(values) if values else 0.0


def sample(items: Sequence[str], count: int, seed: int) -> list[str]:
    """At most `count` of `items`, drawn with `seed` from their sorted order (the same draw every run)."""
    ordered = sorted(items)
    return sorted(random.Random(seed).sample(ordered, min(count, len(ordered))))


def is_whizzy_post(path: str) -> bool:
    """A whizzy post: ``/YYYY/MM/DD/slug/``."""
    return _POST_PATH.fullmatch(path) is not None


# --- sites, servers and stores ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Site(ServedSite):
    """A site to crawl, and which URL paths are its posts."""

    is_post: Callable[[str], bool]


def generated_site(pages: int, cache: Path) -> GeneratedSite:
    """The generated site of `pages` pages (seed 0), written under `cache` once and reused afterwards."""
    root = cache / f"sitegen-{pages}"
    parameters = default_meta_dir(root) / "site.json"
    if parameters.is_file() and json.loads(parameters.read_text("utf-8"))["pages_requested"] == pages:
        return load_site(root)
    print(f"generating a {pages}-page site under {root}", file=sys.stderr)
    return generate_site(root, pages, overwrite=True)


def sites(shared: Path, wanted: Sequence[str], pages: int) -> list[Site]:
    """The sites named in `wanted` (whizzy, python311, generated); the generated one is built when needed."""
    found = []
    for name in wanted:
        if name == "whizzy":
            found.append(Site(name, shared / "sites" / "whizzy", "/", is_whizzy_post))
        elif name == "python311":
            found.append(Site(name, PYTHON_DOCS, "/index.html", lambda _: True))
        elif name == "generated":
            generated = generated_site(pages, REPO_ROOT / ".cache" / "store")
            found.append(Site(name, generated.root, "/", article_paths(generated).__contains__))
        else:
            raise SystemExit(f"unknown site {name!r}: whizzy, python311 or generated")
    missing = [site for site in found if not site.root.is_dir()]
    for site in missing:
        print(f"skipping {site.name}: {site.root} is missing", file=sys.stderr)
    return [site for site in found if site not in missing]


def article_paths(site: GeneratedSite) -> frozenset[str]:
    """The URL paths of a generated site's articles, from its ground truth."""
    lines = site.ground_truth.read_text("utf-8").splitlines()
    return frozenset(json.loads(line)["url_path"] for line in lines)


@contextmanager
def new_store(engine: str, name: str) -> Iterator[str]:
    """The URL of a new, empty database: a SQLite file in a temporary folder, or a PostgreSQL database of its
    own (dropped afterwards), so that its size is the store's alone."""
    if engine == "sqlite":
        with tempfile.TemporaryDirectory(prefix="cleancrawl-store-") as folder:
            yield f"sqlite:///{Path(folder) / name}.db"
        return
    with new_database(f"cc_bench_{name}") as url:
        yield url


def empty_store_bytes(engine: str) -> int:
    """What a new migrated store takes, measured as a crawled one is (file, or tables and indexes)."""
    with new_store(engine, "empty") as url:
        migrate(url)
        return savings_report(url).size.store_bytes


def crawl(start: str, store: str, baseline: str, log: Path) -> float:
    """Crawl from `start` into both stores (``scrapy crawl site`` from the project); its wall seconds."""
    pairs = {**CRAWL_SETTINGS, "DATABASE_URL": store, "BASELINE_DATABASE_URL": baseline}
    settings = [arg for name, value in pairs.items() for arg in ("-s", f"{name}={value}")]
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"seeds={start}", *settings]
    started = time.perf_counter()
    with log.open("w") as output:
        finished = subprocess.run(command, cwd=REPO_ROOT, stdout=output, stderr=output, check=False)
    seconds = time.perf_counter() - started
    if finished.returncode:
        raise RuntimeError(f"the crawl of {start} exited with {finished.returncode}:\n{_tail(log)}")
    return seconds


def crawl_errors(log: Path) -> int:
    """The ERROR lines of a crawl's log (a page the spider or a pipeline failed on, for one)."""
    with log.open(encoding="utf-8", errors="replace") as lines:
        return sum("] ERROR: " in line for line in lines)


def _tail(log: Path) -> str:
    return log.read_text("utf-8", errors="replace")[-3000:]


# --- measures ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sizes:
    """One crawl's stores on disk, in bytes, and what the pages held."""

    pages: int
    raw_html: int
    clean_text: int
    baseline: int
    store: int
    parts: dict[str, int]
    empty: int
    # `scrapy savings`' sum of the parts, and what it must match: the file, or the database less template1.
    parts_sum: int
    accounted: int

    @property
    def growth_per_page(self) -> float:
        """What each page added to the store: (store - empty store) / pages."""
        return (self.store - self.empty) / self.pages if self.pages else 0.0

    @property
    def clean_text_per_page(self) -> float:
        """The clean text's UTF-8 bytes per page."""
        return self.clean_text / self.pages if self.pages else 0.0


def measure_sizes(store: str, baseline: str, empty: int) -> Sizes:
    """The stores of one crawl, measured by the engine."""
    report = savings_report(store)
    size = report.size
    accounted = size.on_disk if report.dialect == "sqlite" else size.on_disk - report.empty
    return Sizes(
        pages=sum(site.pages for site in report.sites),
        raw_html=sum(site.raw_html_bytes for site in report.sites),
        clean_text=sum(site.clean_text_bytes for site in report.sites),
        baseline=baseline_size(baseline).total,
        store=size.store_bytes,
        parts=size.parts,
        empty=empty,
        parts_sum=size.total,
        accounted=accounted,
    )


@dataclass(frozen=True, slots=True)
class Phrase:
    """A template phrase and the pages each store returns for it."""

    text: str
    baseline_pages: int
    store_pages: int
    """The pages each store returns for the phrase, quoted, with every page a candidate: the baseline's and
    cleancrawl's (which should return none)."""


@dataclass(frozen=True, slots=True)
class Quality:
    """Search quality of both stores: title MRR over `queries` posts, and the template phrases."""

    queries: int
    baseline_mrr: float
    store_mrr: float
    phrases: list[Phrase]
    # Posts passed over: their title is another page's too.
    shared: int = 0


def title_queries(
    titles: dict[str, str], is_post: Callable[[str], bool], count: int, seed: int
) -> dict[str, str]:
    """Post URL -> its title query, for at most `count` posts (a seeded draw) among those whose title has
    words and is no other page's (`shared_titles`)."""
    suffix = site_suffix(titles.values())
    shared = shared_titles(titles, suffix)
    posts = [
        url
        for url, title in titles.items()
        if is_post(urlsplit(url).path) and words(clean_title(title, suffix)) and url not in shared
    ]
    return {url: clean_title(titles[url], suffix) for url in sample(posts, count, seed)}


def shared_titles(titles: dict[str, str], suffix: str) -> set[str]:
    """The pages whose title (less `suffix`, as search's words) is another page's too: no query can tell
    them apart (the Python docs' 30 "Index" pages), so none of them is asked for."""
    keys = {url: tuple(words(clean_title(title, suffix))) for url, title in titles.items()}
    held = Counter(keys.values())
    return {url for url, key in keys.items() if held[key] > 1}


def measure_quality(store: str, baseline: str, site: Site, count: int, seed: int) -> Quality:
    """Run the title and template-phrase queries against both stores."""
    store_engine, baseline_engine = make_engine(store), make_engine(baseline)
    try:
        with session_factory(store_engine)() as ours, session_factory(baseline_engine)() as theirs:
            rows = ours.execute(text("SELECT url, title FROM clean_pages"))
            titles: dict[str, str] = {url: title or "" for url, title in rows}
            texts = list(theirs.execute(text("SELECT text FROM baseline_pages")).scalars())
            queries = title_queries(titles, site.is_post, count, seed)
            shared = shared_titles(titles, site_suffix(titles.values()))
            passed_over = sum(site.is_post(urlsplit(url).path) for url in shared)
            ranks = [_ranks(ours, theirs, query, url) for url, query in queries.items()]
            candidates = max(len(titles), len(texts))
            phrases = [_phrase(ours, theirs, line, candidates) for line in template_phrases(texts)]
    finally:
        store_engine.dispose()
        baseline_engine.dispose()
    baseline_mrr, store_mrr = mean([b for b, _ in ranks]), mean([s for _, s in ranks])
    return Quality(len(queries), baseline_mrr, store_mrr, phrases, passed_over)


def _ranks(ours: Session, theirs: Session, query: str, url: str) -> tuple[float, float]:
    """The reciprocal rank of `url` for `query` in the baseline, then in the clean store."""
    baseline_hits = search_store(theirs, BASELINE_STORE, query, "", RESULTS)
    store_hits = search(ours, query, limit=RESULTS)
    return (
        reciprocal_rank([hit.url for hit in baseline_hits], url),
        reciprocal_rank([hit.url for hit in store_hits], url),
    )


def _phrase(ours: Session, theirs: Session, line: str, candidates: int) -> Phrase:
    """The pages each store returns for `line` as a quoted phrase, every page a candidate."""
    query = f'"{line}"'
    baseline_hits = search_store(theirs, BASELINE_STORE, query, "", candidates, candidates)
    return Phrase(line, len(baseline_hits), len(search(ours, query, limit=candidates, candidates=candidates)))


# --- targets and output -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Run:
    """One crawl of a site on an engine, measured."""

    site: str
    engine: str
    seconds: float
    sizes: Sizes
    quality: Quality
    # ERROR lines in the crawl's log: a page lost to a bug, not to the site.
    errors: int = 0


@dataclass(frozen=True, slots=True)
class Target:
    """One of issue 13's targets as this run measured it."""

    name: str
    measured: str
    met: bool


def targets(run: Run) -> list[Target]:
    """Issue 13's targets that apply to this site and engine."""
    sizes, quality = run.sizes, run.quality
    found = [
        Target(
            "store <= baseline store", _percent(sizes.store, sizes.baseline), sizes.store <= sizes.baseline
        ),
        _within_five_percent(sizes),
        Target(
            "title MRR >= the baseline's",
            f"{quality.store_mrr:.3f} vs {quality.baseline_mrr:.3f}",
            quality.store_mrr >= quality.baseline_mrr,
        ),
        Target(
            "template phrases return 0 pages",
            f"{sum(phrase.store_pages for phrase in quality.phrases)} pages",
            all(phrase.store_pages == 0 for phrase in quality.phrases),
        ),
    ]
    return found + _site_targets(run)


def _within_five_percent(sizes: Sizes) -> Target:
    gap = abs(sizes.parts_sum - sizes.accounted)
    return Target(
        "`scrapy savings` total within 5% of disk",
        _percent(gap, sizes.accounted),
        20 * gap <= sizes.accounted,
    )


def _site_targets(run: Run) -> list[Target]:
    sizes = run.sizes
    if run.site == "whizzy" and run.engine == "sqlite":
        return [
            Target(
                "store <= 15% of raw HTML",
                _percent(sizes.store, sizes.raw_html),
                sizes.store <= 0.15 * sizes.raw_html,
            ),
            Target(
                "store <= 35% of baseline",
                _percent(sizes.store, sizes.baseline),
                sizes.store <= 0.35 * sizes.baseline,
            ),
        ]
    if run.site == "whizzy":
        return [
            Target(
                "store <= 40% of baseline",
                _percent(sizes.store, sizes.baseline),
                sizes.store <= 0.4 * sizes.baseline,
            )
        ]
    if run.site == "generated":
        growth, clean = sizes.growth_per_page, sizes.clean_text_per_page
        measured = f"{growth:,.0f} B/page vs 2 x {clean:,.0f}"
        return [Target("growth per page <= 2x clean text per page", measured, growth <= 2 * clean)]
    return []


def _percent(part: float, whole: float) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def render_run(run: Run) -> str:
    """One run's block: sizes, search quality, wall time and targets."""
    sizes, quality = run.sizes, run.quality
    per_page = max(sizes.pages, 1)
    store_kind = "whole file, ls -l" if run.engine == "sqlite" else "tables and indexes"
    lines = [
        f"== {run.site} on {run.engine}: {sizes.pages:,} pages, crawl {run.seconds:.1f} s wall, "
        f"{run.errors} ERROR lines in its log",
        f"  raw HTML            {sizes.raw_html:>14,} bytes",
        f"  clean text          {sizes.clean_text:>14,} bytes",
        f"  baseline store      {sizes.baseline:>14,} bytes  {sizes.baseline / per_page:>9,.0f} B/page",
        f"  cleancrawl store    {sizes.store:>14,} bytes  {sizes.store / per_page:>9,.0f} B/page "
        f"({store_kind})",
        *(f"    {part:<24}{sizes.parts.get(part, 0):>12,} bytes" for part in PARTS),
        f"  store / HTML {_percent(sizes.store, sizes.raw_html)}, "
        f"store / baseline {_percent(sizes.store, sizes.baseline)}",
        f"  empty store         {sizes.empty:>14,} bytes; growth {sizes.growth_per_page:,.0f} B/page, "
        f"clean text {sizes.clean_text_per_page:,.0f} B/page",
        f"  savings parts sum   {sizes.parts_sum:>14,} bytes against {sizes.accounted:,} "
        + ("(the file)" if run.engine == "sqlite" else "(the database less template1)"),
        f"  title MRR over {quality.queries} posts: baseline {quality.baseline_mrr:.3f}, "
        f"cleancrawl {quality.store_mrr:.3f} ({quality.shared} posts passed over: title shared)",
        "  template phrases (pages returned: baseline / cleancrawl):",
        *(f"    {p.baseline_pages:>6} / {p.store_pages:<6} {p.text[:80]!r}" for p in quality.phrases),
        "  targets:",
        *(f"    {'met   ' if t.met else 'MISSED'} {t.name}: {t.measured}" for t in targets(run)),
    ]
    return "\n".join(lines)


# The columns of `render_summary`'s table, each as wide as `_summary_row` pads its cells.
SUMMARY_HEADER = (
    f"{'site':<10} {'engine':<10} {'pages':>6} {'raw HTML':>12} {'baseline':>11} {'store':>11} "
    f"{'store/HTML':>10} {'store/base':>10} {'B/page':>7} {'MRR base':>8} {'MRR ours':>8} "
    f"{'tmpl base':>9} {'tmpl ours':>9} {'wall s':>7} {'targets':>7}"
)


def render_summary(runs: Sequence[Run]) -> str:
    """One row per site and engine."""
    return "\n".join(ruled(SUMMARY_HEADER, map(_summary_row, runs)))


def _summary_row(run: Run) -> str:
    sizes, quality, met = run.sizes, run.quality, targets(run)
    return (
        f"{run.site:<10} {run.engine:<10} {sizes.pages:>6} {sizes.raw_html:>12,} {sizes.baseline:>11,} "
        f"{sizes.store:>11,} {_percent(sizes.store, sizes.raw_html):>10} "
        f"{_percent(sizes.store, sizes.baseline):>10} {sizes.store / max(sizes.pages, 1):>7,.0f} "
        f"{quality.baseline_mrr:>8.3f} {quality.store_mrr:>8.3f} "
        f"{sum(p.baseline_pages for p in quality.phrases):>9} "
        f"{sum(p.store_pages for p in quality.phrases):>9} "
        f"{run.seconds:>7.1f} {sum(t.met for t in met):>3}/{len(met):<3}"
    )


# --- the benchmark ----------------------------------------------------------------------------------------


def bench_site(
    site: Site, engines: Sequence[str], empty: dict[str, int], options: argparse.Namespace
) -> list[Run]:
    """Serve the site and crawl it once per engine into new stores; measure each run."""
    runs = []
    with serve_site(site.root) as base, tempfile.TemporaryDirectory(prefix="cleancrawl-bench-") as logs:
        for engine in engines:
            print(f"{site.name}: crawling into {engine}", file=sys.stderr)
            with new_store(engine, "store") as store, new_store(engine, "baseline") as baseline:
                log = Path(logs) / f"{engine}.log"
                seconds = crawl(base + site.start, store, baseline, log)
                sizes = measure_sizes(store, baseline, empty[engine])
                if not sizes.pages:  # an exit code 0 says nothing of the pages: a spider error loses them
                    raise RuntimeError(f"the crawl of {site.name} stored no page:\n{_tail(log)}")
                print(f"{site.name}: searching both {engine} stores", file=sys.stderr)
                quality = measure_quality(store, baseline, site, options.queries, options.seed)
            run = Run(site.name, engine, seconds, sizes, quality, crawl_errors(log))
            print(render_run(run) + "\n", flush=True)
            runs.append(run)
    return runs


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark: a block per site and engine, then the summary table."""
    options = _arguments(argv)
    engines = [engine for engine in options.engines.split(",") if engine]
    unknown = set(engines) - set(ENGINES)
    if unknown:
        raise SystemExit(f"unknown engines {sorted(unknown)}: sqlite or postgresql")
    started = time.perf_counter()
    chosen = sites(options.shared, options.sites.split(","), options.pages)
    empty = {engine: empty_store_bytes(engine) for engine in engines}
    runs = [run for site in chosen for run in bench_site(site, engines, empty, options)]
    print(render_summary(runs))
    print(f"\nbenchmark wall time {time.perf_counter() - started:.0f} s")
    return 0


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.store", description=__doc__.splitlines()[0])
    add_shared_option(parser, "sites/")
    parser.add_argument("--sites", default="whizzy,python311,generated", help="comma-separated site names")
    parser.add_argument("--engines", default="sqlite,postgresql", help="comma-separated: sqlite, postgresql")
    parser.add_argument("--pages", type=int, default=20_000, help="pages of the generated site")
    parser.add_argument("--queries", type=int, default=300, help="title queries per run, at most")
    parser.add_argument("--seed", type=int, default=0, help="the draw of the title queries")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(main())
