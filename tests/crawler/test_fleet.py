"""A fleet: several `scrapy crawl site` processes on one frontier (scrapy-redis and the fleet's own keys in
the real Redis at 127.0.0.1:6379) and one store (a real PostgreSQL schema).

The site is an evolving site frozen in time (`benchmarks.evolving`), whose fetch log counts every request
the server answered: a page fetched twice across the fleet shows there.
"""

from __future__ import annotations

import pickle
import re
import subprocess
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import pairwise
from pathlib import Path
from uuid import uuid4

import pytest
import redis
from parsel import Selector
from scrapy import Request, Spider, signals
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler
from sqlalchemy import text
from twisted.python.failure import Failure

from benchmarks.evolving import ChangeClass, EvolvingConfig, EvolvingSite, Fetch, serve_evolving
from crawler.fleet import LEASE, RETAKEN, Fleet
from crawler.fleet_components import FleetExtension, FleetScheduler
from crawler.spiders.site import SiteSpider
from extraction.links import normalise_url
from pipelines.storage import make_engine
from records import PageRecord
from records.closing import Members
from tests.crawl_runner import REPO_ROOT, crawl_command, run_crawl
from tests.crawler.pages import article
from tests.crawler.spider_output import parsed
from tests.pipelines.databases import postgres_schema
from tests.redis_server import REDIS_URL, redis_server
from tests.servers import Route, page, serve_routes

ARTICLES = 80
PAGE = "http://fleet.test/page"
STATIC = EvolvingConfig(classes=(ChangeClass("static", 1.0, None),), growth=0, removal=0)


@pytest.fixture
def server() -> redis.Redis:
    """The machine's Redis; the test fails, saying how to start it, when it does not answer."""
    return redis_server()


@pytest.fixture
def fleet_key(server: redis.Redis) -> Iterator[str]:
    """A key prefix of the test's own; the test fails if the fleet left any key behind."""
    prefix = f"cleancrawl-test:{uuid4().hex}"
    yield prefix
    left = [key.decode() for key in server.scan_iter(match=f"{prefix}:*")]
    server.delete(*left) if left else None
    assert left == [], "the last process of the fleet left keys behind"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL schema of the test's own."""
    yield from postgres_schema()


def _fleet(
    tmp_path: Path, base: str, count: int, settings: dict[str, str], args: dict[str, str] | None = None
) -> list[subprocess.Popen[bytes]]:
    """Start `count` processes of the same command, at once."""
    processes = []
    for index in range(count):
        folder = tmp_path / f"process-{index}"
        folder.mkdir()
        command, _ = crawl_command(folder, f"{base}/", settings=settings, args=args or {})
        log = (folder / "log.txt").open("wb")
        processes.append(subprocess.Popen(command, cwd=REPO_ROOT, stdout=log, stderr=subprocess.STDOUT))
    return processes


def _logs(tmp_path: Path, count: int) -> str:
    return "\n".join((tmp_path / f"process-{i}" / "log.txt").read_text("utf-8") for i in range(count))


def _texts(database_url: str) -> dict[str, str]:
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT url, text FROM clean_pages"))
            return {str(url).split("/", 3)[3]: str(value) for url, value in rows}
    finally:
        engine.dispose()


def _page_fetches(fetches: Sequence[Fetch]) -> Counter[str]:
    return Counter(fetch.path for fetch in fetches if fetch.path != "/robots.txt")


def test_three_processes_fetch_and_store_each_page_once_as_one_would(
    tmp_path: Path, postgres_url: str, fleet_key: str
) -> None:
    site = EvolvingSite(3, ARTICLES, config=STATIC)
    every = {"RECRAWL_NOW": site.now.isoformat(), "CONCURRENT_REQUESTS_PER_DOMAIN": "4"}
    fleet = _settings(site, postgres_url, fleet_key, CONCURRENT_REQUESTS_PER_DOMAIN="4")
    with serve_evolving(site) as base:
        processes = _fleet(tmp_path, base, 3, fleet)
        codes = [process.wait(timeout=300) for process in processes]
        fetched = _page_fetches(site.fetches)
        site.fetches.clear()
        alone = tmp_path / "alone"
        alone.mkdir()
        single = run_crawl(alone, f"{base}/", settings={**every, "DATABASE_URL": f"sqlite:///{alone}/db"})
    assert codes == [0, 0, 0], _logs(tmp_path, 3)[-4000:]
    assert single.returncode == 0, single.log[-3000:]
    live = {*site.paths_at(site.now), *site.listing_paths_at(site.now), "/about/"}
    assert set(fetched) == live and max(fetched.values()) == 1  # every page, each fetched once by the fleet
    ours, theirs = _texts(postgres_url), _texts(f"sqlite:///{alone}/db")
    assert {f"/{path}" for path in ours} == live
    # Every article's clean text is the one process's. Listings are not compared: which listing pages share
    # a cluster can depend on the order pages arrive in, and with it what the cluster's model decides of
    # their bylines (a known gap: docs/SCALE.md).
    articles = [path for path in theirs if path[:2] == "20"]
    assert len(articles) == ARTICLES
    differ = [path for path in articles if ours[path] != theirs[path]]
    assert differ == [], f"{len(differ)} articles differ from one process's"
    # As the fleet closes, each cluster is re-cleaned by one process, not by each of the three.
    assert sum(_recleaned_at_close(tmp_path, i) for i in range(3)) == len(ours)


def _recleaned_at_close(tmp_path: Path, index: int) -> int:
    """The pages a process re-cleaned once its spider was closing."""
    log = (tmp_path / f"process-{index}" / "log.txt").read_text("utf-8")
    closing = log[log.index("Closing spider") :]
    return sum(int(count) for count in re.findall(r"Re-cleaned (\d+) pages", closing))


def _settings(site: EvolvingSite, database_url: str, fleet_key: str, **more: str) -> dict[str, str]:
    """A fleet's settings: its store, its Redis keys, and the site's present."""
    every = {"DATABASE_URL": database_url, "REDIS_URL": REDIS_URL, "FLEET_KEY": fleet_key}
    return {"RECRAWL_NOW": site.now.isoformat(), **every, **more}


def test_max_pages_is_the_fleets_budget(tmp_path: Path, postgres_url: str, fleet_key: str) -> None:
    site = EvolvingSite(4, ARTICLES, config=STATIC)
    settings = _settings(site, postgres_url, fleet_key)
    with serve_evolving(site) as base:
        processes = _fleet(tmp_path, base, 2, settings, args={"max_pages": "25"})
        codes = [process.wait(timeout=300) for process in processes]
    assert codes == [0, 0], _logs(tmp_path, 2)[-4000:]
    assert len(_texts(postgres_url)) == 25


def test_a_killed_process_requests_go_back_to_the_queue(
    tmp_path: Path, postgres_url: str, fleet_key: str
) -> None:
    site = EvolvingSite(5, ARTICLES, config=STATIC)
    settings = _settings(
        site, postgres_url, fleet_key, FLEET_LEASE_TIMEOUT="6", CONCURRENT_REQUESTS_PER_DOMAIN="2"
    )
    with serve_evolving(site) as base:
        doomed, survivor = _fleet(tmp_path, base, 2, settings)
        deadline = time.monotonic() + 120
        while len(site.fetches) < 20 and doomed.poll() is None:
            assert time.monotonic() < deadline, "timed out"
            time.sleep(0.01)
        doomed.kill()
        assert doomed.wait() == -9, "the process ended before it could be killed"
        assert survivor.wait(timeout=300) == 0, _logs(tmp_path, 2)[-4000:]
    live = {*site.paths_at(site.now), *site.listing_paths_at(site.now), "/about/"}
    assert {f"/{path}" for path in _texts(postgres_url)} == live  # nothing the killed process held is lost
    # Killed while it rested, the process still looks alive to the survivor for a lease: then the crawl's
    # keys expire two leases after the last heartbeat.
    server = redis.Redis.from_url(REDIS_URL)
    deadline = time.monotonic() + 3 * 6
    while any(server.scan_iter(match=f"{fleet_key}:*")):
        assert time.monotonic() < deadline, "the fleet's keys outlived it"
        time.sleep(0.2)


def test_a_page_taken_back_queues_the_links_its_dead_process_had_met(
    tmp_path: Path, postgres_url: str, fleet_key: str, server: redis.Redis
) -> None:
    # What a process killed between meeting the home page's links and queueing them leaves: the links in
    # the fleet's met set and recorded under the page's lease, none in the queue, the lease run out. The
    # home page shows other links when fetched again (its "trending now" links change from one fetch to
    # the next): those the dead process met are crawled all the same.
    site = EvolvingSite(6, ARTICLES, config=STATIC)
    with serve_evolving(site) as base:
        live = {*site.paths_at(site.now), *site.listing_paths_at(site.now), "/about/"}
        met = _links(f"{base}/")
        keys = Fleet(server, fleet_key, 6).keys
        server.sadd(keys.seen, *met)
        server.sadd(keys.stored, f"{base}/")  # it claimed the page, and died before it wrote it
        server.set(keys.seeding, "done")
        home = {**Request(f"{base}/", dont_filter=True).to_dict(), "callback": "parse_page"}
        server.zadd(keys.leases, {"dead-lease": time.time() - 1})
        server.hset(keys.payloads, "dead-lease", pickle.dumps(home, protocol=-1))
        server.hset(keys.met, "dead-lease", "\n".join(met))
        survivor = _fleet(tmp_path, base, 1, _settings(site, postgres_url, fleet_key))[0]
        assert survivor.wait(timeout=300) == 0, _logs(tmp_path, 1)[-4000:]
    assert {f"/{path}" for path in _texts(postgres_url)} == live


def _links(url: str) -> set[str]:
    """The in-site links of the page at `url`, as the spider writes them."""
    with urllib.request.urlopen(url) as response:
        hrefs = Selector(text=response.read().decode()).css("a::attr(href)").getall()
    return {normalise_url(href, url) or "" for href in hrefs} - {""}


def _timed(route: Route, times: list[float]) -> Route:
    def answer(handler: object) -> None:
        times.append(time.monotonic())
        route(handler)  # type: ignore[arg-type]

    return answer


def test_the_delay_between_two_requests_to_a_site_holds_for_the_fleet(
    tmp_path: Path, postgres_url: str, fleet_key: str
) -> None:
    delay, pages = 0.3, 16
    paths = [f"/p{i}" for i in range(pages)]
    times: list[float] = []
    routes = {path: _timed(page(article(path, paths)), times) for path in ["/", *paths]}
    settings = {"DATABASE_URL": postgres_url, "REDIS_URL": REDIS_URL, "FLEET_KEY": fleet_key}
    # Each process alone would ask every 0.15 to 0.45 s (Scrapy randomises its own delay): two of them,
    # about twice as often.
    settings |= {"DOWNLOAD_DELAY": str(delay), "CONCURRENT_REQUESTS_PER_DOMAIN": "1"}
    with serve_routes(routes) as site:
        processes = _fleet(tmp_path, site.base, 2, settings)
        codes = [process.wait(timeout=300) for process in processes]
    assert codes == [0, 0], _logs(tmp_path, 2)[-4000:]
    assert len(times) == pages + 1  # each page once
    gaps = [later - earlier for earlier, later in pairwise(times)]
    # The fleet takes turns `delay` apart and each request leaves on its turn (a reactor busy extracting a
    # page may hold one back a little, which lengthens a gap and shortens the next).
    assert min(gaps) >= delay * 0.85, gaps


def test_a_lease_is_taken_once_and_comes_back_once_with_its_links_when_it_runs_out(
    server: redis.Redis, fleet_key: str
) -> None:
    fleet = Fleet(server, fleet_key, lease_seconds=0.2)
    for score, payload in ((-5, b"best"), (0, b"later")):
        server.zadd(fleet.keys.requests, {payload: score})
    lease, payload = fleet.pop_lease("a") or ("", b"")
    assert payload == b"best" and fleet.leased() == 1
    assert fleet.meet(["/a", "/b"], lease) == {"/a", "/b"}  # the page of the lease met them first
    assert fleet.meet(["/b", "/c"], "") == {"/c"}
    assert fleet.expired() == []  # not yet run out
    time.sleep(0.3)
    assert (fleet.expired(), fleet.expired()) == ([(b"best", ["/a", "/b"])], [])
    second = fleet.pop_lease("b")
    assert second is not None and second[1] == b"later"
    assert fleet.meet(["/d"], second[0]) == {"/d"}
    fleet.release(second[0])
    assert server.hlen(fleet.keys.met) == 0  # a lease that ends forgets what its page met
    assert fleet.leased() == 0 and fleet.pop_lease("a") is None
    assert lease  # the SHA-1 of the payload
    fleet.join("a")
    fleet.finish_seeding()
    assert fleet.rest("a") and fleet.leave("a")


def test_a_callback_that_raises_ends_its_lease(server: redis.Redis, fleet_key: str) -> None:
    # Else the fleet waits for the request as long as the process runs: the crawl never ends.
    settings = {"REDIS_URL": REDIS_URL, "FLEET_KEY": fleet_key, "FLEET_LEASE_TIMEOUT": 60}
    crawler = get_crawler(settings_dict=settings)
    extension = FleetExtension.from_crawler(crawler)
    spider = Spider("site")
    fleet = extension.fleet(spider)
    server.zadd(fleet.keys.requests, {b"payload": 0})
    lease, _ = fleet.pop_lease("worker") or ("", b"")
    request = Request("http://127.0.0.1/", meta={LEASE: lease})
    response = HtmlResponse(request.url, body=b"<p>a page</p>", request=request)
    failure = Failure(ValueError("a bug in a callback"))
    crawler.signals.send_catch_log(signals.spider_error, failure=failure, response=response, spider=spider)
    assert fleet.leased() == 0
    assert fleet.leave("worker")


def test_a_request_is_queued_and_known_to_the_duplicate_filter_in_one_step(
    server: redis.Redis, fleet_key: str
) -> None:
    # A process killed after the filter knew a link and before the queue held it lost the page: the links a
    # page taken back had met go through that filter again. The seed, queued past the filter, is known to it
    # too: a page taken back queues every link it holds again, the home page's among them.
    settings = {"REDIS_URL": REDIS_URL, "FLEET_KEY": fleet_key, "EXTENSIONS": {FleetExtension: 0}}
    crawler = get_crawler(settings_dict=settings)
    scheduler, spider = FleetScheduler.from_crawler(crawler), Spider("site")
    scheduler.open(spider)
    home, link = "http://fleet.test/", "http://fleet.test/a"
    seed = Request(home, dont_filter=True)
    assert [scheduler.enqueue_request(request) for request in (seed, Request(link))] == [True, True]
    assert len(scheduler) == 2
    assert server.scard(scheduler.fleet_.keys.dupefilter) == 2
    assert not any(scheduler.enqueue_request(Request(url)) for url in (home, link))
    assert len(scheduler) == 2
    fleet = scheduler.fleet_
    fleet.join("worker")
    assert fleet.leave("worker")


def test_each_cluster_is_re_cleaned_by_one_process_and_the_last_to_close_knows_it(
    server: redis.Redis, fleet_key: str
) -> None:
    fleet = Fleet(server, fleet_key, lease_seconds=10)
    for worker in ("a", "b"):
        fleet.join(worker)
        fleet.begin_closing(worker)
    ten, eleven, moved = (str(Members(10, 55)), str(Members(11, 66)), str(Members(10, 64)))
    assert fleet.claim_cluster("a", "site", "c1", ten)
    assert not fleet.claim_cluster("b", "site", "c1", ten)  # a re-cleans it with these 10 pages
    assert fleet.claim_cluster("a", "site", "c1", ten)  # a retry of a's own re-clean
    assert fleet.claim_cluster("b", "site", "c1", eleven)  # it grew since: re-cleaned again
    assert fleet.claim_cluster("a", "site", "c1", moved)  # as many pages, others: settling moved some
    assert fleet.claim_cluster("b", "site", "c2", ten)
    assert not fleet.end_closing("a")  # b is still at its share
    assert fleet.end_closing("b")
    assert not fleet.leave("a") and fleet.leave("b")


def test_a_page_taken_back_and_stored_here_already_queues_the_links_its_dead_copy_met() -> None:
    # A fleet process that died met these links first and may not have queued them; this process stored the
    # page itself, so it skips the page and never reads its links: only the dead copy's record has them.
    spider = SiteSpider.from_crawler(get_crawler(SiteSpider), seeds="http://fleet.test/")
    body = b'<p>text <a href="http://fleet.test/seen-here">link</a></p>'
    first = HtmlResponse(PAGE, body=body, headers={b"Content-Type": b"text/html"}, request=Request(PAGE))
    assert [type(item) for item in parsed(spider, first)] == [Request, PageRecord]
    met = ["http://fleet.test/a", "http://elsewhere.test/b", "http://fleet.test/c.pdf", "http://fleet.test/a"]
    again = Request(PAGE, meta={RETAKEN: met})
    retaken = HtmlResponse(PAGE, body=body, headers={b"Content-Type": b"text/html"}, request=again)
    items = parsed(spider, retaken)
    assert [item.url for item in items if isinstance(item, Request)] == ["http://fleet.test/a"]
    assert not any(isinstance(item, PageRecord) for item in items)  # stored once, by this process


def test_a_budget_is_counted_across_callers(server: redis.Redis, fleet_key: str) -> None:
    fleet = Fleet(server, fleet_key, lease_seconds=10)
    taken = [fleet.take(fleet.keys.pages, 3) for _ in range(5)]
    assert taken == [True, True, True, False, False]
    assert int(server.get(fleet.keys.pages) or 0) == 3
    fleet.join("a")
    assert fleet.leave("a")


def test_a_crawl_of_one_process_never_loads_redis(tmp_path: Path) -> None:
    # The fleet's components are installed with REDIS_URL only: one process pays nothing for them.
    probe = (
        "import atexit, sys; from scrapy.cmdline import execute; "
        "atexit.register(lambda: print('loaded:', sorted({m.split('.')[0] for m in sys.modules} "
        "& {'redis', 'scrapy_redis'}), file=sys.stderr)); execute()"
    )
    with serve_routes({"/": page(article("Home"))}) as site:
        command, _ = crawl_command(tmp_path, f"{site.base}/")
        proc = subprocess.run(
            [command[0], "-c", probe, *command[3:]],  # `python -m scrapy crawl …`, run by the probe
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "loaded: []" in proc.stderr, proc.stderr[-2000:]
