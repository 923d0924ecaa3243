"""The recrawl benchmark's core on a small site over a few simulated days: one crawl per tick with something
due, the store read after each, and figures that agree with each other and with the site's fetch log."""

from __future__ import annotations

from datetime import timedelta

import pytest

from benchmarks.recrawl import (
    Result,
    Spec,
    budget_gap_target,
    fetch_share_target,
    fetches_to_reach,
    interpolate,
    run_all,
)

TICK = timedelta(hours=12)
DEFAULTS = (("fixed", "1d"), ("html", "1h"), ("content", "0.95"))


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Result]:
    folder = tmp_path_factory.mktemp("recrawl")
    runs = [Spec(policy, value, seed=3, pages=30, days=6, tick=TICK) for policy, value in DEFAULTS]
    return {result.spec.policy: result for result in run_all(runs, folder, jobs=1)}


def test_every_run_crawls_and_its_figures_agree(results: dict[str, Result]) -> None:
    for result in results.values():
        assert not result.error, result.error
        assert result.ticks == 12 and 0 < result.crawls <= result.ticks
        assert result.fetches == result.ok + result.not_modified + result.other
        assert result.responses == result.fetches  # the crawls' own count is the site's log
        assert result.ok > 0 and result.not_modified > 0  # validators were sent back and honoured
        assert 0.5 < result.freshness <= 1.0
        # The store's history and the fetch log give nearly what the store held after each crawl: they
        # differ only where extraction or re-cleaning made the stored text differ from the live one (on a
        # site this small, with young site models, a few pages for a few hours).
        assert abs(result.freshness_history - result.freshness) < 0.03
        assert abs(result.freshness_log - result.freshness) < 0.03
        assert set(result.class_freshness) >= {"hot", "warm", "static"}


def test_a_tick_with_nothing_due_runs_no_crawl(results: dict[str, Result]) -> None:
    # Every page is due a day after its fetch: the fixed policy crawls at the first tick and once a day.
    assert results["fixed"].crawls == 6
    assert results["content"].crawls < results["content"].ticks


def test_intervals_move_with_the_policy(results: dict[str, Result]) -> None:
    assert all(days == pytest.approx(1.0) for days in results["fixed"].intervals.values())
    content, html = results["content"].intervals, results["html"].intervals
    assert content["static"] > 1.0  # unchanged pages back off
    # Template changes are changes to the raw-HTML policy: its pages without validators come back
    # whole with a new template every time, and their interval shrinks.
    assert html["static"] < content["static"]


def test_informative_change_fetches_fewer_whole_pages_than_raw_html(results: dict[str, Result]) -> None:
    content, html, fixed = results["content"], results["html"], results["fixed"]
    assert content.fetches < fixed.fetches
    # Its estimate visits the pages that do change as often as the raw-HTML policy's floor (over six days it
    # may spend as many requests), but what comes back whole is what changed: fewer 200s.
    assert content.ok < html.ok


def test_curves_and_targets() -> None:
    points = [(100.0, 0.90), (200.0, 0.95), (400.0, 0.97)]
    assert interpolate(points, 150) == pytest.approx(0.925)
    assert interpolate(points, 400) == pytest.approx(0.97)
    assert interpolate(points, 50) is None and interpolate(points, 401) is None
    assert fetches_to_reach(points, 0.96) == pytest.approx(300)
    assert fetches_to_reach(points, 0.80) == 100
    assert fetches_to_reach(points, 0.99) is None

    def run(policy: str, value: str, fetches: int, freshness: float) -> Result:
        return Result(Spec(policy, value, 0, 10, 1, TICK), fetches=fetches, freshness=freshness)

    fixed = run("fixed", "1d", 1000, 0.96)
    assert fetch_share_target(fixed, [run("content", "30d", 400, 0.97)]).met
    missed = fetch_share_target(fixed, [run("content", "30d", 400, 0.90), run("content", "4d", 600, 0.97)])
    assert not missed.met and "57.1%" in missed.detail  # 400 + 200 * 6/7 fetches
    content = [run("content", "30d", 400, 0.96)]
    html = [run("html", "1h", 800, 0.95), run("html", "4d", 200, 0.80)]
    gap = budget_gap_target(content, html)
    assert gap.met and "+0.110" in gap.detail  # html at 400 fetches: 0.80 + 0.15 / 3
    assert not budget_gap_target(content, [run("html", "1h", 800, 0.97)]).met  # no shared budget
