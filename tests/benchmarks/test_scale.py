"""The scale-out benchmark's comparison of fleets (`benchmarks.scale`): each run serves the site on a port of
its own, so pages compare by path."""

from __future__ import annotations

from benchmarks.crawl import ChildRun
from benchmarks.scale import FleetRun, _outcome, targets


def _run(processes: int, port: int, bodies: dict[str, str]) -> FleetRun:
    rows = [(f"http://127.0.0.1:{port}{path}", body, "site c1") for path, body in bodies.items()]
    outcome = _outcome(rows)
    return FleetRun(processes, 10.0 / processes, len(rows), len(rows), len(rows), 0, [], 0.0, [], outcome)


def test_runs_on_two_ports_compare_their_pages_by_path() -> None:
    pages = {"/": "home", "/a.html": "an article", "/b.html?page=2": "a listing"}
    one, two = _run(1, 8001, pages), _run(2, 8002, pages)
    assert two.differing(one) == (0, 0) and two.outcome.keys() == one.outcome.keys()
    changed = _run(2, 8003, {**pages, "/a.html": "another text"})
    assert changed.differing(one) == (1, 0)
    text_target = targets([one, changed], None)[2]
    assert text_target.startswith("MISSED: clean text and clusters as 1 process's: 1 pages differ")
    assert targets([one, two], None)[0].startswith("met: 2 processes at least 1.5x")  # 2x the pages/s


def test_cpu_per_thousand_pages_splits_the_crawlers_from_the_rest_of_the_machine() -> None:
    children = [ChildRun(20.0, 6.0, 150.0), ChildRun(20.0, 5.0, 150.0)]
    run = FleetRun(2, 20.0, 2000, 2000, 2001, 0, children, 14.0, [1000, 1000], {})
    assert run.cpu_per_thousand() == (5.5, 1.5)
    # A machine that reads less CPU than the crawlers used (a clock tick apart) leaves the rest at 0.
    short = FleetRun(2, 20.0, 2000, 2000, 2001, 0, children, 10.0, [1000, 1000], {})
    assert short.cpu_per_thousand()[1] == 0.0
