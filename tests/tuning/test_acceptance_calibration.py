"""Calibration of tune's acceptance rule (``points_down``) at the confirmation's sizes: 3 evals per
category and 12 fresh samples per eval (the fixed design the sequential confirmation is capped by).

Two error rates matter, per category cell: withholding a winner that changed nothing (the rule's
size, the price of caution) and offering one that costs 25 points (its miss rate). Figures measured
here are the ones the README quotes; the seeds are fixed so the test is exact, and the bounds leave
room for the interval method to change."""

import numpy as np
import pytest

from tuner.stats import paired_compare
from tuner.tuning.acceptance import points_down

SEEDS = 200


def _rate(n_evals: int, k: int, shift: float, tolerance: float = 0.15) -> float:
    rng = np.random.default_rng(7)
    flagged = 0
    for seed in range(SEEDS):
        p = rng.uniform(0.3, 0.9, n_evals)
        q = np.clip(p + shift, 0, 1)
        before = {f"e{i}": list(rng.random(k) < p[i]) for i in range(n_evals)}
        after = {f"e{i}": list(rng.random(k) < q[i]) for i in range(n_evals)}
        r = paired_compare(before, after, seed=seed)
        flagged += points_down(r.delta, r.hi, None, tolerance)
    return flagged / SEEDS


@pytest.mark.parametrize("n_evals,k,max_false_withhold,min_caught", [(3, 12, 0.15, 0.80), (3, 3, 0.30, 0.60)])
def test_points_down_rates(n_evals, k, max_false_withhold, min_caught):
    assert _rate(n_evals, k, 0.0) <= max_false_withhold
    assert _rate(n_evals, k, -0.25) >= min_caught
