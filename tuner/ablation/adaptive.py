"""Adaptive effect estimation: spend calls on the rules whose verdict is still open.

Method (and why). Every call is one prompt on one eval. Each prompt is the pool with a random few
of the *open* rules dropped (each open rule independently, with probability
``min(½, max_dropped / open rules)``); decided rules stay in. Per model × category a linear
probability model ``passed ~ dropped-rule indicators + eval fixed effects`` (OLS, HC1 robust
errors, statsmodels) gives each rule's effect of inclusion, and after each round ``tuner.stats.zones``
decides the cells it can (helps / hurts / no meaningful effect) with the error budget split over
the looks (``Zone.spend``). The next round randomises only what is still open, so calls go where the decision is.

Why not racing each rule against the full set (leave-one-out pairs)? A pair informs one rule; a
random-dropout prompt informs every rule it varies, so at the same calls each effect is estimated
from all of them (the variance of a coefficient falls with the whole round's size, not with a
rule's share of it). Keeping the prompt close to the full pool (few rules dropped at a time) keeps
the estimand close to the leave-one-out effect people ask about ("what does this rule add to the
set?") rather than the effect in half-empty prompts. Thompson sampling or bandit racing answer
"which arm is best", not "which rules matter, with error control", so they were not chosen.

Determinism: a point's dropped rules come from (seed, category, eval, replicate) alone, and every
decision from the data, which the response cache and the store replay exactly. A second run with a
larger ``budget_calls`` therefore retraces the same rounds without paying for them and goes on.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field

from tuner.stats.zones import HELPS, HURTS, NO_EFFECT, OPEN, UNDECIDED, Zone, zone_tests

__all__ = ["Point", "Cell", "Plan", "AdaptiveOutcome", "run_adaptive"]

_MIN_DROPS = 8  # a rule is not judged before it was left out this many times in the category
_MIN_DF = 20  # nor before the category's fit has this many residual degrees of freedom


@dataclass(frozen=True)
class Point:
    """One prompt on one eval: the pool without ``dropped``, sample index ``replicate``."""

    category: str
    eval_id: str
    replicate: int
    dropped: tuple[str, ...]


@dataclass
class Cell:
    """One rule × model × category: the current estimate and, once decided, the verdict."""

    rule: str
    model: str
    category: str
    verdict: str = OPEN
    delta: float | None = None
    lo: float | None = None
    hi: float | None = None
    p_value: float = 1.0
    q_value: float | None = None
    decided_round: int | None = None
    calls: int = 0  # calls in the category while this rule was still randomised there


@dataclass(frozen=True)
class Plan:
    rules: tuple[str, ...]
    evals: dict[str, tuple[str, ...]]  # category -> its eval ids
    models: tuple[str, ...]  # model keys
    budget_calls: int
    zone: Zone = Zone()
    seed: int = 0
    max_dropped: float = 8.0
    max_rounds: int = 12  # a guard: with doubling rounds, 12 looks is 4,000x the first round


@dataclass
class AdaptiveOutcome:
    cells: list[Cell]
    rounds: int
    calls: int  # calls the design made (cached replays included)
    new_calls: int  # calls paid for in this invocation
    stopped: str  # "decided" | "budget" | "rounds" (the max_rounds guard)
    history: list[dict] = field(default_factory=list)


Observe = Callable[[list[Point]], tuple[list[dict[str, bool | None]], int]]
"""Runs the points on every model: ({model key: passed, or None for an infrastructure failure}
per point, provider calls paid)."""


def _uniform(*parts: object) -> float:
    digest = hashlib.sha256("|".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _points(plan: Plan, category: str, open_rules: list[str], first: int, reps: int) -> list[Point]:
    p_drop = min(0.5, plan.max_dropped / max(1, len(open_rules)))
    points = []
    for eval_id in plan.evals[category]:
        for rep in range(first, first + reps):
            dropped = tuple(r for r in open_rules if _uniform(plan.seed, category, eval_id, rep, r) < p_drop)
            points.append(Point(category, eval_id, rep, dropped))
    return points


def _fit(rows: list[tuple[tuple[str, ...], str, bool]], rules: list[str]) -> dict[str, tuple[float, float, float, int]]:
    """{rule: (effect of including it, standard error, degrees of freedom, times dropped)} from one
    category's rows. HC3 errors and Student's t: HC1 with a normal reference flagged 10% of A/A
    runs at the first, small look."""
    import numpy as np
    import statsmodels.api as sm

    rules = [r for r in rules if any(r in d for d, _, _ in rows)]
    if not rows:
        return {}
    evals = sorted({e for _, e, _ in rows})
    X = np.array([[1.0] + [1.0 if r in d else 0.0 for r in rules] + [1.0 if e == ev else 0.0 for ev in evals[1:]]
                  for d, e, _ in rows])
    y = np.array([1.0 if ok else 0.0 for _, _, ok in rows])
    drops = X[:, 1 : 1 + len(rules)].sum(axis=0)
    # A floor under the robust error: with no failures (or no passes) in sight OLS reports zero
    # spread, which would decide a rule from a handful of lucky draws (add-one smoothing).
    p = (y.sum() + 1) / (len(y) + 2)
    out = {}
    df = max(1.0, float(len(rows) - X.shape[1]))
    fit = sm.OLS(y, X).fit(cov_type="HC3") if np.ptp(y) > 0 and len(rows) > X.shape[1] else None
    for j, rule in enumerate(rules, start=1):
        n_drop, n_keep = drops[j - 1], len(rows) - drops[j - 1]
        floor = math.sqrt(p * (1 - p) * (1 / max(n_drop, 1) + 1 / max(n_keep, 1)))
        if fit is None:
            out[rule] = (0.0, floor, df, int(n_drop))
            continue
        se = float(fit.bse[j])
        se = floor if math.isnan(se) else max(se, floor)
        out[rule] = (-float(fit.params[j]), se, df, int(n_drop))
    return out


def _reps(plan: Plan, round_no: int) -> int:
    """Replicates per eval in round ``round_no`` (1-based). The first round leaves each rule out
    about 16 times per category; each later round doubles the data so far, so a few looks cover a
    large budget. Round sizes depend on the plan, never on the budget: a larger budget retraces
    the same rounds."""
    smallest = min(len(v) for v in plan.evals.values())
    p_drop = min(0.5, plan.max_dropped / max(1, len(plan.rules)))
    base = max(1, math.ceil(16 / (smallest * p_drop)))
    return base * 2 ** (round_no - 1)


def run_adaptive(plan: Plan, observe: Observe, progress: Callable[[dict], None] | None = None) -> AdaptiveOutcome:
    cells = {(r, m, c): Cell(r, m, c) for c in plan.evals for m in plan.models for r in plan.rules}
    rows: dict[tuple[str, str], list[tuple[tuple[str, ...], str, bool]]] = {(m, c): [] for m in plan.models for c in plan.evals}
    next_rep = 0
    calls = new_calls = rounds = 0
    history: list[dict] = []
    stopped = "rounds"
    while rounds < plan.max_rounds:
        open_by_cat = {c: sorted({r for (r, m, cc), cell in cells.items() if cc == c and cell.verdict == OPEN}) for c in plan.evals}
        open_by_cat = {c: rs for c, rs in open_by_cat.items() if rs}
        if not open_by_cat:
            stopped = "decided"
            break
        per_rep = sum(len(plan.evals[c]) for c in open_by_cat) * len(plan.models)
        # The last round is cut to what the budget allows; a larger budget later runs it whole
        # (its first replicates come back from the caches).
        fit_reps = min(_reps(plan, rounds + 1), (plan.budget_calls - calls) // per_rep)
        if fit_reps < 1:
            stopped = "budget"
            break
        points = [pt for c, rs in open_by_cat.items() for pt in _points(plan, c, rs, next_rep, fit_reps)]
        next_rep += fit_reps
        results, paid = observe(points)
        calls += len(points) * len(plan.models)
        new_calls += paid
        rounds += 1
        for pt, by_model in zip(points, results):
            for m, passed in by_model.items():
                if passed is not None:
                    rows[(m, pt.category)].append((pt.dropped, pt.eval_id, passed))
        for c, rs in open_by_cat.items():
            for cell in (cells[(r, m, c)] for m in plan.models for r in rs):
                cell.calls += len(plan.evals[c]) * fit_reps
        _decide(plan, cells, rows, open_by_cat, rounds)
        history.append(_snapshot(cells, rounds, calls, new_calls))
        if progress:
            progress(history[-1])
    else:
        stopped = "rounds" if any(c.verdict == OPEN for c in cells.values()) else "decided"
    for cell in cells.values():
        if cell.verdict == OPEN:
            cell.verdict = UNDECIDED
    return AdaptiveOutcome(list(cells.values()), rounds, calls, new_calls, stopped, history)


def _decide(plan: Plan, cells: dict, rows: dict, open_by_cat: dict[str, list[str]], round_no: int) -> None:
    """One look: estimate every open cell, then test them together (BH runs across the look)."""
    tested: list[Cell] = []
    estimates: list[tuple[float, float, float]] = []
    for (m, c), data in rows.items():
        if c not in open_by_cat:
            continue
        fitted = _fit(data, list(plan.rules))
        for r in open_by_cat[c]:
            cell = cells[(r, m, c)]
            if cell.verdict != OPEN or r not in fitted:
                continue
            effect, se, df, drops = fitted[r]
            cell.delta = effect
            if drops < _MIN_DROPS or df < _MIN_DF:
                continue
            tested.append(cell)
            estimates.append((effect, se, df))
    for cell, test in zip(tested, zone_tests(estimates, plan.zone, round_no)):
        cell.lo, cell.hi, cell.p_value, cell.q_value = test.lo, test.hi, test.p_flag, test.q_flag
        if test.verdict != OPEN:
            cell.verdict, cell.decided_round = test.verdict, round_no


def _snapshot(cells: dict, rounds: int, calls: int, new_calls: int) -> dict:
    counts = {v: 0 for v in (HELPS, HURTS, NO_EFFECT, OPEN)}
    for cell in cells.values():
        counts[cell.verdict] = counts.get(cell.verdict, 0) + 1
    return {"round": rounds, "calls": calls, "new_calls": new_calls, "decided": len(cells) - counts[OPEN],
            "open": counts[OPEN], **{k: v for k, v in counts.items() if k != OPEN}}
