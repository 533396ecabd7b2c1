"""Measured coverage, size and power of every interval, test and gate tuner decides with.

Simulated worlds (``tuner.stats.simulate``): tasks' rates from a Beta (mean mu, intra-task
correlation rho), changes as logit shifts; 3 evals per category (what held-out rows and small
categories have) unless a row says otherwise. "worst" is the smallest coverage (or largest size)
over the calibration grid. The former methods (percentile bootstraps, HC1 + normal, the point
estimate beyond the tolerance or an uncorrected McNemar drop, tune's former "points down") are
re-implemented here only to be measured next to the new ones.

Run: .venv/bin/python benchmarks/bench_stats.py [--sims 2000] [--quick]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.special import logit
from statsmodels.stats.proportion import proportion_confint

from tuner.ablation.effects import rule_effects
from tuner.stats import bh_adjust, paired_estimate
from tuner.stats.difference import difference_bounds
from tuner.stats.gates import NON_INFERIOR, REGRESSED, decide, drop_p
from tuner.stats.intervals import rate_bounds
from tuner.stats.paired import _mcnemar
from tuner.stats.simulate import RATE_GRID, SHIFT_GRID, World, draw_pairs, draw_rates, population_delta, task_rates
from tuner.stats.zones import HELPS, HURTS, Zone, zone_tests

PAIR_WORLDS = [World(mu, rho, s, sp) for mu in (0.1, 0.5, 0.9) for rho in (0.0, 0.3, 0.6, 0.9) for s, sp in SHIFT_GRID]
B = 400  # bootstrap resamples for the former methods (enough to measure them)


def _arrays(before, after):
    return before.sum(-1), after.sum(-1), (before != after).sum(-1), np.full(before.shape[:2], before.shape[2])


def _old_rate(rng, k, m):
    """Former: percentile cluster bootstrap of the pooled rate; Wilson when tasks agree."""
    s, g = k.shape
    idx = rng.integers(0, g, size=(s, B, g))
    boots = np.take_along_axis(k[:, None, :].repeat(B, 1), idx, 2).sum(-1) / (m[0, 0] * g)
    lo, hi = np.quantile(boots, [0.025, 0.975], axis=1)
    rate = k.sum(-1) / (m[0, 0] * g)
    wl, wh = proportion_confint(k.sum(-1), m[0, 0] * g, alpha=0.05, method="wilson")
    agree = np.ptp(k, axis=1) == 0
    return np.where(agree, np.minimum(wl, rate), lo), np.where(agree, np.maximum(wh, rate), hi)


def _old_pairs(rng, before, after):
    """Former: pair bootstrap (tune) -> (lo, hi); [d, d] when no pair is discordant."""
    d = (after.astype(float) - before).reshape(before.shape[0], -1)
    idx = rng.integers(0, d.shape[1], size=(d.shape[0], B, d.shape[1]))
    boots = np.take_along_axis(d[:, None, :].repeat(B, 1), idx, 2).mean(-1)
    return np.quantile(boots, 0.025, axis=1), np.quantile(boots, 0.975, axis=1)


def _old_tasks(rng, before, after):
    """Former: cluster bootstrap of the paired delta over tasks (compare's headline interval),
    falling back to the pair bootstrap when every task moved alike."""
    d = (after.astype(float) - before).mean(-1)
    idx = rng.integers(0, d.shape[1], size=(d.shape[0], B, d.shape[1]))
    boots = np.take_along_axis(d[:, None, :].repeat(B, 1), idx, 2).mean(-1)
    lo, hi = np.quantile(boots, [0.025, 0.975], axis=1)
    plo, phi = _old_pairs(rng, before, after)
    agree = np.ptp(d, axis=1) == 0
    return np.where(agree, plo, lo), np.where(agree, phi, hi)


def coverage(sims: int, sizes) -> list[tuple]:
    """(what, size, new worst, new median, former worst, former median) over the grid's worlds."""
    rng = np.random.default_rng(0)
    rows = []
    for g, m in sizes:
        new, old = [], []
        for mu, rho in RATE_GRID:
            k = draw_rates(rng, World(mu, rho), sims, g, m)
            ms = np.full_like(k, m)
            _, lo, hi = rate_bounds(k, ms)
            new.append(float(((lo <= mu) & (mu <= hi)).mean()))
            olo, ohi = _old_rate(rng, k, ms)
            old.append(float(((olo <= mu) & (mu <= ohi)).mean()))
        rows.append(("rate interval (category)", f"{g}x{m}", new, old))
        cov = {"evals": [], "samples": []}
        old_cov = {"evals": [], "samples": []}
        for world in PAIR_WORLDS:
            before, after, cond = draw_pairs(rng, world, sims // 2, g, m)
            for over, truth in (("evals", population_delta(world)), ("samples", cond)):
                _, lo, hi = difference_bounds(*_arrays(before, after), over=over)
                cov[over].append(float(((lo <= truth) & (truth <= hi)).mean()))
                olo, ohi = (_old_tasks if over == "evals" else _old_pairs)(rng, before, after)
                old_cov[over].append(float(((olo <= truth) & (truth <= ohi)).mean()))
        rows.append(("paired difference (category)", f"{g}x{m}", cov["evals"], old_cov["evals"]))
        rows.append(("paired difference (these evals)", f"{g}x{m}", cov["samples"], old_cov["samples"]))
    return [(w, sz, min(n), float(np.median(n)), min(o), float(np.median(o))) for w, sz, n, o in rows]


def _at(mu: float, delta: float) -> World:
    return World(mu, 0.0, float(logit(mu + delta) - logit(mu)))


def _rate_of(rng, world, sims, g, m, fn):
    before, after, _ = draw_pairs(rng, world, sims, g, m)
    return float(np.mean(fn(before, after)))


def sizes(sims: int) -> list[tuple]:
    rng = np.random.default_rng(1)
    rows = []

    def ni(over, margin=0.10, tail=0.05):
        return lambda b, a: decide(*difference_bounds(*_arrays(b, a), tail=tail, over=over), margin) == NON_INFERIOR

    for m in (1, 3):
        worst = max(_rate_of(rng, _at(mu, -0.10), sims, 3, m, ni("samples")) for mu in (0.3, 0.5, 0.8))
        rows.append(("NI gate: non-inferior at a 10-point drop (these evals)", f"3x{m}", worst, None))
        worst = max(_rate_of(rng, _at(mu, -0.10), sims, 3, m, ni("evals")) for mu in (0.3, 0.5, 0.8))
        rows.append(("NI gate: non-inferior at a 10-point drop (category)", f"3x{m}", worst, None))
        regressed = lambda b, a: decide(*difference_bounds(*_arrays(b, a), tail=0.05, over="samples"), 0.1) == REGRESSED  # noqa: E731
        worst = max(_rate_of(rng, World(mu, rho), sims, 3, m, regressed) for mu in (0.3, 0.7) for rho in (0.0, 0.6))
        rows.append(("NI gate: regressed in an A/A", f"3x{m}", worst, None))
    for name, shape in DROP_SHAPES.items():
        rows.append(
            (
                f"drop test ({name}): stopped when nothing drops, family-wise",
                _shape_label(shape),
                *_drop_rates(rng, shape, 0.0, sims)[::2],
            )
        )
    rows += _table_aa(rng, sims // 10)
    rows += _zones_aa(rng, sims // 10)
    rows += _screening_aa(rng, sims // 10)
    return rows


# tune's check, its acceptance and the publish gate on the Convex suite: cells x (evals, samples)
DROP_SHAPES = {"tune's check, Convex": (7, 9, 2), "acceptance, Convex": (8, 12, 8), "gate, Convex": (8, 3, 12)}


def _shape_label(shape) -> str:
    return f"{shape[0]}x({shape[1]}x{shape[2]})"


def _drop_rates(rng, shape, shift: float, sims: int):
    """(any cell flagged, the first cell flagged, the former rule's any flag) over families whose
    first cell's pass rates move by ``shift``: ``drop_tests``' own p-values and BH, vectorised."""
    cells, evals, samples = shape
    base = rng.uniform(0.3, 0.9, (sims, cells, evals, 1))
    after = base.copy()
    after[:, 0] = np.clip(after[:, 0] + shift, 0.01, 0.99)
    b = rng.random((sims, cells, evals, samples)) < base
    a = rng.random((sims, cells, evals, samples)) < after
    down, up = (b & ~a).sum((2, 3)), (a & ~b).sum((2, 3))
    ps = drop_p(down, up)
    flags = np.array([[q < 0.05 for q in bh_adjust(list(row))] for row in ps])
    n = evals * samples
    two_sided = np.array([[_mcnemar(int(u), int(d)) for d, u in zip(dr, ur)] for dr, ur in zip(down, up)])
    former = ((up - down) / n < -0.15) | ((two_sided < 0.05) & (down > up))
    return float(flags.any(1).mean()), float(flags[:, 0].mean()), float(former.any(1).mean())


def _table_aa(rng, reps: int) -> list[tuple]:
    out = []
    for m in (1, 3):
        flagged = 0
        for _ in range(reps):
            ps, ds = [], []
            for mu, rho in [
                (0.3, 0.0),
                (0.3, 0.3),
                (0.3, 0.6),
                (0.3, 0.9),
                (0.7, 0.0),
                (0.7, 0.3),
                (0.7, 0.6),
                (0.7, 0.9),
            ]:
                b, a, _ = draw_pairs(rng, World(mu, rho), 1, 3, m)
                ps.append(_mcnemar(int((~b & a).sum()), int((b & ~a).sum())))
                ds.append(int(a.sum()) - int(b.sum()))
            flagged += any(q < 0.05 and d for q, d in zip(bh_adjust(ps), ds))
        out.append(("compare table (8 cells, McNemar + BH): any flag in an A/A", f"3x{m}", flagged / reps, None))
    return out


def _zones_aa(rng, reps: int) -> list[tuple]:
    flagged = 0
    worlds = [World(mu, rho) for mu in (0.3, 0.7) for rho in (0.0, 0.3, 0.6)]
    for _ in range(reps):
        data = [draw_pairs(rng, w, 1, 3, 24)[:2] for w in worlds]
        open_cells, hit = list(range(len(worlds))), False
        for look, upto in enumerate((3, 6, 12, 24), start=1):
            ests = [
                paired_estimate(
                    {f"e{i}": list(data[c][0][0, i, :upto]) for i in range(3)},
                    {f"e{i}": list(data[c][1][0, i, :upto]) for i in range(3)},
                )
                for c in open_cells
            ]
            tests = zone_tests(
                ests, Zone(), look, Zone().spend_planned((upto // 2) / 24 if look > 1 else 0.0, upto / 24)
            )
            hit |= any(t.verdict in (HELPS, HURTS) for t in tests)
            open_cells = [c for c, t in zip(open_cells, tests) if t.verdict == "open"]
            if not open_cells:
                break
        flagged += hit
    return [("sequential confirmation (6 cells, 4 planned looks): any flag in an A/A", "3x3..24", flagged / reps, None)]


def _screening_aa(rng, reps: int) -> list[tuple]:
    import statsmodels.api as sm

    rules = [f"r{i}" for i in range(6)]
    new_rule = new_family = old_rule = old_family = 0.0
    for _ in range(reps):
        base = task_rates(rng, 0.5, 0.3, 3)
        rows = [
            ({r for r in rules if rng.random() < 0.5}, f"e{e}", bool(rng.random() < base[e]))
            for e in range(3)
            for _ in range(8)
        ]
        fit = rule_effects(rows, rules)
        ps = [fit[r][3] for r in rules]
        new_rule += np.mean([p < 0.05 for p in ps]) / reps
        new_family += (min(bh_adjust(ps)) < 0.05) / reps
        X = np.array(
            [[1.0] + [float(r in s) for r in rules] + [float(e == f"e{j}") for j in (1, 2)] for s, e, _ in rows]
        )
        y = np.array([float(ok) for _, _, ok in rows])
        if np.ptp(y) > 0:
            old_p = np.nan_to_num(sm.OLS(y, X).fit(cov_type="HC1").pvalues[1:7], nan=1.0)
            old_rule += np.mean(old_p < 0.05) / reps
            old_family += (min(bh_adjust(list(old_p))) < 0.05) / reps
    return [
        ("screening 6 rules x 8 runs: per-rule size", "3x1", new_rule, old_rule),
        ("screening: any flag in an A/A (BH)", "3x1", new_family, old_family),
    ]


def power(sims: int) -> list[tuple]:
    rng = np.random.default_rng(2)
    rows = []
    for over in ("samples", "evals"):
        for m in (3, 12, 24, 48):
            ok = lambda b, a: decide(*difference_bounds(*_arrays(b, a), tail=0.05, over=over), 0.10) == NON_INFERIOR  # noqa: E731
            rows.append(
                (
                    f"NI gate (margin 10): non-inferior when nothing changed ({over})",
                    f"3x{m}",
                    min(_rate_of(rng, World(mu, 0.3), sims, 3, m, ok) for mu in (0.5, 0.8)),
                    None,
                )
            )
    for m in (3, 12, 24):
        bad = lambda b, a: decide(*difference_bounds(*_arrays(b, a), tail=0.05, over="samples"), 0.10) == REGRESSED  # noqa: E731
        rows.append(
            (
                "NI gate: regressed at a 10-point drop (these evals)",
                f"3x{m}",
                min(_rate_of(rng, _at(mu, -0.10), sims, 3, m, bad) for mu in (0.5, 0.8)),
                None,
            )
        )
    for name, shape in DROP_SHAPES.items():
        for harm in (0.15, 0.25):
            rows.append(
                (
                    f"drop test ({name}): a {harm:.0%} drop in one cell caught there",
                    _shape_label(shape),
                    _drop_rates(rng, shape, -harm, sims)[1],
                    None,
                )
            )
    return rows


def _print_coverage(rows: list[tuple]) -> None:
    print("\nCoverage of 95% intervals over the calibration grid (>= 0.93 required in every world)")
    print(
        f"| {'what':<34} | {'evals x samples':<15} | {'worst':>6} | {'median':>6} | {'former worst':>12} | {'former median':>13} |"
    )
    print(f"|{'-' * 36}|{'-' * 17}|{'-' * 8}|{'-' * 8}|{'-' * 14}|{'-' * 15}|")
    for what, size, nw, nm, ow, om in rows:
        print(f"| {what:<34} | {size:<15} | {nw:>6.3f} | {nm:>6.3f} | {ow:>12.3f} | {om:>13.3f} |")


def _print(title: str, rows: list[tuple], label: str) -> None:
    print(f"\n{title}")
    print(f"| {'what':<66} | {'evals x samples':<15} | {label:>8} | {'former':>8} |")
    print(f"|{'-' * 68}|{'-' * 17}|{'-' * 10}|{'-' * 10}|")
    for what, size, new, old in rows:
        print(f"| {what:<66} | {size:<15} | {new:>8.3f} | {'' if old is None else f'{old:8.3f}':>8} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sims", type=int, default=2000)
    parser.add_argument("--quick", action="store_true", help="3 evals x 1-3 samples only")
    args = parser.parse_args()
    t0 = time.time()
    sizes_grid = [(3, 1), (3, 2), (3, 3)] + ([] if args.quick else [(12, 3), (24, 3), (12, 12)])
    _print_coverage(coverage(args.sims, sizes_grid))
    _print(
        "Size (false 'pass' or false flag; worst over the worlds tried; <= 0.05 required, 0.025 for tune)",
        sizes(args.sims),
        "rate",
    )
    _print("Power (chance of the useful answer)", power(args.sims), "power")
    print(f"\n{args.sims} simulations per world, {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
