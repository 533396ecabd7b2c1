"""The engine's faster helpers decide exactly as the ones they replaced (issue 29: tune's screening
shape in the power calibration took 15 minutes).

What changed, and what must not: the points (one sha256 per open question per point, the prefix now
hashed once), the design matrix (filled from each point's factors, not tested factor by factor),
the per-eval reading aid (counted with an indicator matrix, not a loop per cell and eval) and the
zone's tests (one scipy call per look, not one per cell). The former implementations are kept
below as the reference; the engine is run both ways on the same answers, at tune's screening shape
(94 questions with phrasings, a planted rule and a planted phrasing) and at the Python suite's
(two models, two categories, two phrasings of one rule, and with failure modes read), and every
cell (verdict, estimate, interval, p and q, look, by-eval reading) and every look's history must be
equal, float for float.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import replace

import numpy as np
import pytest

import tuner.engine.engine as engine_module
import tuner.engine.fit as fit_module
from tuner.engine import Graded, Plan, run_engine
from tuner.engine.design import Point, _p_drop, _sign, _swap_p, _uniform, split_key
from tuner.engine.fit import _identified
from tuner.stats.paired import bh_adjust
from tuner.stats.zones import HELPS, HURTS, NO_EFFECT, OPEN, Zone, ZoneTest


def _points_before(plan, category, open_keys, first, reps):
    p_drop = _p_drop(plan, len(open_keys))
    rules = [k for k in open_keys if split_key(k)[1] is None]
    swaps: dict[str, list[str]] = {}
    for key in open_keys:
        rule, variant = split_key(key)
        if variant is not None:
            swaps.setdefault(rule, []).append(key)
    points = []
    for eval_id in plan.evals[category]:
        for rep in range(first, first + reps):
            dropped = tuple(r for r in rules if _uniform(plan.seed, category, eval_id, rep, r) < p_drop)
            swapped = []
            for rule, keys in swaps.items():
                if rule in dropped:
                    continue
                q = _swap_p(p_drop, len(keys))
                u = _uniform(plan.seed, category, eval_id, rep, rule, "phrasing")
                if u < q * len(keys):
                    swapped.append(keys[int(u / q)])
            points.append(Point(category, eval_id, rep, dropped, tuple(swapped)))
    return points


def _fit_before(rows, rules):
    import statsmodels.api as sm

    rules = [r for r in rules if any(r in d for d, _, _ in rows)]
    if not rows:
        return {}
    evals = sorted({e for _, e, _ in rows})
    X = np.array(
        [
            [1.0] + [1.0 if r in d else 0.0 for r in rules] + [1.0 if e == ev else 0.0 for ev in evals[1:]]
            for d, e, _ in rows
        ]
    )
    y = np.array([1.0 if ok else 0.0 for _, _, ok in rows])
    drops = X[:, 1 : 1 + len(rules)].sum(axis=0)
    p = (y.sum() + 1) / (len(y) + 2)
    out = {}
    df = max(1.0, float(len(rows) - X.shape[1]))
    fit = sm.OLS(y, X).fit(cov_type="HC3") if np.ptp(y) > 0 and len(rows) > X.shape[1] else None
    identified = _identified(X, int(fit.model.rank) if fit is not None else int(np.linalg.matrix_rank(X)))
    for j, rule in enumerate(rules, start=1):
        if not identified[j]:
            continue
        n_drop, n_keep = drops[j - 1], len(rows) - drops[j - 1]
        floor = math.sqrt(p * (1 - p) * (1 / max(n_drop, 1) + 1 / max(n_keep, 1)))
        if fit is None:
            out[rule] = (0.0, floor, df, int(n_drop))
            continue
        se = float(fit.bse[j])
        se = floor if math.isnan(se) else max(se, floor)
        out[rule] = (_sign(rule) * float(fit.params[j]), se, df, int(n_drop))
    return out


def _describe_cells_before(cells, rows):
    for (m, c), data in rows.items():
        by_eval: dict = {}
        for dropped, eval_id, passed, *_ in data:
            by_eval.setdefault(eval_id, []).append((dropped, passed))
        for (r, mm, cc), cell in cells.items():
            if mm != m or cc != c:
                continue
            found = []
            for eval_id, obs in by_eval.items():
                out = [ok for d, ok in obs if r in d]
                kept = [ok for d, ok in obs if r not in d and split_key(r)[0] not in d]
                if len(out) < 4 or not kept:
                    continue
                diff = -_sign(r) * (sum(kept) / len(kept) - sum(out) / len(out))
                pooled = (sum(kept) + sum(out) + 1) / (len(kept) + len(out) + 2)
                noise = 2 * math.sqrt(pooled * (1 - pooled) * (1 / len(out) + 1 / len(kept)))
                if abs(diff) >= max(0.10, noise):
                    found.append((eval_id, round(diff, 3), len(out)))
            found.sort(key=lambda x: (-abs(x[1]), x[0]))
            cell.by_eval = {e: (d, n) for e, d, n in found[:8]}


def _one_sided_before(estimate, se, df, null, greater):
    from scipy.stats import t

    if se <= 0:
        return 0.0 if (estimate > null if greater else estimate < null) else 1.0
    z = (estimate - null) / se
    return float(t.sf(z, df) if greater else t.cdf(z, df))


def _zone_tests_before(estimates, zone, look, spent=None):
    from scipy.stats import t

    a_look, b_look = spent if spent is not None else zone.spend(look)
    flags = [
        min(
            1.0,
            2 * min(_one_sided_before(e, s, df, zone.delta0, True), _one_sided_before(e, s, df, -zone.delta0, False)),
        )
        for e, s, df in estimates
    ]
    qs = bh_adjust(flags) if flags else []
    out = []
    for (e, s, df), p, q in zip(estimates, flags, qs):
        z = float(t.isf(a_look, df))
        futile = max(_one_sided_before(e, s, df, zone.delta, False), _one_sided_before(e, s, df, -zone.delta, True))
        verdict = (HELPS if e > 0 else HURTS) if q < a_look else NO_EFFECT if futile < b_look else OPEN
        out.append(ZoneTest(verdict, p, q, futile, e - z * s, e + z * s, 1 - 2 * a_look))
    return out


RULES = tuple(f"r{i:02d}" for i in range(80))
SCREEN = Plan(
    rules=RULES,
    evals={"actions": tuple(f"actions/{i}" for i in range(9))},
    models=("m",),
    budget_calls=1237,  # screen_budget(2475): Convex's default cap
    zone=Zone(),
    variants={r: ("alt",) for r in RULES[:14]},  # 80 rules + 14 phrasings = 94 questions
)
PYTHON = Plan(
    rules=tuple(f"r{i:02d}" for i in range(7)),
    evals={"a": ("a/0", "a/1", "a/2"), "b": ("b/0", "b/1", "b/2")},
    models=("m", "n"),
    budget_calls=2400,
    zone=Zone(),
    variants={"r01": ("x", "y")},
)


def _run(plan: Plan, seed: int) -> tuple[list, list]:
    """Planted: r00 +20 points, phrasing r01@alt (or r01@x) +15; failure modes named when the plan reads them."""
    rng = np.random.default_rng(seed)

    def observe(points):
        out = []
        for pt in points:
            p = 0.4 + (0.2 if "r00" not in pt.dropped else 0.0)
            p += 0.15 if ("r01@alt" in pt.swapped or "r01@x" in pt.swapped) else 0.0
            seen = {}
            for m in plan.models:
                ok = bool(rng.random() < p)
                seen[m] = Graded(ok, () if ok else (f"step{int(rng.integers(3))}",)) if plan.modes else ok
            out.append(seen)
        return out, len(points) * len(plan.models)

    outcome = run_engine(replace(plan, seed=seed), observe)
    return [dataclasses.astuple(c) for c in outcome.cells], outcome.history


@pytest.mark.parametrize(
    "plan,seeds",
    [(SCREEN, (0, 1, 2)), (PYTHON, (0, 1, 2, 3)), (replace(PYTHON, modes=True), (0, 1))],
    ids=["tune's screening shape", "python shape", "python shape, failure modes"],
)
def test_the_faster_engine_decides_exactly_as_before(plan, seeds, monkeypatch):
    decided = 0
    for seed in seeds:
        after = _run(plan, seed)
        with monkeypatch.context() as m:
            m.setattr(engine_module, "_points", _points_before)
            m.setattr(engine_module, "_describe_cells", _describe_cells_before)
            m.setattr(engine_module, "zone_tests", _zone_tests_before)
            m.setattr(fit_module, "_fit", _fit_before)
            before = _run(plan, seed)
        assert after == before, f"seed {seed}"
        decided += sum(cell[3] in (HELPS, HURTS) for cell in after[0])
    assert decided > 0  # the comparison covers decisions, not only open cells
