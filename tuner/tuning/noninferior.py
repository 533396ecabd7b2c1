"""Is a drop of the margin ruled out in every other category? The acceptance's non-inferiority.

"Accepted" tells a user the winner is better at its target *without making the others worse*. An
absent drop is not that: the drop family (``acceptance.drop_family``) only says no drop is
*established*, and at the product's sizes it misses a 15-point drop in one category a third to
nine tenths of the time. Over reruns the misses grew, because a user reruns until the target is
confirmed and the winner was accepted at the first invocation that confirmed it, whose drop test
had least power: on Convex, +30 on the target and -15 in one other category was published 0.21
at the first cap and 0.56 within three reruns (docs/tune-and-publish.md).

So every model x other category (its tuning and held-out evals pooled, as the drop family's cells)
must show it: the one-sided lower bound of the paired difference (``paired_estimate``: samples
the random unit, the zone's standard error) above ``-margin`` (the study's ``--tolerance``, 15
points by default, the publish gate's margin). Requiring every cell is an intersection-union test:
its error is one cell's, so no correction over cells.

Sequential over the confirmation's looks and reruns: the confirmation tests each open cell at every
look at that look's alpha share (``confirm_looks``: the shares of every look of the experiment,
every rerun and selection, add up to at most alpha), and a cell shown non-inferior stays so. By the
union bound, a change whose true drop in a category is the margin is accepted at most alpha of the
time over any number of reruns; a replayed look replays its verdict (the same samples, the same
share). The confirmation keeps sampling a category until each of its cells is decided, within its
budget.
"""

from __future__ import annotations

import math

from pydantic import BaseModel, Field

__all__ = [
    "NON_INFERIOR",
    "NOT_RULED_OUT",
    "NonInferior",
    "calls_to_show",
    "margin_cap",
    "ni_test",
    "planned_showing",
    "pooled_counts",
    "row_estimate",
    "showing",
]

NON_INFERIOR, NOT_RULED_OUT = "non-inferior", "not ruled out"


class NonInferior(BaseModel):
    """One model x other category: is a drop of the margin ruled out?"""

    model: str = Field(description="The model's label.")
    category: str = Field(description="The category (its tuning and held-out evals pooled).")
    margin: float = Field(description="The drop that must be ruled out (the study's --tolerance).")
    verdict: str = Field(description="non-inferior | not ruled out.")
    look: int | None = Field(description="The look that showed it, else the last look tested.")
    level: float = Field(description="That look's one-sided level (its share of alpha).")
    delta: float | None = Field(description="After minus before over the pairs at that look.")
    lo: float | None = Field(description="The one-sided lower bound at that level.")
    hi: float | None = Field(description="The matching upper bound.")
    pairs: int = Field(description="Paired answers at that look.")

    @property
    def shown(self) -> bool:
        return self.verdict == NON_INFERIOR

    def reason(self) -> str:
        """One line saying why this cell stops an acceptance."""
        where = f"{self.model} · {self.category}"
        if self.delta is None or self.lo is None:
            return f"{where}: a drop of more than {self.margin * 100:.0f} points is not ruled out (no pairs measured)"
        return (
            f"{where}: a drop of more than {self.margin * 100:.0f} points is not ruled out ({self.delta:+.0%} "
            f"[{self.lo:+.0%}, {self.hi:+.0%}], {self.pairs} pairs, one-sided level {self.level:.2g})"
        )


def ni_test(
    model: str,
    category: str,
    estimate: tuple[float, float, float] | None,
    pairs: int,
    level: float,
    margin: float,
    look: int | None,
) -> NonInferior:
    """The cell's verdict at one look: ``estimate`` (delta, standard error, degrees of freedom;
    ``paired_estimate``) over ``pairs`` pairs, ``level`` its one-sided share of alpha (0: nothing
    can be shown)."""
    from scipy.stats import t

    if estimate is None:
        return NonInferior(
            model=model,
            category=category,
            margin=margin,
            verdict=NOT_RULED_OUT,
            look=look,
            level=level,
            delta=None,
            lo=None,
            hi=None,
            pairs=0,
        )
    delta, se, df = estimate
    half = float(t.isf(level, df)) * se if level > 0 else float("inf")
    lo, hi = delta - half, delta + half
    return NonInferior(
        model=model,
        category=category,
        margin=margin,
        verdict=NON_INFERIOR if lo > -margin else NOT_RULED_OUT,
        look=look,
        level=level,
        delta=delta,
        lo=max(-1.0, lo),
        hi=min(1.0, hi),
        pairs=pairs,
    )


def row_estimate(rows: list) -> tuple[tuple[float, float, float] | None, int]:
    """(delta, se, df) of ``paired_estimate`` from confirmation rows (``CategoryRow``) pooled, and
    their pairs: for a caller with rows only (one look, no sequence)."""
    from tuner.stats.difference import discordance_se

    down, up, n = pooled_counts(rows)
    if not n:
        return None, 0
    tasks = sum(r.paired.tasks for r in rows)
    return ((up - down) / n, float(discordance_se(up + down, n)), float(max(1, n - tasks))), n


def pooled_counts(rows: list) -> tuple[int, int, int]:
    """(pass->fail, fail->pass, pairs) of confirmation rows (``CategoryRow``) pooled."""
    down = sum(sum(r.paired.pass_to_fail.values()) for r in rows)
    up = sum(sum(r.paired.fail_to_pass.values()) for r in rows)
    return down, up, sum(r.paired.pairs for r in rows)


def planned_showing(evals: dict[str, int], samples: int, level: float, margin: float, rate: float = 0.5) -> dict:
    """What a confirmation can show before it runs: per other category (``evals``: its tuning and
    held-out evals), the chance that a change which moves nothing there rules a drop of ``margin``
    out at a look with ``samples`` per eval tested at one-sided ``level``, and the chance all of them
    do (independent cells). ``rate``: the pass rate assumed (0.5: the largest discordance between
    independent answers, so it is not optimistic). The earlier looks can show it too, at smaller
    shares: a floor, close to the sequential test's."""
    from scipy.stats import norm

    q = 2 * rate * (1 - rate)
    z = float(norm.isf(level)) if level > 0 else float("inf")
    each = {c: float(norm.cdf(margin / math.sqrt(q / max(1, e * samples)) - z)) for c, e in evals.items()}
    return {"each": each, "all": math.prod(each.values()) if each else 1.0}


def _other_evals(h, config) -> dict[str, int]:
    """Per other category, its evals the confirmation measures (tuning and held-out)."""
    tuning = set(config.eval_ids)
    evals: dict[str, int] = {}
    for e in h.suite.evals:
        if e.category != config.category and (e.held_out or e.id in tuning):
            evals[e.category] = evals.get(e.category, 0) + 1
    return evals


def _looks(h, config):
    """The experiment's confirmation looks so far (any selection), as the confirmation counts them."""
    from tuner.tuning.confirm_looks import ALL, ConfirmLooks

    anchor, made = h.store.engine_looks(config.hash, ALL)
    return ConfirmLooks(h.store, config.hash, "", anchor, list(made), [])


def showing(looks, k: int, per_sample: int, budget: int, evals: dict[str, int], margin: float):
    """(``planned_showing`` at the last planned look, samples per eval there, that look's level) of a
    confirmation of ``budget`` calls (``looks``: its ``ConfirmLooks``; ``k``, ``per_sample``: as
    ``ConfirmLooks.plan``); None when the budget buys no look."""
    from tuner.stats.zones import Zone

    planned = looks.plan(k, per_sample, budget)
    if not planned:
        return None
    level = looks.spending(planned, Zone())[-1][0]
    return planned_showing(evals, planned[-1], level, margin), planned[-1], level


def calls_to_show(
    looks, k: int, per_sample: int, evals: dict[str, int], margin: float, n_models: int, chance: float = 0.8
) -> int | None:
    """The smallest confirmation budget (calls) whose last planned look shows the margin in every
    model x other category with ``chance`` where nothing moves (``showing``); None past 4,096 rounds
    of samples (nothing reasonable does)."""

    def enough(budget: int) -> bool:
        got = showing(looks, k, per_sample, budget, evals, margin)
        return got is not None and got[0]["all"] ** n_models >= chance

    low, high = 0, max(1, per_sample)
    while not enough(high):
        if high > 4096 * per_sample:
            return None
        low, high = high, 2 * high
    while high - low > max(1, per_sample // 2):
        mid = (low + high) // 2
        low, high = (low, mid) if enough(mid) else (mid, high)
    return high


def margin_cap(h, config, n_models: int, confirm_for, cap: int, chance: float = 0.8, most: int = 64) -> int | None:
    """The smallest cap (``--budget-calls``) whose confirmation (``confirm_for(cap)``: its calls at
    that cap) shows the margin in every model x other category with ``chance`` where the change
    moves nothing there (``calls_to_show``: a 50% pass rate, the largest discordance, so not
    optimistic). None when ``cap`` already does, or no cap up to ``most`` x it does (a fixed
    ``--confirm-budget`` never grows)."""
    from tuner.tuning.budgets import confirm_per_sample, evidence_samples

    evals = _other_evals(h, config)
    if not evals:
        return None
    held = sum(1 for e in h.suite.evals if e.held_out)
    per_sample = confirm_per_sample(config, held, n_models)
    need = calls_to_show(
        _looks(h, config), evidence_samples(config), per_sample, evals, config.tolerance, n_models, chance
    )
    if need is None or confirm_for(cap) >= need:
        return None
    low, high = cap, 2 * cap
    while confirm_for(high) < need:
        if high >= most * cap or confirm_for(high) == confirm_for(low):
            return None
        low, high = high, 2 * high
    while high - low > max(1, low // 100):  # to about 1%
        mid = (low + high) // 2
        low, high = (low, mid) if confirm_for(mid) >= need else (mid, high)
    return high


def plan_line(h, config, n_models: int, confirm_calls: int, needed: int | None = None) -> dict:
    """The tune plan's line on what the acceptance requires of the other categories and what this
    cap's confirmation can show (``planned_showing`` at its last planned look and that look's share
    of alpha); ``needed``: the cap that shows it with 80% chance (``margin_cap``), said when given."""
    evals = _other_evals(h, config)
    family = f"acceptance: a drop of more than {config.tolerance * 100:.0f} points ruled out elsewhere"
    cells = len(evals) * n_models
    if not evals:
        return {"family": family, "questions": 0, "mde": None, "note": "", "line": f"{family}: no other category"}
    from tuner.tuning.budgets import confirm_per_sample, evidence_samples

    held = sum(1 for e in h.suite.evals if e.held_out)
    per_sample = confirm_per_sample(config, held, n_models)
    got = showing(_looks(h, config), evidence_samples(config), per_sample, confirm_calls, evals, config.tolerance)
    if got is None:
        line = f"{family} ({cells} cells): the confirmation has no calls at this cap, so nothing can be accepted"
        return {"family": family, "questions": cells, "mde": None, "note": "", "line": line}
    shown, samples, level = got
    low, high = min(shown["each"].values()), max(shown["each"].values())
    each = f"{low:.0%}" if round(low, 2) == round(high, 2) else f"{low:.0%} to {high:.0%}"
    goes_on = (
        f"a cap of {needed:,} calls shows it in all with 80% chance"
        if needed
        else "a larger --budget-calls goes on from there"
    )
    note = (
        f"every model x other category must show it, one-sided at each confirmation look's share of alpha; at this "
        f"cap's last look ({samples} samples per eval, level {level:.2g}) a change that moves nothing there shows "
        f"it in all {cells} {_about(shown['all'] ** n_models)} of the time (each {each}, at a 50% pass rate); "
        + goes_on
    )
    return {
        "family": family,
        "questions": cells,
        "mde": None,
        "calls": needed,
        "note": note,
        "line": f"{family} ({cells} cells): {note}",
    }


def _about(p: float) -> str:
    return "under 1%" if p < 0.005 else f"about {p:.0%}"
