"""Calibration: the coverage of the rate and paired-difference intervals at the smallest sizes the
product allows (3 evals per category, 1-3 samples), on every world of the calibration grid
(``tuner.stats.simulate``). Seeded and vectorised: each world is simulated as one array.

Nominal 95%; required >= 93% in every world. The former percentile cluster bootstrap covered 72%
at 3 evals (the benchmark, benchmarks/bench_stats.py, measures it next to these).
"""

import numpy as np
import pytest

from tuner.stats.difference import difference_bounds
from tuner.stats.intervals import rate_bounds
from tuner.stats.simulate import RATE_GRID, SHIFT_GRID, World, draw_pairs, draw_rates, population_delta

TASKS = 3
SIMS = 2000
PAIR_SIMS = 1000
MIN_COVERAGE = 0.93
PAIR_WORLDS = [World(mu, rho, s, sp) for mu in (0.1, 0.5, 0.9) for rho in (0.0, 0.3, 0.6, 0.9) for s, sp in SHIFT_GRID]


@pytest.mark.parametrize("samples", [1, 2, 3])
def test_rate_interval_covers_the_category_rate(samples):
    rng = np.random.default_rng(samples)
    worst = (1.0, None)
    for mu, rho in RATE_GRID:
        passes = draw_rates(rng, World(mu, rho), SIMS, TASKS, samples)
        _, lo, hi = rate_bounds(passes, np.full_like(passes, samples))
        coverage = float(((lo <= mu) & (mu <= hi)).mean())
        worst = min(worst, (coverage, (mu, rho)), key=lambda w: w[0])
    assert worst[0] >= MIN_COVERAGE, worst


def _pair_arrays(before, after):
    return before.sum(-1), after.sum(-1), (before != after).sum(-1), np.full(before.shape[:2], before.shape[2])


@pytest.mark.parametrize("tasks,samples", [(3, 1), (3, 2), (3, 3), (12, 3)])
@pytest.mark.parametrize("over", ["evals", "samples"])
def test_paired_difference_interval_covers_its_truth(tasks, samples, over):
    """12 x 3 guards the MOVER floor of the category interval: without it a skewed change (a few
    tasks moved a lot) left a t interval over 12 tasks at 85%."""
    rng = np.random.default_rng(100 + samples + tasks)
    worst = (1.0, None)
    for world in PAIR_WORLDS:
        before, after, conditional = draw_pairs(rng, world, PAIR_SIMS, tasks, samples)
        _, lo, hi = difference_bounds(*_pair_arrays(before, after), over=over)
        truth = population_delta(world) if over == "evals" else conditional
        coverage = float(((lo <= truth) & (truth <= hi)).mean())
        worst = min(worst, (coverage, world), key=lambda w: w[0])
    assert worst[0] >= MIN_COVERAGE, worst


def test_the_rate_coverage_check_fails_without_the_design_effect(monkeypatch):
    """Mutant: samples counted as independent (n_eff = n, the tasks' clustering ignored)."""
    import tuner.stats.intervals as intervals

    monkeypatch.setattr(intervals, "effective_n", lambda k, m: np.asarray(m, dtype=float).sum(axis=-1))
    rng = np.random.default_rng(3)
    worst = min(
        float(((lo <= mu) & (mu <= hi)).mean())
        for mu, rho in RATE_GRID
        for passes in [draw_rates(rng, World(mu, rho), SIMS, TASKS, 3)]
        for _, lo, hi in [rate_bounds(passes, np.full_like(passes, 3))]
    )
    print(f"rate interval without the design effect: worst coverage {worst:.3f}")
    assert worst < MIN_COVERAGE


@pytest.mark.parametrize("over,mutant", [("evals", "tasks not the unit"), ("samples", "standard error halved")])
def test_the_difference_coverage_check_fails_on_a_mutant(monkeypatch, over, mutant):
    """Mutants: the population interval built as if samples were the unit (the task-level spread
    ignored), and the interval on these evals with its standard error halved."""
    import tuner.stats.difference as difference

    if mutant == "tasks not the unit":
        real = difference.difference_bounds
        monkeypatch.setattr(
            difference,
            "difference_bounds",
            lambda kb, ka, disc, m, tail=0.025, over="evals": real(kb, ka, disc, m, tail, "samples"),
        )
    else:
        real_se = difference.discordance_se
        monkeypatch.setattr(difference, "discordance_se", lambda disc, n: real_se(disc, n) / 2)
    rng = np.random.default_rng(103)
    worst = 1.0
    for world in PAIR_WORLDS:
        before, after, conditional = draw_pairs(rng, world, PAIR_SIMS, 3, 3)
        _, lo, hi = difference.difference_bounds(*_pair_arrays(before, after), over=over)
        truth = population_delta(world) if over == "evals" else conditional
        worst = min(worst, float(((lo <= truth) & (truth <= hi)).mean()))
    print(f"difference over {over}, mutant {mutant}: worst coverage {worst:.3f}")
    assert worst < MIN_COVERAGE
