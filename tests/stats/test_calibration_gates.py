"""Calibration: the size of every test and gate the product decides with, at 3 evals per category
and 1-3 samples (``tuner.stats.simulate`` worlds, seeded, >= 200 repetitions each).

- compare's table: exact McNemar per cell, Benjamini-Hochberg across the table: an A/A flags no
  cell in >= 95% of repetitions.
- the publish gate's "non-inferior" (``noninferiority``): said when the true drop is the margin at
  most alpha of the time, and its one-sided bounds hold on every world; the function the gate calls
  decides exactly as the array form simulated here, and a mutant with its standard error halved
  fails the size check.

tune's decisions are calibrated through its own functions elsewhere: the drop test every decision
stops on in ``test_calibration_tune_rules.py``, the confirmation's sequential looks in
``test_calibration_confirmation.py``, the whole tune -> acceptance -> publish path in
``test_calibration_tune_path.py``.
"""

import numpy as np
import pytest
from scipy.special import logit

from tuner.stats import ALPHA, bh_adjust, noninferiority, paired_compare, verdict
from tuner.stats.difference import difference_bounds
from tuner.stats.gates import NON_INFERIOR, decide
from tuner.stats.simulate import SHIFT_GRID, World, draw_pairs, population_delta

TASKS = 3
SEEDS = 400
MARGIN = 0.10


def _arrays(before, after):
    return before.sum(-1), after.sum(-1), (before != after).sum(-1), np.full(before.shape[:2], before.shape[2])


def _tables(before, after):
    """One simulated suite as the {eval: [passed, ...]} tables the product passes around."""
    return ({f"e{i}": list(map(bool, row)) for i, row in enumerate(before)},
            {f"e{i}": list(map(bool, row)) for i, row in enumerate(after)})


def _at_margin(mu: float, margin: float) -> World:
    """A world (equal task rates, so both truths agree exactly) whose true change is -margin."""
    return World(mu, 0.0, float(logit(mu - margin) - logit(mu)))


@pytest.mark.parametrize("samples", [1, 3, 12])
def test_compare_table_a_a_flags_no_cell(samples):
    """At 3 x 1-3 an exact test can hardly reach BH's threshold over 8 cells; 12 samples is where
    a miscalibrated test would show."""
    rng = np.random.default_rng(samples)
    cells = 8  # 4 categories x 2 models
    flagged = 0
    for _ in range(200):
        results = []
        for world in (World(mu, rho) for mu in (0.3, 0.7) for rho in (0.0, 0.3, 0.6, 0.9)[: cells // 2]):
            before, after, _ = draw_pairs(rng, world, 1, TASKS, samples)
            results.append(paired_compare(*_tables(before[0], after[0])))
        qs = bh_adjust([r.p_value for r in results])
        flagged += any(verdict(r.delta, q) != "no detectable change" for r, q in zip(results, qs))
    print(f"compare table A/A at 3x{samples}: any flag {flagged / 200:.3f}")
    assert flagged / 200 <= ALPHA, flagged


def _size_at_the_margin(rng, over: str) -> float:
    """The largest share of "non-inferior" over the worlds whose true drop is the margin."""
    worst = 0.0
    for samples in (1, 3, 12):  # 12: the publish gate's default
        for mu in (0.3, 0.5, 0.8):
            world = _at_margin(mu, MARGIN)
            assert population_delta(world) == pytest.approx(-MARGIN, abs=1e-3)
            before, after, _ = draw_pairs(rng, world, SEEDS * 5, TASKS, samples)
            delta, lo, hi = difference_bounds(*_arrays(before, after), tail=ALPHA, over=over)
            worst = max(worst, float((decide(delta, lo, hi, MARGIN) == NON_INFERIOR).mean()))
            if over == "samples":  # what the gate calls decides as the array form (the first cases)
                for i in range(10):
                    test = noninferiority(*_tables(before[i], after[i]), MARGIN)
                    assert (test.verdict == NON_INFERIOR) == bool(lo[i] > -MARGIN) and test.lo == pytest.approx(lo[i])
    return worst


@pytest.mark.parametrize("over", ["evals", "samples"])
def test_non_inferiority_size_at_the_margin(over):
    size = _size_at_the_margin(np.random.default_rng(7), over)
    print(f"non-inferior at a true drop of the margin ({over}): {size:.3f}")
    assert size <= ALPHA, size


def test_the_size_check_fails_on_a_gate_with_its_standard_error_halved(monkeypatch):
    import tuner.stats.difference as difference

    real = difference.discordance_se
    monkeypatch.setattr(difference, "discordance_se", lambda disc, n: real(disc, n) / 2)
    size = _size_at_the_margin(np.random.default_rng(7), "samples")
    print(f"mutant (standard error halved): {size:.3f}")
    assert size > ALPHA


@pytest.mark.parametrize("over", ["evals", "samples"])
def test_one_sided_bounds_hold_on_every_world(over):
    """Size at a margin equal to the truth, for any truth on the grid (the gate's size whatever
    the margin), and "regressed" in an A/A."""
    rng = np.random.default_rng(8)
    for samples in (1, 3):
        for world in (World(mu, rho, s, sp) for mu in (0.1, 0.5, 0.9) for rho in (0.0, 0.3, 0.9) for s, sp in SHIFT_GRID):
            before, after, conditional = draw_pairs(rng, world, SEEDS, TASKS, samples)
            _, lo, hi = difference_bounds(*_arrays(before, after), tail=ALPHA, over=over)
            truth = population_delta(world) if over == "evals" else conditional
            assert float((lo > truth).mean()) <= ALPHA, (samples, world, "lower")
            assert float((hi < truth).mean()) <= ALPHA, (samples, world, "upper")
