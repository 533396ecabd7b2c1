"""What each command's budget decides: its question families' minimum detectable effects, and the
calls an effect of a chosen size needs (``--decide``).

A family is a set of questions one decision rule answers together: the rule-effect engine's
rule × model × category cells (``ablate``, and ``tune``'s screening on the target's evals), tune's
confirmation of the winner on the target (one cell per model), ``compare``'s cells (exact McNemar,
BH across the table) and the publish gate's drop test (one-sided exact McNemar, BH across its
family). Each is turned into a ``mde.Design`` from the design's own planned looks: nothing here
runs the engine, it asks it for its plan (``planned_shape``, ``planned_rounds``).

Standard errors are the binomial ones the decision rules use at the assumed pass rate
(``mde.RATE``): the engine's floor ``sqrt(p(1-p)(1/n_out + 1/n_in))`` with the HC3 leverage
inflation ``1/sqrt(1 - columns/n)``, and the paired difference's ``sqrt(2 p(1-p) / n)`` for the
paired tests (independent draws before and after at equal rates).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from pydantic import BaseModel

from tuner.planning.mde import POWER, RATE, Design, mde

__all__ = [
    "Detectable",
    "engine_designs",
    "priority_weights",
    "engine_family",
    "confirmation_family",
    "mcnemar_power",
    "paired_family",
    "calls_to_decide",
    "decide_value",
]


class Detectable(BaseModel):
    """One question family: the smallest effect its budget decides with 80% power (``mde``, pass-rate
    points 0-1; None: none is, at this budget), and what it rests on."""

    family: str
    questions: int
    mde: float | None
    power: float = POWER
    rate: float = RATE
    by: dict[str, float | None] = {}  # per category (or per kind of question), where they differ
    note: str = ""

    def line(self) -> str:
        def pts(x: float | None) -> str:
            return "none" if x is None else f"{x * 100:.0f}"

        head = (
            f"no effect, however large, is decided with {self.power:.0%} power at this budget"
            if self.mde is None
            else f"effects of {pts(self.mde)} points or more are decided with {self.power:.0%} power"
        )
        spread = ""
        if len(set(self.by.values())) > 1:  # each category's is in --json; the range reads better here
            known = [v for v in self.by.values() if v is not None]
            low = pts(min(known)) if known else "none"
            spread = (
                f"; by category {low} to {pts(self.mde)}" if self.mde is not None else f"; by category {low} to none"
            )
        note = f"; {self.note}" if self.note else ""
        return f"{self.family} ({self.questions:,} question{'' if self.questions == 1 else 's'}): {head}{spread}{note}"


def _looks(n: int) -> str:
    return f"{n} planned look{'' if n == 1 else 's'}"


def _worst(values: list[float | None]) -> float | None:
    return None if not values or any(v is None for v in values) else max(values)


def priority_weights(plan) -> dict[str, tuple[float, float]]:
    """Per category of ``plan``: (the weight of a prioritized question, of any other) in the engine's
    weighted BH step while every question is open (``tuner.engine.design.look_weights``: mean 1
    over the questions); (1, 1) where nothing is weighed."""
    from tuner.engine.design import _factors, split_key

    keys = _factors(plan)
    asked = {c: sum(split_key(k)[0] in plan.priority.get(c, ()) for k in keys) for c in plan.evals}
    if plan.priority_weight == 1.0 or not any(asked.values()):
        return {c: (1.0, 1.0) for c in plan.evals}
    raw = sum(plan.priority_weight * n + (len(keys) - n) for n in asked.values())
    mean = raw / (len(keys) * len(plan.evals))
    return {c: (plan.priority_weight / mean, 1.0 / mean) for c in plan.evals}


def engine_designs(plan, rate: float = RATE) -> dict[str, dict[str, Design]]:
    """Per category of an engine ``Plan`` (``tuner.engine``): the Design of a rule's
    question and, when the plan weighs phrasings, of a phrasing's; with questions asked first
    (``Plan.priority``), "rules"/"phrasings" are the others' and "priority rules"/"priority
    phrasings" the prioritized ones' (their weight in the BH step is the only difference)."""
    from tuner.engine import planned_shape

    shape = planned_shape(plan)
    looks, p_drop, factors = shape["looks"], shape["p_drop"], shape["factors"]
    questions = factors * len(plan.models) * len(plan.evals)
    spent = shape["spending"]  # what the engine will spend at each look (a continuation: what is left)
    weights = priority_weights(plan)
    out: dict[str, dict[str, Design]] = {}
    v = rate * (1 - rate)
    kinds = {"rules": p_drop}
    if plan.variants:
        kinds["phrasings"] = p_drop * (1 - p_drop)
    for category, evals in plan.evals.items():
        out[category] = {}
        for kind, share in kinds.items():
            se, df, tested = [], [], []
            for reps in looks:
                n = len(evals) * reps
                cols = 1 + factors + len(evals) - 1
                resid = n - cols
                floor = math.sqrt(v * (1 / max(1.0, n * share) + 1 / max(1.0, n * (1 - share))))
                se.append(floor / math.sqrt(max(0.05, 1 - cols / n)) if n > 0 else 1.0)
                df.append(float(max(1, resid)))
                tested.append(n * share >= shape["min_drops"] and resid >= shape["min_df"])
            design = Design(
                se=tuple(se),
                df=tuple(df),
                alpha=tuple(a for a, _ in spent),
                beta=tuple(b for _, b in spent),
                tested=tuple(tested),
                questions=questions,
                delta0=plan.zone.delta0,
                delta=plan.zone.delta,
            )
            first, rest = weights[category]
            out[category][kind] = replace(design, weight=rest)
            if plan.priority.get(category) and first != rest:
                out[category][f"priority {kind}"] = replace(design, weight=first)
    return out


def engine_family(plan, family: str, rate: float = RATE) -> Detectable:
    """The engine's cells under ``plan``: the MDE of a rule's effect in each category (the headline
    is the largest, the category with the fewest evals); phrasings' in the note."""
    designs = engine_designs(plan, rate)
    cache: dict[Design, float | None] = {}

    def of(d: Design) -> float | None:
        if d not in cache:
            cache[d] = mde(d)
        return cache[d]

    rules = {c: of(d["rules"]) for c, d in designs.items()}
    note = ""
    if plan.variants:
        phr = _worst([of(d["phrasings"]) for d in designs.values()])
        note = "a phrasing against its rule's own: " + ("none" if phr is None else f"{phr * 100:.0f} points")
    from tuner.engine import planned_shape

    shape = planned_shape(plan)
    # With failure modes read (``Plan.modes``) the figure is still the pass bit's: a rule acting
    # through one mode is decided sooner, one acting on every mode alike is not (the conservative
    # figure holds for both: tests/stats/test_calibration_modes_mde.py).
    modes = "the pass bit's figure; a rule curing one kind of failure is often decided sooner" if plan.modes else ""
    # Questions asked first (``Plan.priority``) get a larger share of each look's error: their own,
    # smaller figure beside the others' (the headline, the conservative one).
    first = [of(d["priority rules"]) for d in designs.values() if "priority rules" in d]
    asked = ""
    if first:
        best = _worst(first)
        asked = "questions asked first: " + ("none" if best is None else f"{best * 100:.0f} points")
    note = "; ".join(x for x in (_looks(len(shape["looks"])), asked, note, modes) if x)
    return Detectable(
        family=family,
        questions=shape["factors"] * len(plan.models) * len(plan.evals),
        mde=_worst(list(rules.values())),
        rate=rate,
        by=rules if len(rules) > 1 else {},
        note=note,
    )


def confirmation_family(
    rounds: list[int],
    target_evals: int,
    n_models: int,
    zone,
    rate: float = RATE,
    family: str = "confirmation",
    looks: tuple[int | None, list] = (None, []),
) -> Detectable:
    """Tune's confirmation on the target's tuning evals: ``rounds`` (samples per eval of each planned
    round, ``planned_rounds``), one cell per model in the target's own BH family. ``looks``: the
    experiment's confirmation looks so far (``Store.engine_looks``, design "confirm"): a rerun's
    winner is confirmed on what they left (``confirm_looks``; sized here as a new selection's)."""
    cum = [sum(rounds[: i + 1]) for i in range(len(rounds))]
    if not cum or target_evals < 1:
        return Detectable(family=family, questions=n_models, mde=None, rate=rate, note="no budget left for it")
    v = rate * (1 - rate)
    anchor, made = looks
    used = (sum(a for _, a, _ in made), sum(b for _, _, b in made))
    # A third of alpha and beta is kept for reruns; a rerun spends what is left (``confirm_looks``).
    spent = zone.continued(0, cum, used, cum[-1] if anchor is None else anchor)
    n = [target_evals * c for c in cum]
    from tuner.stats.difference import discordance_se

    # The confirmation's error is the upper bound of the discordant share's (``paired_estimate``), not
    # the share itself: at a few pairs that is what its test sees.
    design = Design(
        se=tuple(float(discordance_se(2 * v * x, x)) for x in n),
        df=tuple(float(max(1, x - target_evals)) for x in n),
        alpha=tuple(a for a, _ in spent),
        beta=tuple(b for _, b in spent),
        tested=tuple(True for _ in n),
        questions=n_models,
        delta0=zone.delta0,
        delta=zone.delta,
    )
    return Detectable(
        family=family,
        questions=n_models,
        mde=mde(design),
        rate=rate,
        note=f"{_looks(len(cum))}, {cum[-1]} samples per eval at the last"
        + (f"; {len(made)} looks made by earlier runs, alpha {used[0]:.3f} of 0.05 spent" if made else ""),
    )


def mcnemar_power(
    pairs: int, effect: float, cells: int, *, one_sided: bool = False, alpha: float = 0.05, rate: float = RATE
) -> float:
    """Exact power of the exact McNemar test on ``pairs`` pairs (before at ``rate - effect/2``, after at
    ``rate + effect/2``, independent draws), at ``alpha / cells`` (BH with one real effect among nulls
    that are uniform: its q is about its p times the cells). Two-sided (compare) or one-sided (the
    gate's drop test: the same arithmetic with the roles swapped). Sums over the discordant count D and
    the count that moved the right way given D; no simulation, so it is exact at any size."""
    import numpy as np
    from scipy.stats import binom

    before, after = rate - effect / 2, rate + effect / 2
    up, down = (1 - before) * after, before * (1 - after)
    if up + down <= 0:
        return 0.0
    level = alpha / max(1, cells)
    total = 0.0
    d = np.arange(0, pairs + 1)
    p_d = binom.pmf(d, pairs, up + down)
    for n, w in zip(d, p_d):
        if n == 0 or w < 1e-12:
            continue
        b = np.arange(0, n + 1)
        tail = binom.sf(b - 1, n, 0.5)  # P(X >= b): the one-sided p of b moves the right way
        p = tail if one_sided else np.minimum(1.0, 2 * np.minimum(tail, binom.cdf(b, n, 0.5)))
        hit = (p < level) & (b > n - b)
        total += w * float(binom.pmf(b[hit], n, up / (up + down)).sum())
    return total


def paired_family(
    pairs: int,
    cells: int,
    *,
    family: str,
    one_sided: bool = False,
    alpha: float = 0.05,
    rate: float = RATE,
    note: str = "",
) -> Detectable:
    """A one-look exact McNemar test on ``pairs`` pairs per cell, BH over ``cells``: compare's two-sided
    test (an improvement or a regression), or the gate's one-sided drop test (the drop it stops)."""
    found = None
    if pairs >= 1 and mcnemar_power(pairs, 0.98, cells, one_sided=one_sided, alpha=alpha) >= POWER:
        lo, hi = 0.0, 0.98
        while hi - lo > 0.002:
            mid = (lo + hi) / 2
            lo, hi = (
                (mid, hi) if mcnemar_power(pairs, mid, cells, one_sided=one_sided, alpha=alpha) < POWER else (lo, mid)
            )
        found = round(hi, 3)
    return Detectable(family=family, questions=cells, mde=found, rate=rate, note=note)


def decide_value(value: str | float | None) -> float | None:
    """``--decide``: an effect in pass-rate points, strictly between 0 and 1."""
    from tuner.errors import InputError

    if value is None:
        return None
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise InputError(
            f"--decide {value!r}: not a number; give the effect to decide in pass-rate points, e.g. 0.08"
        ) from None
    if not (0 < x < 1) or math.isnan(x):
        raise InputError(
            f"--decide {value}: must be strictly between 0 and 1 (pass-rate points, e.g. 0.08 for 8 points)"
        )
    return x


def calls_to_decide(
    effect: float, mde_at: Callable[[int], float | None], *, start: int, most: int = 10_000_000
) -> int | None:
    """The smallest budget (calls) whose MDE is at most ``effect``: ``mde_at(calls)`` for the family
    the budget pays for; doubling from ``start``, then bisection to 1%. None past ``most``."""
    lo, hi = 0, max(1, start)

    def ok(calls: int) -> bool:
        m = mde_at(calls)
        return m is not None and m <= effect

    while not ok(hi):
        lo, hi = hi, hi * 2
        if hi > most:
            return None
    while hi - lo > max(1, hi // 100):
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if not ok(mid) else (lo, mid)
    return hi
