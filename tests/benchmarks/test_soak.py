"""The soak run's core (`benchmarks.soak`) on a small site: a real crawl behind the fault server into SQLite,
every servable page found stored once; and how a run's figures turn into its targets."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.faults import Fault, FaultConfig, FaultRates
from benchmarks.sitegen import generate_site
from benchmarks.soak import (
    Process,
    Run,
    expectation,
    new_store,
    page_key,
    render_run,
    render_summary,
    soak_run,
)

# Twice the rates, so that a site of 300 pages has every fault; a short drip keeps the test fast.
CONFIG = FaultConfig(seed=2, rates=FaultRates(0.10, 0.04, 0.02, 0.02, 0.02), drip_seconds=0.5)


def test_a_small_soak_stores_every_servable_page_once(tmp_path: Path) -> None:
    site = generate_site(tmp_path / "site", 300, workers=1)
    expected = expectation(site, CONFIG)
    assert all(expected.faults[fault.value] for fault in Fault), expected.faults
    assert expected.expected <= expected.servable and len(expected.expected) > 0.9 * len(expected.servable)
    with new_store("sqlite", tmp_path) as store:
        run = soak_run("sqlite", expected, store, tmp_path / "runs", timeout=300)
    report = render_run(run)
    assert run.failures() == [], report
    assert run.stored_once and run.stored == run.expected and run.duplicates == 0, report
    # Each fault was met: the server answered with it, and the crawl retried or skipped as it should.
    for answer in ("503", "500", "reset", "200 slow", "200 oversized"):
        assert run.answers.get(answer), (answer, run.answers)
    assert any(answer.startswith("200 charset") for answer in run.answers), run.answers
    (crawl,) = run.processes
    # An oversized page is asked for once and skipped; a permanent 500 after its retries (3 tries).
    assert crawl.stat("cleancrawl/pages_skipped/too_large") == run.answers["200 oversized"]
    assert crawl.stat("cleancrawl/pages_skipped/http_500") * 3 == run.answers["500"]
    assert crawl.stat("retry/reason_count/503 Service Unavailable") == run.answers["503"]
    assert 0 < crawl.peak_mb < 300
    assert expected.charset and run.garbled == []  # a wrong charset label is seen through


def test_page_keys() -> None:
    assert page_key("/a") == page_key("/a/") == page_key("/a/index.html") == "/a/"
    assert page_key("/") == "/"


def _run(**changes: object) -> Run:
    fields: dict[str, object] = {
        "name": "sqlite", "engine": "sqlite", "pages": 10, "servable": 9, "expected": 8, "stored": 8,
        "missing": [], "unservable_stored": [], "unexpected": [], "duplicate_urls": {}, "duplicate_pages": {},
        "shared_text": 0, "garbled": [], "seconds": 2.0, "requests": 12, "answers": {"200": 9},
        "processes": [Process(0, 2.0, 120.0, 0, "crawl.log", {"cleancrawl/pages_stored": 8})],
    }  # fmt: skip
    fields.update(changes)
    return Run(**fields)  # type: ignore[arg-type]


def test_targets_of_a_run() -> None:
    assert _run().failures() == [] and "met" in render_summary([_run()], 10)
    missed = _run(missing=["/a/"], duplicate_pages={"/b/": ["http://h/b", "http://h/b/"]})
    assert missed.duplicates == 1 and not missed.stored_once
    assert len(missed.failures()) == 2 and "MISSED" in render_summary([missed], 10)
    heavy = _run(processes=[Process(0, 2.0, 301.0, 0, "crawl.log", {})])
    assert heavy.failures() == ["peak RSS 301 MB > 300 MB"]
    # Two processes: the RSS target is one process's; an ERROR line or a non-zero exit is a miss.
    two = _run(processes=[Process(0, 2.0, 301.0, 0, "1.log", {}), Process(1, 2.0, 90.0, 2, "2.log", {})])
    assert [line.split()[2] for line in two.failures()] == ["exited", "logged"]


@pytest.mark.parametrize("url", ["sqlite"])
def test_new_sqlite_store_is_empty(tmp_path: Path, url: str) -> None:
    (tmp_path / "soak.db").write_text("stale")
    with new_store(url, tmp_path) as store:
        assert store.startswith("sqlite:///") and not (tmp_path / "soak.db").exists()
