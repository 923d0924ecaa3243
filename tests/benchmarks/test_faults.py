"""The fault-injecting server: each fault behaves as announced, transient ones pass on a retry."""

from __future__ import annotations

import http.client
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from benchmarks.faults import Fault, FaultConfig, FaultRates, FaultServer, choose_fault
from benchmarks.sitegen import GeneratedSite, generate_site

OVERSIZE = 1_000_000


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> GeneratedSite:
    return generate_site(tmp_path_factory.mktemp("faults") / "site", 80, seed=3, workers=1)


def _pinned(site: GeneratedSite, *faults: Fault) -> dict[str, Fault]:
    """Articles given these faults, in order (articles 0, 1, 2...)."""
    return dict(zip(site.articles, faults, strict=False))


@pytest.fixture
def pinned(site: GeneratedSite) -> Iterator[tuple[FaultServer, str, list[str]]]:
    """A server with no random faults and articles 0-9 pinned to one fault each (two per charset/size)."""
    faults = (Fault.TRANSIENT_503, Fault.PERMANENT_500, Fault.RESET, Fault.SLOW, Fault.OVERSIZED,
              Fault.OVERSIZED, Fault.OVERSIZED, Fault.CHARSET, Fault.CHARSET, Fault.CHARSET)  # fmt: skip
    config = FaultConfig(
        rates=FaultRates(0, 0, 0, 0, 0), overrides=_pinned(site, *faults),
        oversize_bytes=OVERSIZE, drip_seconds=0.6,
    )  # fmt: skip
    server = FaultServer(site.root, config)
    with server as base:
        yield server, base, site.articles[:10]


class Answer:
    """One GET over a fresh connection: status, headers and body, or the error that ended it."""

    def __init__(self, base: str, path: str) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", urlsplit(base).port, timeout=20)
        started = time.perf_counter()
        self.error: Exception | None = None
        self.status, self.body, self.headers = 0, b"", http.client.HTTPMessage()
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            self.status, self.headers = response.status, response.headers
            self.body = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.error = error
        finally:
            connection.close()
        self.seconds = time.perf_counter() - started


def test_transient_503_then_the_page(pinned: tuple[FaultServer, str, list[str]], site: GeneratedSite) -> None:
    server, base, paths = pinned
    first, second = Answer(base, paths[0]), Answer(base, paths[0])
    assert first.status == 503 and first.headers["Retry-After"] == "1"
    assert (second.status, second.body) == (200, site.file_of(paths[0]).read_bytes())
    assert server.record(paths[0]).answers == ["503", "200"]


def test_permanent_500_every_time(pinned: tuple[FaultServer, str, list[str]]) -> None:
    server, base, paths = pinned
    assert [Answer(base, paths[1]).status for _ in range(3)] == [500, 500, 500]
    assert server.record(paths[1]).attempts == 3


def test_reset_mid_body_then_the_page(
    pinned: tuple[FaultServer, str, list[str]], site: GeneratedSite
) -> None:
    server, base, paths = pinned
    first = Answer(base, paths[2])
    assert isinstance(first.error, ConnectionResetError | http.client.IncompleteRead)
    second = Answer(base, paths[2])
    assert (second.status, second.body) == (200, site.file_of(paths[2]).read_bytes())
    assert server.record(paths[2]).answers == ["reset", "200"]


def test_slow_drip_finishes_in_the_configured_time(
    pinned: tuple[FaultServer, str, list[str]], site: GeneratedSite
) -> None:
    server, base, paths = pinned
    answer = Answer(base, paths[3])
    assert (answer.status, answer.body) == (200, site.file_of(paths[3]).read_bytes())
    assert 0.5 <= answer.seconds < 3
    assert server.record(paths[3]).answers == ["200 slow"]


def test_oversized_pages_with_and_without_a_length(pinned: tuple[FaultServer, str, list[str]]) -> None:
    server, base, paths = pinned
    announced = set()
    for path in paths[4:7]:
        answer = Answer(base, path)
        assert answer.status == 200 and len(answer.body) > OVERSIZE
        assert answer.body.rstrip().endswith(b"</html>")
        length = answer.headers["Content-Length"]
        assert length is None or int(length) == len(answer.body)
        announced.add(length is not None)
        assert server.record(path).answers[0].startswith("200 oversized")
    assert announced == {True, False}


def test_a_client_leaving_an_oversized_page_is_recorded(site: GeneratedSite) -> None:
    # The default 20 MB: a smaller body could fit whole in the loopback socket buffers.
    server = FaultServer(site.root, FaultConfig(overrides={site.articles[0]: Fault.OVERSIZED}))
    with server as base:
        connection = http.client.HTTPConnection("127.0.0.1", urlsplit(base).port, timeout=10)
        connection.request("GET", site.articles[0])
        response = connection.getresponse()
        response.read(100_000)
        response.close()  # the response holds the socket too: both close, as a crawler past its size cap
        connection.close()
        deadline = time.monotonic() + 5
        while not server.record(site.articles[0]).answers and time.monotonic() < deadline:
            time.sleep(0.05)
    assert server.record(site.articles[0]).answers[0].endswith("client left")


def test_wrong_charsets_both_ways(pinned: tuple[FaultServer, str, list[str]], site: GeneratedSite) -> None:
    _, base, paths = pinned
    kinds = set()
    for path in paths[7:10]:
        answer, original = Answer(base, path), site.file_of(path).read_bytes()
        declared = answer.headers["Content-Type"].split("charset=")[1]
        if declared == "utf-8":  # windows-1252 bytes behind a utf-8 label
            assert answer.body == original.decode("utf-8").encode("cp1252", errors="xmlcharrefreplace")
            with pytest.raises(UnicodeDecodeError):
                answer.body.decode("utf-8")
        else:  # utf-8 bytes behind a windows-1252 label
            assert declared == "windows-1252" and answer.body == original
            assert answer.body.decode("cp1252", errors="replace") != original.decode("utf-8")
        kinds.add(declared)
    assert kinds == {"utf-8", "windows-1252"}


def test_directories_redirect_and_missing_paths_404(
    pinned: tuple[FaultServer, str, list[str]], site: GeneratedSite
) -> None:
    _, base, _ = pinned
    redirect = Answer(base, site.articles[20].rstrip("/"))
    assert (redirect.status, redirect.headers["Location"]) == (301, site.articles[20])
    assert Answer(base, "/no/such/page/").status == 404
    assert Answer(base, "/../../etc/passwd").status == 404
    assert Answer(base, "/").status == 200


def test_faults_follow_the_rates_and_the_seed() -> None:
    paths = [f"/2020/01/01/post-{i}/" for i in range(40_000)]
    counts = Counter(choose_fault(path, FaultConfig()) for path in paths)
    expected = {Fault.TRANSIENT_503: 0.025, Fault.PERMANENT_500: 0.025, Fault.RESET: 0.02, Fault.SLOW: 0.01,
                Fault.OVERSIZED: 0.01, Fault.CHARSET: 0.01}  # fmt: skip
    for fault, rate in expected.items():
        assert abs(counts[fault] / len(paths) - rate) < 0.25 * rate, fault
    assert choose_fault("/", FaultConfig(rates=FaultRates(1.0, 0, 0, 0, 0))) == Fault.NONE  # exempt
    same = [choose_fault(path, FaultConfig(seed=0)) for path in paths[:2000]]
    assert same == [choose_fault(path, FaultConfig(seed=0)) for path in paths[:2000]]
    assert same != [choose_fault(path, FaultConfig(seed=1)) for path in paths[:2000]]
    with pytest.raises(ValueError, match="more than 1"):
        FaultServer(Path(), FaultConfig(rates=FaultRates(0.9, 0.2)))


def test_servable_and_reachable(site: GeneratedSite) -> None:
    server = FaultServer(site.root, FaultConfig(seed=5, rates=FaultRates(0.2, 0.05, 0.05, 0.05, 0.05)))
    faults = server.fault_counts(site.kinds)
    assert faults[Fault.PERMANENT_500] and faults[Fault.OVERSIZED]
    servable = server.servable(site.kinds)
    assert len(servable) == site.pages - faults[Fault.PERMANENT_500] - faults[Fault.OVERSIZED]
    assert all(server.fault(path) not in (Fault.PERMANENT_500, Fault.OVERSIZED) for path in servable)
    reachable = server.reachable()
    assert "/" in reachable and reachable <= set(servable)
    assert len(reachable) > 0.9 * len(servable)


def test_a_crawlers_load_of_keep_alive_connections(site: GeneratedSite) -> None:
    server = FaultServer(site.root, FaultConfig(rates=FaultRates(0, 0, 0, 0, 0)))
    paths = list(site.kinds)

    def client(number: int) -> list[int]:
        connection = http.client.HTTPConnection("127.0.0.1", urlsplit(base).port, timeout=20)
        statuses = []
        for i in range(25):
            connection.request("GET", paths[(number * 25 + i) % len(paths)])
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
        connection.close()
        return statuses

    with server as base, ThreadPoolExecutor(32) as pool:
        results = [status for statuses in pool.map(client, range(32)) for status in statuses]
    assert results == [200] * 800
    assert server.requests() == 800
