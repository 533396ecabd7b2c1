"""The looks, planned before the first call: how many replicates per eval each look has seen and
what share of the error budgets it spends, for a first invocation and for a continuation of the
same experiment (the engine's docstring says why, ``Zone.continued`` how much)."""

from __future__ import annotations

import math

from tuner.engine.design import _MIN_DF, _MIN_DROPS, Plan, _factors, _p_drop


def _reps(plan: Plan, round_no: int) -> int:
    """Replicates per eval in round ``round_no`` (1-based). The first round leaves each rule out
    about 16 times per category; each later round doubles the data so far, so a few looks cover a
    large budget."""
    smallest = min(len(v) for v in plan.evals.values())
    base = max(1, math.ceil(16 / (smallest * _p_drop(plan, len(_factors(plan))))))
    return base * 2 ** (round_no - 1)


def _most(plan: Plan) -> int:
    """The replicates per eval the budget pays for, every category open."""
    per_rep = sum(len(v) for v in plan.evals.values()) * len(plan.models)
    return plan.budget_calls // max(1, per_rep)


def planned_looks(plan: Plan) -> list[int]:
    """Cumulative replicates per eval at each look, planned before the first call as if every
    category stayed open to the end: doubling rounds, the last cut to what the budget allows. A
    continuation (``plan.made``) replays the looks made (those the budget covers) and goes on
    doubling from the last."""
    most = _most(plan)
    looks = [reps for reps, _, _ in plan.made if reps <= most]
    if len(looks) < len(plan.made):  # a smaller cap than the looks made: they are replayed, none is added
        return looks
    done, new = (looks[-1] if looks else 0), 0
    while done < most and new < plan.max_rounds:
        done = min(most, done + _reps(plan, len(looks) + 1))
        looks.append(done)
        new += 1
    return looks


def planned_spending(plan: Plan) -> list[tuple[float, float]]:
    """(alpha, beta) each planned look spends: a look made by an earlier invocation what it spent
    then, the new ones what is left of the experiment's error budgets (``Zone.continued``); fixed
    before the first call of the invocation, never from its data."""
    spent = (sum(a for _, a, _ in plan.made), sum(b for _, _, b in plan.made))  # every look made, replayed or not
    return plan.zone.replayed_then_continued(planned_looks(plan), [(a, b) for _, a, b in plan.made], spent, plan.anchor)


def planned_shape(plan: Plan) -> dict:
    """What the decision rule will see, known before the first call (for the minimum detectable
    effect, ``tuner.planning``): the planned looks (cumulative replicates per eval), the share of
    prompts leaving out each open question while all are open, and the data a question needs
    before it is tested."""
    return {
        "looks": planned_looks(plan),
        "spending": planned_spending(plan),
        "p_drop": _p_drop(plan, len(_factors(plan))),
        "factors": len(_factors(plan)),
        "min_drops": _MIN_DROPS,
        "min_df": _MIN_DF,
    }
