"""The `site` spider, crawling local servers in a subprocess: scope, seeds, redirects, limits, robots."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from records import stats
from tests.crawl_runner import clean_texts, ok, refused_at_startup, run_crawl
from tests.crawler.pages import article, refresh_stub
from tests.servers import Route, page, redirect, serve_routes

pytestmark = pytest.mark.slow


def test_stays_on_the_seed_host_and_port(tmp_path: Path) -> None:
    other_routes = {"/": page(article("Elsewhere"))}
    with serve_routes(other_routes) as other:
        routes = {
            "/": page(article("Home", ["/local", f"{other.base}/", "http://offsite.invalid/x", "/jump"])),
            "/local": page(article("Local page")),
            "/jump": redirect(f"{other.base}/"),
        }
        with serve_routes(routes) as site:
            run = ok(run_crawl(tmp_path, f"{site.base}/"))
    assert sorted(clean_texts(tmp_path / "db.sqlite")) == [f"{site.base}/", f"{site.base}/local"]
    assert other.requested == []  # same host, another port: never contacted, not even after a redirect
    assert run.stat(stats.LINKS_OFFSITE) == 2
    assert run.stat(stats.skipped("offsite_redirect")) == 1
    assert run.stat(stats.PAGES_KEPT) == 2


def test_a_plain_crawl_with_the_defaults_logs_no_warning(tmp_path: Path) -> None:
    # A component a default leaves off (the fleet's, without REDIS_URL) must not warn on every crawl.
    routes = {"/": page(article("Home", ["/a"])), "/a": page(article("A page"))}
    with serve_routes(routes) as site:
        run = ok(run_crawl(tmp_path, f"{site.base}/"))
    assert run.stat(stats.PAGES_KEPT) == 2
    assert [line for line in run.log.splitlines() if "] WARNING: " in line] == []


def test_seeds_file_with_comments_and_two_sites(tmp_path: Path) -> None:
    with serve_routes({"/": page(article("One"))}) as one, serve_routes({"/": page(article("Two"))}) as two:
        seeds = tmp_path / "seeds.txt"
        seeds.write_text(f"# two sites\n{one.base}/\n\n{two.base}/\n")
        run = ok(run_crawl(tmp_path, "", args={"seeds_file": str(seeds)}))
    assert sorted(clean_texts(tmp_path / "db.sqlite")) == sorted([f"{one.base}/", f"{two.base}/"])
    assert run.stat(stats.PAGES_KEPT) == 2


def test_a_page_reached_under_several_urls_is_stored_once_by_its_final_url(tmp_path: Path) -> None:
    routes = {
        "/": page(article("Home", ["/stub/", "/old", "/target/"])),
        "/stub/": page(refresh_stub("/target/")),
        "/old": redirect("/target/", status=301),
        "/target/": page(article("Target")),
    }
    with serve_routes(routes) as site:
        run = ok(run_crawl(tmp_path, f"{site.base}/"))
    stored = clean_texts(tmp_path / "db.sqlite")
    assert sorted(stored) == [f"{site.base}/", f"{site.base}/target/"]
    assert "Target: The valley road" in stored[f"{site.base}/target/"]
    assert run.stat(stats.REFRESH_STUBS) == 1
    assert site.requested.count("/target/") == 1


def test_a_refresh_stub_leads_to_its_target_and_is_notclean_texts(tmp_path: Path) -> None:
    routes = {"/": page(refresh_stub("/moved/")), "/moved/": page(article("Moved"))}
    with serve_routes(routes) as site:
        ok(run_crawl(tmp_path, f"{site.base}/"))
    assert list(clean_texts(tmp_path / "db.sqlite")) == [f"{site.base}/moved/"]


def test_refresh_cycles_and_endless_refresh_chains_end(tmp_path: Path) -> None:
    routes = {
        "/": page(article("Home", ["/cycle-a", "/chain/0", "/self"])),
        "/cycle-a": page(refresh_stub("/cycle-b")),
        "/cycle-b": page(refresh_stub("/cycle-a")),
        # A page that refreshes to itself is an ordinary page that reloads, not a redirect.
        "/self": page(article("Reloading", head='<meta http-equiv="refresh" content="300; url=/self">')),
        **{f"/chain/{n}": page(refresh_stub(f"/chain/{n + 1}")) for n in range(30)},
    }
    with serve_routes(routes) as site:
        run = ok(run_crawl(tmp_path, f"{site.base}/", settings={"REDIRECT_MAX_TIMES": "3"}))
    assert sorted(clean_texts(tmp_path / "db.sqlite")) == [f"{site.base}/", f"{site.base}/self"]
    assert run.stat(stats.skipped("refresh_loop")) == 1
    assert site.requested.count("/cycle-a") == 1
    assert "/chain/5" not in site.requested


def test_non_html_is_skipped_by_extension_or_content_type(tmp_path: Path) -> None:
    routes = {
        "/": page(article("Home", ["/feed/", "/logo.png", "/notes.PDF", "/page"])),
        "/feed/": page(
            "<?xml version='1.0'?><rss><channel></channel></rss>", content_type="application/rss+xml"
        ),
        "/page": page(article("Page")),
    }
    with serve_routes(routes) as site:
        run = ok(run_crawl(tmp_path, f"{site.base}/"))
    assert run.stat(stats.skipped("not_html")) == 1
    assert run.stat(stats.LINKS_NON_HTML) == 2
    assert "/logo.png" not in site.requested
    assert "Skipped " + f"{site.base}/feed/ (not_html): application/rss+xml" in run.log
    assert run.stat(stats.PAGES_KEPT) == 2


def _chain(length: int) -> dict[str, Route]:
    """Pages /p0 ... linking each to the next two."""
    return {f"/p{n}": page(article(f"Page {n}", [f"/p{n + 1}", f"/p{n + 2}"])) for n in range(length)}


def test_max_pages_stops_after_that_many_stored_pages(tmp_path: Path) -> None:
    with serve_routes(_chain(40)) as site:
        run = ok(run_crawl(tmp_path, f"{site.base}/p0", args={"max_pages": "5"}))
    assert len(clean_texts(tmp_path / "db.sqlite")) == 5
    assert run.stat(stats.PAGES_KEPT) == 5
    assert run.stats["finish_reason"] == "max_pages"


@pytest.mark.parametrize(("depth", "expected"), [(0, 1), (2, 3)])
def test_max_depth_limits_the_link_distance_from_the_seed(tmp_path: Path, depth: int, expected: int) -> None:
    routes = {f"/p{n}": page(article(f"Page {n}", [f"/p{n + 1}"])) for n in range(10)}
    with serve_routes(routes) as site:
        run = ok(run_crawl(tmp_path, f"{site.base}/p0", args={"max_depth": str(depth)}))
    assert sorted(clean_texts(tmp_path / "db.sqlite")) == [f"{site.base}/p{n}" for n in range(expected)]
    assert site.requested == ["/robots.txt", *[f"/p{n}" for n in range(expected)]]
    assert run.stat(stats.PAGES_KEPT) == expected


def test_robots_txt_is_obeyed_and_the_user_agent_names_the_project(tmp_path: Path) -> None:
    seen_agents: list[str] = []

    def home(handler: BaseHTTPRequestHandler) -> None:
        seen_agents.append(handler.headers["User-Agent"])
        page(article("Home", ["/private/page", "/public"]))(handler)

    routes = {
        "/robots.txt": page("User-agent: *\nDisallow: /private/\n", content_type="text/plain"),
        "/": home,
        "/public": page(article("Public")),
        "/private/page": page(article("Private")),
    }
    with serve_routes(routes) as site:
        run = ok(run_crawl(tmp_path, f"{site.base}/"))
    assert "/private/page" not in site.requested
    assert run.stat(stats.skipped("robots_txt")) == 1
    assert seen_agents[0].startswith("cleancrawl/")


def test_an_unknown_extraction_setting_stops_the_crawl_at_startup(tmp_path: Path) -> None:
    log = refused_at_startup(tmp_path, {"EXTRACTION_MAX_LINK_DENSTY": "0.4"})
    assert "unknown setting EXTRACTION_MAX_LINK_DENSTY" in log


def test_extraction_settings_reach_the_spider(tmp_path: Path) -> None:
    with serve_routes({"/": page(article("Home"))}) as site:
        run = ok(run_crawl(tmp_path, f"{site.base}/", settings={"EXTRACTION_MAX_DOCUMENT_BYTES": "100"}))
    assert run.stat(stats.PAGES_CRAWLED) == 1
    assert run.stat(stats.skipped("too_large")) == 1
    assert run.stat(stats.PAGES_KEPT) == 0


def test_a_site_override_reaches_the_spider_for_that_site_only(tmp_path: Path) -> None:
    with serve_routes({"/": page(article("One"))}) as one, serve_routes({"/": page(article("Two"))}) as two:
        small = {one.base.removeprefix("http://"): {"EXTRACTION_MAX_DOCUMENT_BYTES": "100"}}
        settings = {"EXTRACTION_SITE_OVERRIDES": json.dumps(small)}
        run = ok(run_crawl(tmp_path, f"{one.base}/,{two.base}/", settings=settings))
    assert list(clean_texts(tmp_path / "db.sqlite")) == [f"{two.base}/"]
    assert run.stat(stats.skipped("too_large")) == 1


def test_a_seed_that_is_not_a_url_is_a_clear_error(tmp_path: Path) -> None:
    run = run_crawl(tmp_path, "not-a-url")
    assert run.returncode != 0
    assert "seed 'not-a-url' is not an absolute http(s) URL" in run.log
