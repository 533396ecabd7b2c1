"""tuner.stats.gates and the interval API: the decisions on hand-made cases.

Each case is one the former code got wrong: an A/A on three evals was "passed", a drop within
tolerance on its point estimate but not on its lower bound was feasible, an infrastructure failure
shifted the pairing, a run without a discordant pair had a zero-width interval.
"""

import pytest

from tuner.errors import InputError
from tuner.stats import (
    NON_INFERIOR, NOT_ENOUGH, REGRESSED, difference_interval, no_regression, noninferiority, noninferiority_sequential,
    pair_interval, paired_compare, rate_interval, spend,
)


def _suite(passes: list[list[bool | None]]) -> dict[str, list[bool | None]]:
    return {f"e{i}": list(p) for i, p in enumerate(passes)}


def test_a_small_a_a_is_not_enough_evidence_not_a_pass():
    same = _suite([[True], [False], [True]])
    result = noninferiority(same, same, margin=0.10)
    assert result.verdict == NOT_ENOUGH and result.pairs == 3 and "neither" in result.reason


def test_a_large_a_a_is_non_inferior_and_a_clear_drop_is_regressed():
    same = _suite([[True] * 30, [False] * 30, [True, False] * 15])
    assert noninferiority(same, same, margin=0.15).verdict == NON_INFERIOR
    worse = _suite([[False] * 30, [False] * 30, [False] * 30])
    assert noninferiority(same, worse, margin=0.10).verdict == REGRESSED


def test_fewer_pairs_than_planned_is_not_enough_and_infeasible():
    same = _suite([[True] * 30, [False] * 30, [True] * 30])
    assert noninferiority(same, same, 0.10, planned=120).verdict == NOT_ENOUGH
    assert not no_regression(same, same, 0.15, planned=120).feasible
    empty = noninferiority({}, {}, 0.10)
    assert empty.verdict == NOT_ENOUGH and empty.reason == "no pairs measured"
    assert not no_regression({}, {}, 0.15).feasible


def test_sequential_looks_spend_shares_that_sum_to_alpha():
    assert sum(spend(0.05, k) for k in range(1, 100_000)) == pytest.approx(0.05, rel=1e-4)
    same = _suite([[True] * 12, [False] * 12, [True, False] * 6])
    first, later = noninferiority_sequential(same, same, 0.2, 1), noninferiority_sequential(same, same, 0.2, 4)
    assert later.alpha_used < first.alpha_used and later.lo < first.lo
    with pytest.raises(InputError):
        spend(0.05, 0)


def test_no_regression_bounds_the_lower_end_not_the_point():
    # Point estimate -1/12 is well within a 15% tolerance; the interval's lower end is not: the
    # former check (on the point estimate, McNemar p = 1) called this feasible.
    before = _suite([[True, True, False, True]] * 3)
    after = _suite([[True, False, False, True], [True, True, False, True], [True, True, False, True]])
    check = no_regression(before, after, tolerance=0.15)
    assert check.delta == pytest.approx(-1 / 12)
    assert check.lo < -0.15 and not check.feasible and check.violation == pytest.approx(-check.lo - 0.15)


def test_infrastructure_failures_drop_their_pair_without_re_pairing():
    before = {"e": [None, True, False]}
    after = {"e": [True, True, False]}
    result = paired_compare(before, after)
    assert result.pairs == 2 and result.delta == 0 and not result.fail_to_pass
    assert difference_interval(before, after).pairs == 2
    assert rate_interval(before).n == 2


def test_no_discordant_pair_still_has_an_interval_of_nonzero_width():
    same = _suite([[True, True, True], [False, False, False], [True, True, True]])
    delta, lo, hi = pair_interval(same, same)
    assert delta == 0 and lo < -0.1 and hi > 0.1
    r = paired_compare(same, same)
    assert r.lo < -0.1 and r.hi > 0.1


def test_rate_interval_of_agreeing_tasks_is_honest_about_few_tasks():
    # Three tasks that all pass: the category could still be a coin flip between always-pass and
    # always-fail tasks; nine samples are not nine independent tasks.
    e = rate_interval(_suite([[True] * 3] * 3))
    assert e.rate == 1 and e.hi == 1 and e.lo < 0.5
    one_each = rate_interval(_suite([[True]] * 9))  # one sample per task: exact on 9 samples
    assert one_each.lo == pytest.approx(0.025 ** (1 / 9), rel=1e-6)


def test_bad_arguments_are_named():
    with pytest.raises(InputError, match="over="):
        difference_interval({}, {}, over="tasks")
    with pytest.raises(InputError, match="margin"):
        noninferiority({}, {}, margin=1.5)
