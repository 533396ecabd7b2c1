"""Calibration: the size of every test and gate the product decides with, at 3 evals per category
and 1-3 samples (``tuner.stats.simulate`` worlds, seeded, >= 200 repetitions each).

- compare's table: exact McNemar per cell, Benjamini-Hochberg across the table: an A/A flags no
  cell in >= 95% of repetitions.
- the non-inferiority gate: "non-inferior" when the true drop is the margin, and "regressed" in an
  A/A, each at most alpha; also through the sequential looks with alpha spending.
- tune's constraint (``no_regression``): feasible when the true drop is the tolerance at most 2.5%.
- the sequential confirmation (``paired_estimate`` + ``zone_tests`` over its rounds): an A/A
  flags no cell over all looks in >= 95% of repetitions.
"""

import numpy as np
import pytest
from scipy.special import expit, logit

from tuner.stats import ALPHA, bh_adjust, no_regression, paired_compare, paired_estimate, spend, verdict
from tuner.stats.difference import difference_bounds, discordance_se
from tuner.stats.gates import NON_INFERIOR, REGRESSED, decide
from tuner.stats.simulate import SHIFT_GRID, World, draw_pairs, population_delta
from tuner.stats.zones import HELPS, HURTS, Zone, zone_tests

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


@pytest.mark.parametrize("over", ["evals", "samples"])
def test_non_inferiority_size_at_the_margin(over):
    rng = np.random.default_rng(7)
    for samples in (1, 2, 3):
        for mu in (0.3, 0.5, 0.8):
            world = _at_margin(mu, MARGIN)
            assert population_delta(world) == pytest.approx(-MARGIN, abs=1e-3)
            before, after, _ = draw_pairs(rng, world, SEEDS * 5, TASKS, samples)
            delta, lo, hi = difference_bounds(*_arrays(before, after), tail=ALPHA, over=over)
            size = float((decide(delta, lo, hi, MARGIN) == NON_INFERIOR).mean())
            assert size <= ALPHA, (samples, mu, size)


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


def _sequential(rng, world: World, rounds=(1, 1, 2, 4), sims=SEEDS * 5, margin=MARGIN):
    """Verdict per simulation of a gate that looks after each round (cumulative samples 1, 2, 4,
    8 per eval) and stops at the first decision."""
    decided = np.full(sims, "", dtype=object)
    before = np.zeros((sims, TASKS, 0), dtype=bool)
    after = before.copy()
    for look, reps in enumerate(rounds, start=1):
        b, a, _ = draw_pairs(rng, world, sims, TASKS, reps)
        before, after = np.concatenate([before, b], axis=2), np.concatenate([after, a], axis=2)
        delta, lo, hi = difference_bounds(*_arrays(before, after), tail=spend(ALPHA, look), over="samples")
        now = decide(delta, lo, hi, margin)
        decided = np.where((decided == "") & (now != "not enough evidence"), now, decided)
    return decided


def test_sequential_non_inferiority_over_looks():
    rng = np.random.default_rng(9)
    for mu in (0.3, 0.5, 0.8):
        assert float((_sequential(rng, _at_margin(mu, MARGIN)) == NON_INFERIOR).mean()) <= ALPHA
        assert float((_sequential(rng, World(mu, 0.5)) == REGRESSED).mean()) <= ALPHA


def test_tune_constraint_is_infeasible_when_the_drop_is_the_tolerance():
    tolerance = 0.15
    rng = np.random.default_rng(10)
    for samples in (1, 2, 3, 8):
        for mu in (0.4, 0.6, 0.9):
            world = _at_margin(mu, tolerance)
            before, after, _ = draw_pairs(rng, world, SEEDS * 5, TASKS, samples)
            _, lo, _ = difference_bounds(*_arrays(before, after), tail=0.025, over="samples")
            assert float((lo >= -tolerance).mean()) <= 0.025, (samples, mu)
            # The function tune calls decides exactly as the array form.
            for i in range(20):
                check = no_regression(*_tables(before[i], after[i]), tolerance)
                assert check.feasible == bool(lo[i] >= -tolerance) and check.lo == pytest.approx(lo[i])


def test_sequential_confirmation_a_a_flags_no_cell_over_its_looks():
    """confirmation.py's looks: rounds of 3, 3, 6, 12 samples (K = 12), 6 cells per look, BH
    across the cells still open, alpha spent over the looks."""
    rng = np.random.default_rng(11)
    zone = Zone()
    worlds = [World(mu, rho) for mu in (0.3, 0.7) for rho in (0.0, 0.3, 0.6)]
    flagged = 0
    for _ in range(200):
        data = [draw_pairs(rng, w, 1, TASKS, 24)[:2] for w in worlds]
        open_cells = list(range(len(worlds)))
        hit = False
        for look, upto in enumerate((3, 6, 12, 24), start=1):
            ests = [paired_estimate(*_tables(data[c][0][0, :, :upto], data[c][1][0, :, :upto])) for c in open_cells]
            tests = zone_tests(ests, zone, look)
            hit |= any(t.verdict in (HELPS, HURTS) for t in tests)
            open_cells = [c for c, t in zip(open_cells, tests) if t.verdict == "open"]
            if not open_cells:
                break
        flagged += hit
    assert flagged / 200 <= ALPHA, flagged


@pytest.mark.parametrize("look", [1, 4])
def test_sequential_confirmation_intervals_cover_at_each_looks_level(look):
    """The zone's interval at look k has level 1 - 2 * alpha_k (93.9% at look 1, 99.6% at look
    4); on these evals it must cover the conditional truth within 2 points of that. Vectorised
    through the array form ``paired_estimate`` uses; the first cases also through the functions."""
    from scipy.special import stdtrit

    zone = Zone()
    a_look = zone.spend(look)[0]
    nominal = 1 - 2 * a_look
    rng = np.random.default_rng(20 + look)
    for samples in (2, 3, 12):
        worst = 1.0
        for world in (World(mu, rho, s, sp) for mu in (0.1, 0.5, 0.9) for rho in (0.0, 0.6) for s, sp in SHIFT_GRID):
            before, after, truth = draw_pairs(rng, world, SEEDS, TASKS, samples)
            delta = (after.astype(float) - before).mean(axis=(1, 2))
            se = discordance_se((before != after).sum(axis=(1, 2)), TASKS * samples)
            half = stdtrit(TASKS * samples - TASKS, 1 - a_look) * se
            worst = min(worst, float(((delta - half <= truth) & (truth <= delta + half)).mean()))
            tests = zone_tests([paired_estimate(*_tables(before[i], after[i])) for i in range(3)], zone, look)
            assert [t.lo for t in tests] == pytest.approx(list(delta[:3] - half[:3]))
        assert worst >= nominal - 0.02, (samples, worst, nominal)
