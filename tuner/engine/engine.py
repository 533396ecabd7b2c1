"""Adaptive effect estimation: spend calls on the rules whose verdict is still open.

Method (and why). Every call is one prompt on one eval. Each prompt is the pool with a random few
of the *open* rules dropped (each open rule independently, with probability
``min(max_share, max_dropped / open rules)``); decided rules stay in. Per model × category a linear
probability model ``passed ~ dropped-rule indicators + eval fixed effects`` (OLS, HC3 robust
errors, statsmodels) gives each rule's effect of inclusion, and after each round ``tuner.stats.zones``
decides the cells it can (helps / hurts / no meaningful effect). The next round randomises only
what is still open, so calls go where the decision is.

What is estimated (the estimand). A rule's cell is its average effect of inclusion over the prompts
the design draws: the pool with each other open rule left out independently (about a quarter of
them, ``_p_drop``), decided rules kept. That is not leave-one-out from the full prompt: two
redundant rules (each alone cures the same mistake) both read "helps" here, because each is often
measured in a prompt the other is missing from, while removing either from the full prompt changes
nothing (``tests/stats/test_calibration_redundancy.py`` measures it). Whoever acts on a verdict in
the full prompt must measure the change there: tune confirms its winner on fresh samples of the
full prompt before accepting it (``tests/stats/test_calibration_tune_path_engine.py``'s redundant
candidate: accepted 0.00), and an effect figure is the one at the deciding look (below).

The looks are planned from the budget before the first call: rounds double in size, the last one
is cut to what the budget allows, and look k spends the O'Brien-Fleming-type share of the error
budget for its planned share of the calls (``Zone.continued``), so most of it is left for the
last, largest look. The plan assumes every category stays open; when one closes early the others
still get only their planned rounds (the calls it would have used are saved, not spent), which
keeps each look's share independent of the data.

Why these numbers (measured on the simulator, ``benchmarks/bench_tuning.py`` and the design lab
described in docs/engine.md): about 12 rules dropped per prompt but never more than a quarter of the
open ones. Dropping more informs each rule from more calls but measures it in prompts missing many
others, which shrinks the effect a leave-one-out would see (the planted mistakes compound: 8
dropped of 65 -> bias -2 points on a true +8, 32 -> -7); on a 7-rule pool a quarter gave recall
0.88 where half gave 0.74 at 600 calls.

Why a pooled category model and not a model per rule x eval? Effects do live in rule x eval cells
(a rule cures the evals its mistake appears in), but for the category's effect, the mean of its
cells, an unbiased per-cell model has exactly the pooled model's variance, and telling the zero
cells apart from the data needs more calls per eval than the budget has (a screen-then-estimate
split on fresh halves found 2-5% of the true rules on `careful` / `actions` at 2,400 calls, the
pooled fit 45%; even an oracle that knows every zero cell reaches only 75%). So verdicts pool the
category, and the cells are reported, as estimated, for reading (``Cell.by_eval``: where a rule
seems to matter).

More than one bit per call (issue 29). A rule acts on the mistake it prevents, so its effect on
that failure mode is far less noisy than on the pass rate. With ``Plan.modes`` (on in ``ablate``
and ``tune``) each rule is read through the failure modes it acts on (``Graded``,
``tuner.engine.modes``: modes chosen on one half of the points and weighed on the other; the pass
bit's fit where no mode beats it). Verdicts stay about pass rates. In the design lab on `careful` /
`actions` at 2,475 calls, reading each answer's failure signature (``tuner.ablation.reading``)
decides 0.90 of the true rules where its first failing step decides 0.62, the pass bit 0.40;
the printed minimum detectable effect stays the pass bit's (a conservative figure:
``tests/stats/test_calibration_modes_mde.py``).

Questions asked first (issue 29, ``Plan.priority``; off in the product). Each look's BH step can
weigh some cells more (weighted BH: p / w, the weights fixed by the plan and rescaled to mean 1 over
the cells tested, ``design.look_weights``), e.g. the rules whose ``targets`` include the category
(``design.targeted``). In the design lab it gained nothing measurable at the default budget (the
critical value moves on a log scale: a targeted rule's printed MDE 13.5 -> 12.9 points on `careful` /
`actions`, the others' 13.9) and cost the true rules that do not target the category; nor did asking
only the targeted rules, another drop fraction, or sections first (docs/engine.md, "Fewer, better
questions"). Calibrated as an option: ``tests/stats/test_calibration_priority.py``.

Why not racing each rule against the full set (leave-one-out pairs)? A pair informs one rule; a
random-dropout prompt informs every rule it varies, so at the same calls each effect is estimated
from all of them. Thompson sampling or bandit racing answer "which arm is best", not "which rules
matter, with error control", so they were not chosen.

Determinism: a point's dropped rules come from (seed, category, eval, replicate) and the open
rules alone, and every decision from the data, which the response cache and the store replay
exactly: an interrupted design resumes without paying again.

One experiment across invocations. A larger budget continues the experiment rather than starting a
new plan (which spent the whole error budget again: r reruns, up to r x alpha). The caller passes
the looks already made with what each spent (``Plan.made``, recorded with the experiment) and where
the first invocation's plan ended (``Plan.anchor``); ``planned_looks`` replays those looks (the same
points, from the caches: nothing is bought twice, and every decision comes out as it did) and goes
on doubling from the last, and ``planned_spending`` gives the new looks only what the experiment's
error budgets have left (``Zone.continued``: a reserve of a third of alpha and beta is kept for
continuations, spent by the cap's multiple of the first one), so any number of continuations keeps
the total at most alpha (``tests/stats/test_calibration_continuation.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from tuner.engine.design import (
    _MIN_DF,
    _MIN_DROPS,
    Plan,
    Point,
    _factors,
    _points,
    _sign,
    look_weights,
    split_key,
    swap_key,
)
from tuner.engine.fit import _fit_look
from tuner.engine.looks import planned_looks, planned_shape, planned_spending
from tuner.engine.modes import Graded, outcome_parts
from tuner.stats.zones import HELPS, HURTS, NO_EFFECT, OPEN, UNDECIDED, zone_tests

__all__ = [
    "Graded",
    "Observe",
    "Point",
    "Cell",
    "Plan",
    "EngineOutcome",
    "planned_looks",
    "planned_shape",
    "planned_spending",
    "run_engine",
    "split_key",
    "swap_key",
]

_CELL_MIN_DROPS = 4  # a rule x eval cell is reported once the rule was left out this often there
_CELL_SHOWN = 0.10  # ... and its estimate is at least this far from zero, and two of its standard errors
_CELL_MAX = 8  # cells reported per rule x model x category


@dataclass
class Cell:
    """One rule × model × category: the current estimate and, once decided, the verdict. ``rule`` is a
    rule id (the effect of including it) or ``rule@variant`` (the effect of that phrasing in place of
    the default, the rule being in)."""

    rule: str
    model: str
    category: str
    verdict: str = OPEN
    delta: float | None = None
    lo: float | None = None
    hi: float | None = None
    level: float | None = None  # the confidence level of [lo, hi]: the last look's, 1 - 2 x its alpha share
    p_value: float = 1.0
    q_value: float | None = None
    decided_round: int | None = None
    calls: int = 0  # calls in the category while this rule was still randomised there
    # Where it seems to matter: {eval id: (pass rate with it - without it, times left out)} for the
    # evals whose difference is largest (descriptive: not tested, see the module docstring).
    by_eval: dict[str, tuple[float, int]] = field(default_factory=dict)


@dataclass
class EngineOutcome:
    cells: list[Cell]
    rounds: int
    calls: int  # calls the design made (cached replays included)
    new_calls: int  # calls paid for in this invocation
    stopped: str  # "decided" | "budget" (the planned looks are done) | "enough" (the caller's question is answered)
    history: list[dict] = field(default_factory=list)
    looks: list[int] = field(default_factory=list)  # the planned replicates per eval at each look
    lost: int = 0  # answers lost to provider or grader failures (left out of every fit: not measured)
    anchor: int = 0  # the experiment's first invocation's last planned look (``Plan.anchor``)

    @property
    def made(self) -> list[tuple[int, float, float]]:
        """The looks made, replays included: (replicates per eval, alpha, beta spent), what a
        continuation's ``Plan.made`` takes."""
        return [(h["reps"], h["alpha"], h["beta"]) for h in self.history]


Observe = Callable[[list[Point]], tuple[list[dict[str, "bool | Graded | None"]], int]]
"""Runs the points on every model: ({model key: passed, or how it was graded (``Graded``: passed
and its failure modes), or None for an infrastructure failure} per point, provider calls paid)."""


def run_engine(
    plan: Plan,
    observe: Observe,
    progress: Callable[[dict], None] | None = None,
    enough: Callable[[list[Cell]], bool] | None = None,
) -> EngineOutcome:
    """Run the planned looks. ``enough``: asked after each look with every cell; True ends the
    design there (``stopped = "enough"``). Stopping sooner never adds false alarms: each look's
    error share is spent whether or not a later look comes."""
    cells = {(r, m, c): Cell(r, m, c) for c in plan.evals for m in plan.models for r in _factors(plan)}
    rows: dict[tuple[str, str], list[tuple[tuple[str, ...], str, bool, tuple[str, ...], int]]] = {
        (m, c): [] for m in plan.models for c in plan.evals
    }
    looks, spending = planned_looks(plan), planned_spending(plan)
    calls = new_calls = rounds = lost = 0
    history: list[dict] = []
    stopped = "budget"
    for look, until in enumerate(looks, start=1):
        open_by_cat = {
            c: sorted({r for (r, m, cc), cell in cells.items() if cc == c and cell.verdict == OPEN}) for c in plan.evals
        }
        open_by_cat = {c: rs for c, rs in open_by_cat.items() if rs}
        if not open_by_cat:
            stopped = "decided"
            break
        first = looks[look - 2] if look > 1 else 0
        points = [pt for c, rs in open_by_cat.items() for pt in _points(plan, c, rs, first, until - first)]
        results, paid = observe(points)
        calls += len(points) * len(plan.models)
        new_calls += paid
        rounds = look
        for pt, by_model in zip(points, results):
            for m, result in by_model.items():
                graded = outcome_parts(result)
                if graded is None:
                    lost += 1
                else:
                    rows[(m, pt.category)].append((pt.applied, pt.eval_id, graded[0], graded[1], look))
        for c, rs in open_by_cat.items():
            for cell in (cells[(r, m, c)] for m in plan.models for r in rs):
                cell.calls += len(plan.evals[c]) * (until - first)
        spent = spending[look - 1]
        _decide(plan, cells, rows, open_by_cat, look, spent)
        history.append({**_snapshot(cells, look, calls, new_calls), "reps": until, "alpha": spent[0], "beta": spent[1]})
        if progress:
            progress(history[-1])
        if enough is not None and look < len(looks) and enough(list(cells.values())):
            stopped = "enough"
            break
    else:
        stopped = "budget" if any(c.verdict == OPEN for c in cells.values()) else "decided"
    for cell in cells.values():
        if cell.verdict == OPEN:
            cell.verdict = UNDECIDED
    _describe_cells(cells, rows)
    anchor = plan.anchor if plan.anchor is not None else (looks[-1] if looks else 0)
    return EngineOutcome(list(cells.values()), rounds, calls, new_calls, stopped, history, looks, lost, anchor)


def _describe_cells(cells: dict, rows: dict) -> None:
    """Per rule x eval, the pass rate with the rule minus without it, over the points that varied
    it on that eval (other rules were dropped at random around it, so this is noisy but not biased
    by them). Kept where the rule was left out often enough and the difference stands out from the
    binomial noise of that many draws (about 2 standard errors): a reading aid, not a test. Counted
    with one indicator matrix per model x category (a loop over points per cell and eval was a
    sixth of tune's screening time)."""
    import numpy as np

    for (m, c), data in rows.items():
        keys = [r for (r, mm, cc) in cells if mm == m and cc == c]
        if not keys or not data:
            continue
        evals = sorted({e for _, e, *_ in data})
        at = {e: i for i, e in enumerate(evals)}
        row_eval = np.array([at[e] for _, e, *_ in data])
        column = {k: j for j, k in enumerate(keys)}
        applied = np.zeros((len(data), len(keys)), bool)
        for i, (d, *_) in enumerate(data):
            applied[i, [column[f] for f in d if f in column]] = True
        passed = np.array([bool(x[2]) for x in data], dtype=float)

        def per_eval(mask) -> tuple[list[int], list[int]]:
            """(points, passes) per eval among the rows in ``mask``."""
            n = np.bincount(row_eval[mask], minlength=len(evals))
            s = np.bincount(row_eval[mask], weights=passed[mask], minlength=len(evals))
            return [int(x) for x in n], [int(round(x)) for x in s]

        for r in keys:
            out = applied[:, column[r]]
            # A phrasing is weighed against the default with the rule in, not against its absence.
            rule = split_key(r)[0]
            kept = ~out & ~applied[:, column[rule]] if rule in column else ~out
            (n_out, s_out), (n_kept, s_kept) = per_eval(out), per_eval(kept)
            found = []
            for i, eval_id in enumerate(evals):
                if n_out[i] < _CELL_MIN_DROPS or not n_kept[i]:
                    continue
                # The effect of the factor, signed as the cell's (including a rule; using a phrasing).
                diff = -_sign(r) * (s_kept[i] / n_kept[i] - s_out[i] / n_out[i])
                pooled = (s_kept[i] + s_out[i] + 1) / (n_kept[i] + n_out[i] + 2)
                noise = 2 * math.sqrt(pooled * (1 - pooled) * (1 / n_out[i] + 1 / n_kept[i]))
                if abs(diff) >= max(_CELL_SHOWN, noise):
                    found.append((eval_id, round(diff, 3), n_out[i]))
            found.sort(key=lambda x: (-abs(x[1]), x[0]))
            cells[(r, m, c)].by_eval = {e: (d, n) for e, d, n in found[:_CELL_MAX]}


def _decide(
    plan: Plan, cells: dict, rows: dict, open_by_cat: dict[str, list[str]], round_no: int, spent: tuple[float, float]
) -> None:
    """One look: estimate every open cell, then test them together (BH runs across the look)."""
    tested: list[Cell] = []
    estimates: list[tuple[float, float, float]] = []
    for (m, c), data in rows.items():
        if c not in open_by_cat:
            continue
        fitted = _fit_look(plan, data, round_no)
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
    weights = look_weights(plan, [(cell.rule, cell.category) for cell in tested])
    # Plain BH unless questions are asked first (``Plan.priority``): then the weighted step.
    tests = zone_tests(estimates, plan.zone, round_no, spent, *([weights] if weights is not None else []))
    for cell, test in zip(tested, tests):
        cell.lo, cell.hi, cell.p_value, cell.q_value, cell.level = (
            test.lo,
            test.hi,
            test.p_flag,
            test.q_flag,
            test.level,
        )
        if test.verdict != OPEN:
            cell.verdict, cell.decided_round = test.verdict, round_no


def _snapshot(cells: dict, rounds: int, calls: int, new_calls: int) -> dict:
    counts = {v: 0 for v in (HELPS, HURTS, NO_EFFECT, OPEN)}
    for cell in cells.values():
        counts[cell.verdict] = counts.get(cell.verdict, 0) + 1
    return {
        "round": rounds,
        "calls": calls,
        "new_calls": new_calls,
        "decided": len(cells) - counts[OPEN],
        "open": counts[OPEN],
        **{k: v for k, v in counts.items() if k != OPEN},
    }
