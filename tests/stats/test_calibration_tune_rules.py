"""Calibration of tune's two decision rules on a category cell, at the sizes tune uses them:

- the trial constraint (``study._violation``: a point drop beyond the tolerance, or a significant
  drop of any size), per other category at the trials' sizes: 9 tuning evals per category on the
  Convex suite, 3 on the Python suite, 4 samples per eval (the default);
- the acceptance rule (``acceptance.points_down``) at the confirmation's sizes: 3 evals per category
  and 12 fresh samples per eval (the fixed design the sequential confirmation is capped by), or 3.

Two error rates matter for each: flagging a change that moved nothing (the rule's size, the price of
caution) and letting through one that costs 25 points (its miss rate). Pass rates are drawn from
30-90% per eval, the change is additive, the tolerance 0.15; the seeds are fixed so the test is
exact, the figures in comments are the README's and the bounds leave room for the methods to change.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tuner.stats import mcnemar_p, paired_compare
from tuner.tuning.acceptance import points_down
from tuner.tuning.study import _violation

Outcomes = dict[str, list[bool]]
TOLERANCE = 0.15


def _flag_rate(flags: Callable[[Outcomes, Outcomes, int], bool], *, n_evals: int, k: int, shift: float,
               sims: int, seed: int) -> float:
    """How often ``flags(before, after, sim)`` says a change moved the cell, over ``sims`` cells."""
    rng = np.random.default_rng(seed)
    flagged = 0
    for sim in range(sims):
        p = rng.uniform(0.3, 0.9, n_evals)
        q = np.clip(p + shift, 0, 1)
        before = {f"e{i}": list(rng.random(k) < p[i]) for i in range(n_evals)}
        after = {f"e{i}": list(rng.random(k) < q[i]) for i in range(n_evals)}
        flagged += bool(flags(before, after, sim))
    return flagged / sims


def _infeasible(before: Outcomes, after: Outcomes, _sim: int) -> bool:
    n = sum(len(v) for v in before.values())
    delta = sum(sum(after[e]) - sum(before[e]) for e in before) / n
    return _violation(delta, mcnemar_p(before, after), TOLERANCE) > 0


def _withheld(before: Outcomes, after: Outcomes, sim: int) -> bool:
    r = paired_compare(before, after, seed=sim)
    return points_down(r.delta, r.hi, None, TOLERANCE)


@pytest.mark.parametrize("n_evals,max_neutral,min_caught", [(9, 0.12, 0.75), (3, 0.30, 0.65)])
def test_trial_constraint_rates(n_evals, max_neutral, min_caught):
    rate = lambda shift: _flag_rate(_infeasible, n_evals=n_evals, k=4, shift=shift, sims=300, seed=3)  # noqa: E731
    assert rate(0.0) <= max_neutral  # measured 8% (9 evals), 25% (3 evals)
    assert rate(-0.25) >= min_caught  # measured 81%, 74%


@pytest.mark.parametrize("k,max_false_withhold,min_caught", [(12, 0.15, 0.80), (3, 0.30, 0.60)])
def test_acceptance_rule_rates(k, max_false_withhold, min_caught):
    rate = lambda shift: _flag_rate(_withheld, n_evals=3, k=k, shift=shift, sims=200, seed=7)  # noqa: E731
    assert rate(0.0) <= max_false_withhold  # measured 9% (K=12), 23% (K=3)
    assert rate(-0.25) >= min_caught  # measured 84%, 67%
