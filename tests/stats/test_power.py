"""tuner.stats.power: the simulated power of compare's paired McNemar test."""

import time

import pytest

from tuner.errors import InputError
from tuner.stats import estimate_icc, power_curve
from tuner.stats.power import K_GRID, _mcnemar_exact


def test_power_grows_with_samples_and_reports_smallest_k():
    r = power_curve(21, effect=0.15, baseline=0.6)
    powers = [p.power for p in r.points]
    assert [p.samples for p in r.points] == list(K_GRID)
    assert powers == sorted(powers) and powers[0] < 0.5 < powers[-1]
    assert r.smallest_k == next(p.samples for p in r.points if p.power >= 0.8)


def test_tiny_effect_on_few_tasks_reaches_no_k():
    r = power_curve(3, effect=0.02, baseline=0.6)
    assert r.smallest_k is None and max(p.power for p in r.points) < 0.8


def test_no_effect_power_is_the_false_positive_rate():
    # A "power" for a null effect would be meaningless; check the size instead by a tiny shift.
    r = power_curve(21, effect=0.001, baseline=0.5, ks=(8,), simulations=4000)
    assert r.points[0].power <= 0.05


def test_regressions_count_only_in_the_right_direction():
    up = power_curve(6, effect=0.3, baseline=0.5, ks=(8,))
    down = power_curve(6, effect=-0.3, baseline=0.5, ks=(8,))
    assert up.points[0].power > 0.5 and down.points[0].power > 0.5


def test_heterogeneity_matters_and_runs_are_reproducible():
    low = power_curve(6, effect=0.2, baseline=0.6, icc=0.05, ks=(5,))
    high = power_curve(6, effect=0.2, baseline=0.6, icc=0.8, ks=(5,))
    assert low.points[0].power != high.points[0].power
    assert power_curve(6, effect=0.2, baseline=0.6, icc=0.05, ks=(5,)) == low


def test_bad_inputs_raise_input_error():
    for kwargs in ({"effect": 0.0}, {"effect": 0.5, "baseline": 0.6}, {"baseline": 1.0}, {"icc": 0.0}):
        with pytest.raises(InputError):
            power_curve(5, **kwargs)


def test_vectorised_mcnemar_matches_statsmodels():
    import numpy as np
    from statsmodels.stats.contingency_tables import mcnemar

    b = np.array([0, 1, 3, 7, 2, 10])
    c = np.array([0, 0, 1, 1, 9, 10])
    got = _mcnemar_exact(b, c)
    for i in range(len(b)):
        want = 1.0 if b[i] + c[i] == 0 else mcnemar([[0, b[i]], [c[i], 0]], exact=True).pvalue
        assert got[i] == pytest.approx(want)


def test_fast_enough_for_the_whole_suite():
    power_curve(5)  # imports
    start = time.perf_counter()
    power_curve(21, effect=0.1, baseline=0.7)
    assert time.perf_counter() - start < 5.0


def test_icc_estimate_separates_homogeneous_from_heterogeneous_tasks():
    same = [(3, 6)] * 10 + [(4, 6)] * 10
    spread = [(0, 6)] * 10 + [(6, 6)] * 10
    rate_same, icc_same = estimate_icc(same)
    rate_spread, icc_spread = estimate_icc(spread)
    assert rate_same == pytest.approx(7 / 12) and rate_spread == pytest.approx(0.5)
    assert icc_same == 0.01 and icc_spread == 0.95
    assert estimate_icc([(1, 1), (0, 1)]) is None  # one sample per task says nothing
