"""The revisit schedule: Cho and Garcia-Molina's change-rate estimate and the interval it gives."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest
from scrapy.settings import Settings

from crawler import default_settings
from pipelines.revisit import ChangeHistory, RevisitPolicy, freshness_reach, revisit_policy

DAY = 86400.0


def test_no_change_seen_is_no_rate() -> None:
    assert ChangeHistory(visits=12, changes=0, seconds=12 * DAY).change_rate() == 0.0
    assert ChangeHistory().change_rate() == 0.0


def test_the_estimate_is_the_bias_reduced_one_and_finite_when_every_visit_found_a_change() -> None:
    # Ten daily visits, three changes: r = -ln((n - X + 0.5) / (n + 0.5)) changes a visit.
    assert ChangeHistory(10, 3, 10 * DAY).change_rate() == pytest.approx(-math.log(7.5 / 10.5) / DAY)
    # X = n: the naive -ln(1 - X/n) is infinite; this one is not, and grows with the evidence.
    every = [ChangeHistory(n, n, n * DAY).change_rate() for n in (2, 5, 20)]
    assert all(math.isfinite(rate) for rate in every) and every == sorted(every)


@pytest.mark.parametrize("freshness", [0.5, 0.9, 0.95, 0.99])
def test_the_reach_is_where_a_poisson_page_is_fresh_that_share_of_the_time(freshness: float) -> None:
    reach = freshness_reach(freshness)
    assert -math.expm1(-reach) / reach == pytest.approx(freshness, abs=1e-9)


def test_a_page_that_changes_more_often_is_visited_more_often_within_the_bounds() -> None:
    policy = RevisitPolicy(min_interval=timedelta(hours=1), max_interval=timedelta(days=30))
    current = timedelta(days=1)

    def after(changes: int) -> timedelta:
        return policy.next_interval(current, True, ChangeHistory(20, changes, 20 * DAY))

    intervals = [after(changes) for changes in (1, 4, 10, 20)]
    assert intervals == sorted(intervals, reverse=True)
    assert intervals[-1] == timedelta(hours=1)  # a change at every daily visit: at the floor
    rare = policy.next_interval(current, False, ChangeHistory(400, 1, 400 * DAY))
    assert rare == timedelta(days=30)  # one change in 400 days: at the ceiling


def test_the_default_settings_make_the_estimate_policy() -> None:
    settings = Settings(
        {name: getattr(default_settings, name) for name in dir(default_settings) if name.isupper()}
    )
    policy = revisit_policy(settings)
    assert (policy.schedule, policy.target_freshness, policy.change) == ("estimate", 0.95, "content")
