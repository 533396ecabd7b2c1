"""tuner.stats.gates and the interval API: the decisions on hand-made cases.

Each case is one the former code got wrong: an A/A on three evals was "passed", a point estimate
from three evals stopped a change (issue 28.11), an infrastructure failure shifted the pairing, a
run without a discordant pair had a zero-width interval.
"""

import pytest

from tuner.errors import InputError
from tuner.stats import (
    NON_INFERIOR,
    NOT_ENOUGH,
    REGRESSED,
    difference_interval,
    drop_counts,
    drop_tests,
    noninferiority,
    pair_interval,
    paired_compare,
    rate_interval,
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


def test_fewer_pairs_than_planned_is_not_enough():
    same = _suite([[True] * 30, [False] * 30, [True] * 30])
    assert noninferiority(same, same, 0.10, planned=120).verdict == NOT_ENOUGH
    empty = noninferiority({}, {}, 0.10)
    assert empty.verdict == NOT_ENOUGH and empty.reason == "no pairs measured"


def test_a_point_drop_from_few_evals_is_not_an_established_drop():
    """The publish gate once refused "idioms regresses on held-out evals (-22% [-73%, +28%])": a
    point estimate from 3 evals. The drop test asks whether a drop is established."""
    before = _suite([[True], [True], [False]])
    after = _suite([[False], [True], [False]])  # -33 points, one flip
    assert drop_counts(before, after) == (1, 0)
    [one] = drop_tests([drop_counts(before, after)])
    assert one.p_value == pytest.approx(0.5) and not one.regressed


def test_an_established_drop_is_regressed_and_the_family_is_adjusted():
    [alone] = drop_tests([(10, 0)])
    assert alone.p_value == pytest.approx(2**-10) and alone.regressed
    # p = 2**-7 on its own; among eight cells that show nothing, not established (BH).
    assert drop_tests([(7, 0)])[0].regressed
    family = drop_tests([(7, 0)] + [(1, 1)] * 7)
    assert not family[0].regressed and family[0].p_adjusted == pytest.approx(8 * 2**-7)
    # Gains never count as drops; a cell without pairs has p = 1.
    assert drop_tests([(0, 10)])[0].p_value == 1.0 and drop_tests([(0, 0)])[0].p_value == 1.0
    with pytest.raises(InputError, match="alpha"):
        drop_tests([(1, 0)], alpha=0.7)


def test_drop_counts_leave_out_lost_answers():
    before = {"e": [True, None, True, False]}
    after = {"e": [False, False, None, True]}
    assert drop_counts(before, after) == (1, 1)


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
