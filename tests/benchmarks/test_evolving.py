"""The evolving site: reproducible schedules, content that changes only when scheduled while the template
changes on every fetch, conditional GETs, removed pages, the clock endpoint and the freshness measure."""

from __future__ import annotations

import http.client
import itertools
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest
from lxml import html as lxml_html
from lxml.html import HtmlElement

from benchmarks.evolving import (
    CLOCK_PATH,
    ChangeClass,
    EvolvingArticle,
    EvolvingConfig,
    EvolvingSite,
    Validators,
    describe,
    freshness,
    main,
    sample_times,
    serve_evolving,
    stored_from_fetches,
)
from extraction import extract

SECOND = timedelta(seconds=1)
# Every article changes about daily: conditional GETs are tested before and after a change.
ALL_HOT = EvolvingConfig(classes=(ChangeClass("hot", 1.0, timedelta(days=1)),))


@pytest.fixture(scope="module")
def site() -> EvolvingSite:
    return EvolvingSite(0, pages=300)


@pytest.fixture(scope="module")
def hot_site() -> EvolvingSite:
    return EvolvingSite(5, pages=40, days=10, config=ALL_HOT)


@pytest.fixture
def server(hot_site: EvolvingSite) -> Iterator[Client]:
    hot_site.reset()
    with serve_evolving(hot_site) as base:
        client = Client(base)
        yield client
        client.close()


class Client:
    """One keep-alive connection to the site, as a crawler holds it."""

    def __init__(self, base: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", urlsplit(base).port, timeout=10)

    def request(
        self, path: str, headers: dict[str, str] | None = None, method: str = "GET"
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        self.connection.request(method, path, headers=headers or {})
        response = self.connection.getresponse()
        return response.status, response.headers, response.read()

    def close(self) -> None:
        self.connection.close()


def _elements(node: HtmlElement, query: str) -> list[HtmlElement]:
    """`xpath` for element results (lxml types every result as a union)."""
    return [found for found in node.xpath(query) if isinstance(found, HtmlElement)]


def _content(body: bytes) -> str:
    """The informative text as the page renders it: the h1, then each block of div.entry-content."""
    tree = lxml_html.fromstring(body)
    lines = [str(tree.xpath("string(//h1[@class='entry-title'])"))]
    for block in _elements(tree, "//div[@class='entry-content']/*"):
        items = _elements(block, "li") if block.tag == "ul" else [block]
        lines.extend(str(item.text_content()) for item in items)
    return "\n".join(lines)


def _visible(body: bytes) -> str:
    """All text of a page, scripts and styles left out: what a reader (or an extractor) sees."""
    tree = lxml_html.fromstring(body)
    for node in _elements(tree, "//script | //style"):
        node.drop_tree()
    return str(tree.xpath("string()"))


def _with(site: EvolvingSite, kind: Validators, changes: int = 1) -> EvolvingArticle:
    """An initial article, never removed, sending `kind` validators, with at least `changes` changes."""
    return next(
        a
        for a in site.articles
        if a.validators is kind and len(a.changes) >= changes and not a.new and a.removed is None
    )


# --- the schedule -------------------------------------------------------------------------------------------


def test_same_seed_same_site_other_seed_other_site() -> None:
    one, two, other = EvolvingSite(3, 120), EvolvingSite(3, 120), EvolvingSite(4, 120)
    assert one.articles == two.articles
    assert describe(one) == describe(two)
    assert [a.path for a in one.articles] != [a.path for a in other.articles]
    moments = sample_times(one.start, one.end, timedelta(days=3))
    for article in one.articles[::7]:
        for moment in moments:
            assert one.live_text(article.path, moment) == two.live_text(article.path, moment)
    # Two runs of the same requests get the same bytes, per-fetch draws included.
    paths = [one.articles[5].path, "/", one.articles[5].path, "/category/chess/"]
    for site in (one, two):
        site.reset(one.start + timedelta(days=2))
    assert [one.respond(p).body for p in paths] == [two.respond(p).body for p in paths]


def test_change_classes_shares_and_arrivals(site: EvolvingSite) -> None:
    initial = [a for a in site.articles if not a.new]
    assert len(initial) == 300
    counts = {name: sum(a.change_class == name for a in initial) for name in ("hot", "warm", "static")}
    assert counts == {"hot": 15, "warm": 45, "static": 240}  # exact quotas over the initial articles
    hot = [len(a.changes) for a in initial if a.change_class == "hot" and a.removed is None]
    warm = [len(a.changes) for a in initial if a.change_class == "warm" and a.removed is None]
    assert 20 <= sum(hot) / len(hot) <= 40  # mean interval one day over thirty days
    assert 1 <= sum(warm) / len(warm) <= 6  # ten days
    assert all(not a.changes for a in site.articles if a.change_class == "static")
    new = [a for a in site.articles if a.new]
    assert 15 <= len(new) <= 50 and all(site.start < a.published <= site.end for a in new)
    for article in site.articles:
        assert list(article.changes) == sorted(set(article.changes))
        assert all(max(site.start, article.published) < c < site.end for c in article.changes)
        assert all(c.microsecond == 0 for c in article.changes)


def test_hot_content_changes_exactly_at_change_times(site: EvolvingSite) -> None:
    article = next(a for a in site.articles if a.change_class == "hot" and len(a.changes) >= 5)
    times = [site.start, *article.changes]
    for before, after in itertools.pairwise(times):
        text = site.live_text(article.path, before)
        assert text is not None and site.live_text(article.path, after) != text
        # Constant in between: a tenth, half and the last second of the interval.
        for moment in (before + (after - before) / 10, before + (after - before) / 2, after - SECOND):
            assert site.live_text(article.path, moment) == text
    edits = {site.edit_of(article, v) for v in range(1, site.versions(article))}
    assert edits <= {"rewrite", "add", "remove"} and len(edits) >= 2
    # The first paragraph (the lede, which listings show) is never edited.
    firsts = {site.live_text(article.path, t).splitlines()[1] for t in times}  # type: ignore[union-attr]
    assert len(firsts) == 1


def test_template_changes_on_every_fetch_content_does_not(site: EvolvingSite) -> None:
    article = next(a for a in site.articles if a.change_class == "hot" and a.removed is None and not a.new)
    site.now = article.changes[2] + timedelta(minutes=3)
    first, second = site.respond(article.path), site.respond(article.path)
    assert first.status == second.status == 200
    assert first.body != second.body
    assert _visible(first.body) != _visible(second.body)  # visible template text, not just a token
    live = site.live_text(article.path, site.now)
    assert _content(first.body) == _content(second.body) == live
    site.now = article.changes[3]
    assert _content(site.respond(article.path).body) == site.live_text(article.path, site.now) != live


def test_new_articles_appear_on_listings_and_listings_change(site: EvolvingSite) -> None:
    new = next(a for a in site.articles if a.new and a.removed is None)
    site.now = new.published - SECOND
    assert site.respond(new.path).status == 404
    assert new.path not in site.paths_at(site.now)
    assert new.path.encode() not in site.respond("/").body
    site.now = new.published
    assert site.respond(new.path).status == 200
    assert new.path in site.paths_at(site.now)
    assert new.path.encode() in site.respond("/").body
    home = site.live_text("/", new.published)
    assert home is not None and new.title in home
    assert new.published in site.change_times("/")
    category = f"/category/{site.listings[new.category + 1].heading.lower()}/"
    assert new.published in site.change_times(category)
    arrivals = sorted(a.published for a in site.articles if a.new and a.published < site.end)
    assert site.change_times("/") == arrivals  # page 1 of the home page shows every arrival


def test_removed_pages_answer_404_or_410() -> None:
    site = EvolvingSite(2, pages=60, config=EvolvingConfig(removal=0.3))
    removed = [a for a in site.articles if a.removed is not None]
    assert {a.gone_status for a in removed} == {404, 410}
    for article in removed:
        assert article.removed is not None
        site.now = article.removed - SECOND
        assert site.respond(article.path).status == 200
        assert site.live_text(article.path, site.now) is not None
        site.now = article.removed
        assert site.respond(article.path).status == article.gone_status
        assert site.live_text(article.path, site.now) is None
        assert article.path not in site.paths_at(site.now)
        assert article.path.encode() not in site.respond("/").body
    assert site.respond("/no/such/page/").status == 404
    assert site.respond("/page/1/").status == 404  # the first page has one address: /


# --- HTTP: validators and the clock -------------------------------------------------------------------------


def test_etag_304_until_the_content_changes(hot_site: EvolvingSite, server: Client) -> None:
    article = _with(hot_site, Validators.ETAG)
    hot_site.now = article.changes[0] - timedelta(hours=1)
    status, headers, _ = server.request(article.path)
    etag = headers["ETag"]
    assert status == 200 and etag.startswith('W/"') and "Last-Modified" not in headers
    status, headers, body = server.request(article.path, {"If-None-Match": etag})
    assert (status, body, headers["ETag"]) == (304, b"", etag)
    assert server.request(article.path, {"If-None-Match": f'"other", {etag}'})[0] == 304
    assert server.request(article.path, {"If-None-Match": "*"})[0] == 304
    # An article without Last-Modified ignores If-Modified-Since.
    assert server.request(article.path, {"If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"})[0] == 200
    hot_site.now = article.changes[0]
    status, headers, _ = server.request(article.path, {"If-None-Match": etag})
    assert status == 200 and headers["ETag"] != etag


def test_last_modified_304_until_the_content_changes(hot_site: EvolvingSite, server: Client) -> None:
    article = _with(hot_site, Validators.LAST_MODIFIED, changes=2)
    hot_site.now = article.changes[1] - SECOND
    status, headers, _ = server.request(article.path)
    assert status == 200 and "ETag" not in headers
    assert headers["Last-Modified"] == f"{article.changes[0]:%a, %d %b %Y %H:%M:%S GMT}"
    since = {"If-Modified-Since": headers["Last-Modified"]}
    assert server.request(article.path, since)[0] == 304
    earlier = {"If-Modified-Since": f"{article.changes[0] - SECOND:%a, %d %b %Y %H:%M:%S GMT}"}
    assert server.request(article.path, earlier)[0] == 200
    assert server.request(article.path, {"If-Modified-Since": "not a date"})[0] == 200
    hot_site.now = article.changes[1]
    assert server.request(article.path, since)[0] == 200


def test_if_none_match_takes_precedence(hot_site: EvolvingSite, server: Client) -> None:
    article = _with(hot_site, Validators.BOTH)
    hot_site.now = article.changes[0] - timedelta(minutes=5)
    _, headers, _ = server.request(article.path)
    current, old = headers["Last-Modified"], "Mon, 01 Jan 2001 00:00:00 GMT"
    # A stale tag wins over a current date, a current tag over a stale date (RFC 9110 §13.2.2).
    assert (
        server.request(article.path, {"If-None-Match": 'W/"stale"', "If-Modified-Since": current})[0] == 200
    )
    assert (
        server.request(article.path, {"If-None-Match": headers["ETag"], "If-Modified-Since": old})[0] == 304
    )


def test_no_validators_always_200(hot_site: EvolvingSite, server: Client) -> None:
    article = _with(hot_site, Validators.NONE)
    hot_site.now = article.changes[0] - SECOND
    status, headers, _ = server.request(article.path)
    assert status == 200 and "ETag" not in headers and "Last-Modified" not in headers
    conditional = {"If-None-Match": 'W/"x"', "If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"}
    assert server.request(article.path, conditional)[0] == 200
    assert server.request(article.path, {"If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"})[0] == 200


def test_listing_validators_follow_arrivals(hot_site: EvolvingSite, server: Client) -> None:
    arrival = next(a for a in hot_site.articles if a.new)
    hot_site.now = arrival.published - SECOND
    status, headers, _ = server.request("/")
    assert status == 200
    validators = {"If-None-Match": headers["ETag"]}
    assert server.request("/", validators)[0] == 304
    assert server.request("/", {"If-Modified-Since": headers["Last-Modified"]})[0] == 304
    hot_site.now = arrival.published
    assert server.request("/", validators)[0] == 200


def test_fetch_log_and_head(hot_site: EvolvingSite, server: Client) -> None:
    article = _with(hot_site, Validators.ETAG)
    status, headers, _ = server.request(article.path)
    etag = headers["ETag"]
    server.request(article.path, {"If-None-Match": etag})
    status, headers, body = server.request(article.path, method="HEAD")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) > 10_000
    server.request("/missing/")
    log = [(f.path, f.status, f.not_modified, f.conditional, f.method) for f in hot_site.fetches]
    assert log == [
        (article.path, 200, False, False, "GET"),
        (article.path, 304, True, True, "GET"),
        (article.path, 200, False, False, "HEAD"),
        ("/missing/", 404, False, False, "GET"),
    ]
    assert all(f.at == hot_site.start for f in hot_site.fetches)


def test_clock_endpoint(hot_site: EvolvingSite, server: Client) -> None:
    status, _, body = server.request(CLOCK_PATH)
    assert status == 200 and datetime.fromisoformat(body.decode().strip()) == hot_site.start
    target = hot_site.start + timedelta(days=3, hours=4)
    status, _, body = server.request(
        f"{CLOCK_PATH}?at={target.isoformat().replace('+', '%2B')}", method="POST"
    )
    assert status == 200 and hot_site.now == target
    assert datetime.fromisoformat(server.request(CLOCK_PATH)[2].decode().strip()) == target
    server.request(f"{CLOCK_PATH}?advance=90", method="POST")
    assert hot_site.now == target + timedelta(seconds=90)
    assert server.request(f"{CLOCK_PATH}?at=2024-03-05T06:00:00Z", method="POST")[0] == 200
    assert hot_site.now == datetime(2024, 3, 5, 6, tzinfo=UTC)
    assert server.request(f"{CLOCK_PATH}?at=yesterday", method="POST")[0] == 400
    assert server.request(CLOCK_PATH, method="POST")[0] == 400
    assert server.request("/", method="POST")[0] == 405
    status, headers, _ = server.request("/")  # responses follow the clock
    assert status == 200 and headers.get_all("Date") == ["Tue, 05 Mar 2024 06:00:00 GMT"]
    assert [f.path for f in hot_site.fetches] == ["/"]  # the clock endpoint is not logged


# --- freshness ----------------------------------------------------------------------------------------------


def test_freshness_of_a_perfect_and_of_a_frozen_copy() -> None:
    config = EvolvingConfig(classes=(ChangeClass("hot", 1.0, timedelta(days=1)),), growth=0, removal=0)
    site = EvolvingSite(11, pages=4, days=2, config=config)
    step = timedelta(hours=6)
    assert freshness(site, site.live_text, step=step) == 1.0
    frozen = freshness(site, lambda path, at: site.live_text(path, site.start), step=step)
    # By hand: samples at 0, 6, …, 42 h; a frozen copy is fresh until the page's first change.
    samples = [site.start + k * step for k in range(8)]
    first = {a.path: a.changes[0] if a.changes else site.end for a in site.articles}
    expected = sum(t < first[path] for path in first for t in samples) / (4 * 8)
    assert frozen == expected
    assert 0 < frozen < 1
    # The fetch log gives the same frozen copy: every page fetched once at the start.
    for article in site.articles:
        site.respond(article.path)
    assert freshness(site, stored_from_fetches(site), step=step) == expected


def test_freshness_of_one_page_by_hand() -> None:
    config = EvolvingConfig(classes=(ChangeClass("hot", 1.0, timedelta(hours=8)),), growth=0, removal=0)
    site = EvolvingSite(3, pages=1, days=1, config=config)
    (article,) = site.articles
    assert article.changes == (
        datetime(2024, 3, 1, 11, 55, 41, tzinfo=UTC),
        datetime(2024, 3, 1, 20, 42, 38, tzinfo=UTC),
    )
    step = timedelta(hours=6)
    # Samples at 00:00, 06:00, 12:00, 18:00. A copy frozen at the start: fresh, fresh, stale, stale.
    assert freshness(site, lambda path, at: site.live_text(path, site.start), step=step) == 2 / 4
    # A copy refreshed at 12:00, after the first change: fresh at every sample, the second change (20:42)
    # comes after the last one. Sampled every 3 h, the 21:00 sample finds it stale: 7 of 8.
    noon = site.start + timedelta(hours=12)

    def refreshed(path: str, at: datetime) -> str | None:
        return site.live_text(path, site.start if at < noon else noon)

    assert freshness(site, refreshed, step=step) == 4 / 4
    assert freshness(site, refreshed, step=timedelta(hours=3)) == 7 / 8
    assert freshness(site, lambda path, at: None, step=step) == 0.0
    # The span is half-open: [00:00, 12:00) has the samples 00:00 and 06:00 only.
    assert freshness(site, lambda path, at: site.live_text(path, site.start), (site.start, noon), step) == 1.0


# --- the crawler's extractor and the CLI --------------------------------------------------------------------


def test_extractor_keeps_the_content_and_none_of_the_changing_template(site: EvolvingSite) -> None:
    articles = [a for a in site.articles if a.change_class == "static" and not a.new and a.removed is None][
        :20
    ]
    later = site.start + timedelta(days=17, hours=3)  # new articles since: another "Latest posts" box
    for article in articles:
        url = f"http://127.0.0.1:8000{article.path}"
        site.now = site.start
        first = site.respond(article.path).body
        site.now = later
        second = site.respond(article.path).body
        assert first != second
        one, two = extract(first, url=url).text, extract(second, url=url).text
        assert one == two
        live = site.live_text(article.path, later)
        assert live is not None and set(one.splitlines()) <= set(live.splitlines())


def test_describe_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["describe", "--seed", "0", "--pages", "300"]) == 0
    out = capsys.readouterr().out
    assert "300 articles at the start" in out
    assert "hot" in out and "warm" in out and "static" in out
    assert "new articles:" in out and "removed:" in out and "validators:" in out
