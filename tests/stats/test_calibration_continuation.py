"""Calibration of one engine experiment across invocations (``tuner.engine``: ``Plan.made``,
``Plan.anchor``; ``tuner.stats.zones``: ``Zone.continued``), at the smallest sizes the product
allows: the Python suite's shape (2 categories x 3 tuning evals, 7 rules), first at the default
budget floor (600 calls), then continued three times, each to twice the cap (1,200, 2,400, 4,800),
as a user does who reruns the same ``ablate`` with a larger ``--budget-calls``.

Each invocation is a new ``run_engine`` given the looks the earlier ones made (what the store
records): it replays them (the simulated answers are a function of the point, as the response
cache makes them) and plans the rest. What is promised, over 200 seeds:

- A/A: a rule that does nothing is flagged in at most 5% of whole experiments, any cell, any look
  of any of the four invocations;
- every cell on the zone's boundary (+delta0): at most 5% too, and by the end of invocation j at
  most the error planned up to it, alpha x G(cap_j) (the reserve's schedule);
- nothing is bought twice: the calls paid over the four invocations are the calls the last one
  replays and made;
- a planted effect the first invocation cannot decide is decided by the continuations.

The mutant spends the full alpha afresh at every invocation (what a new plan per budget did): the
boundary world catches it.
"""

import hashlib
import math

import numpy as np
import pytest

from tuner.ablation import MIN_BUDGET
from tuner.engine import Plan, planned_looks, planned_spending, run_engine
from tuner.stats import ALPHA, zones
from tuner.stats.simulate import task_rates
from tuner.stats.zones import HELPS, HURTS, Zone

pytestmark = [pytest.mark.slow]

CATEGORIES = {"a": ("a/0", "a/1", "a/2"), "b": ("b/0", "b/1", "b/2")}
RULES = tuple(f"r{i}" for i in range(7))
SEEDS = 200
CAPS = (MIN_BUDGET, 900, 1350, 2025)  # the first, then three continuations, each at 1.5x the cap


def _u(*parts) -> float:
    digest = hashlib.blake2b("|".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


def _plan(cap: int, seed: int = 0, anchor=None, made=()) -> Plan:
    return Plan(
        rules=RULES,
        evals=CATEGORIES,
        models=("m",),
        budget_calls=cap,
        zone=Zone(),
        seed=seed,
        anchor=anchor,
        made=tuple(made),
    )


def _world(seed: int, effect: float, rule: str | None):
    """A deterministic world (an answer is a function of its point, as the response cache makes it):
    ``rule`` moves category a by ``effect``; None: every rule moves every category by ``effect``.
    The observe function, and the set of points bought so far."""
    rng = np.random.default_rng(seed)
    base = {e: 0.25 + 0.5 * r for evals in CATEGORIES.values() for e, r in zip(evals, task_rates(rng, 0.5, 0.3, 3))}
    bought: set = set()

    def observe(points):
        out, paid = [], 0
        for pt in points:
            if rule is None:
                p = base[pt.eval_id] - 0.1 + effect * (len(RULES) - len(pt.dropped))
            else:
                p = base[pt.eval_id] + (effect if pt.category == "a" and rule not in pt.dropped else 0.0)
            key = (pt.eval_id, pt.replicate, pt.dropped)
            paid += key not in bought
            bought.add(key)
            out.append({"m": _u(seed, pt.eval_id, pt.replicate, pt.dropped) < p})
        return out, paid

    return observe


def _invocations(seed: int, effect: float = 0.0, rule: str | None = "r0"):
    """The four invocations of one experiment, each a new ``run_engine`` given what the earlier made."""
    observe = _world(seed, effect, rule)
    runs, anchor, made = [], None, ()
    for cap in CAPS:
        out = run_engine(_plan(cap, seed, anchor, made), observe)
        runs.append(out)
        anchor, made = out.anchor, tuple(out.made)  # what the store records
    return runs


def _chain() -> tuple[int, tuple, list[int]]:
    """The looks the first three invocations make and what each spends, known before any data (a look
    is skipped only when every cell is decided, and then nothing changes after it): the last
    invocation's ``anchor`` and ``made``, and the number of looks by the end of each invocation."""
    anchor, made, ends = None, (), []
    for cap in CAPS:
        plan = _plan(cap, 0, anchor, made)
        looks, spending = planned_looks(plan), planned_spending(plan)
        ends.append(len(looks))
        anchor = looks[-1] if anchor is None else anchor
        made = tuple((n, a, b) for n, (a, b) in zip(looks, spending))
    return anchor, made[: ends[-2]], ends


def _experiment(seed: int, effect: float = 0.0, rule: str | None = "r0"):
    """The whole experiment at once: the last invocation given the looks the first three make (what
    ``_invocations`` gives, at a quarter of the fits: ``test_..._replays_...`` checks they agree).
    Its outcome, and per invocation the number of looks made by its end."""
    anchor, made, ends = _chain()
    return run_engine(_plan(CAPS[-1], seed, anchor, made), _world(seed, effect, rule)), ends


def _share(cap_index: int) -> float:
    """G at the end of invocation ``cap_index``: the share of alpha planned up to it."""
    anchor = planned_looks(_plan(CAPS[0]))[-1]
    return zones._share(planned_looks(_plan(CAPS[cap_index]))[-1], anchor)


def _first_flag(out, rule: str | None) -> int | None:
    """The look of the first flag: any cell (``rule`` None or in an A/A), else the planted cell r0 x a."""
    if rule is not None and rule != "any":
        cell = next(c for c in out.cells if c.rule == rule and c.category == "a")
        return cell.decided_round if cell.verdict in (HELPS, HURTS) else None
    return next((h["round"] for h in out.history if h.get(HELPS, 0) + h.get(HURTS, 0)), None)


def _by_invocation(effect: float, rule: str | None, seeds: int = SEEDS) -> list[float]:
    """The share of experiments flagged (any cell) by the end of each invocation."""
    flagged = [0] * len(CAPS)
    for seed in range(seeds):
        out, ends = _experiment(seed, effect, rule)
        first = _first_flag(out, "any")
        for j, end in enumerate(ends):
            flagged[j] += first is not None and first <= end
    return [f / seeds for f in flagged]


def _beyond_schedule(rates: list[float], seeds: int = SEEDS) -> list[str]:
    """The invocations j where the experiments flagged by their end exceed alpha x G(cap_j), plus two
    binomial standard errors of the simulation."""
    out = []
    for j, rate in enumerate(rates):
        planned = ALPHA * _share(j)
        if rate > planned + 2 * math.sqrt(planned * (1 - planned) / seeds):
            out.append(f"invocation {j + 1}: {rate:.3f} flagged, {planned:.4f} planned")
    return out


def test_a_continuation_replays_the_looks_made_and_buys_only_new_points():
    for seed, effect in ((0, 0.0), (1, 0.15)):
        runs = _invocations(seed, effect=effect)
        first, last = runs[0], runs[-1]
        assert last.made[: len(first.made)] == first.made  # the same looks, spending what they spent
        assert len(last.made) > len(first.made) and last.looks[-1] == planned_looks(_plan(CAPS[-1]))[-1]
        # Each invocation pays only for the points the earlier ones did not make.
        assert sum(out.new_calls for out in runs) == last.calls
        assert runs[1].new_calls == runs[1].calls - first.calls > 0
        # Whatever the number of invocations, the looks' shares add up to at most alpha (and beta).
        assert sum(a for _, a, _ in last.made) <= ALPHA * _share(len(CAPS) - 1) + 1e-12
        assert sum(b for _, _, b in last.made) <= Zone().beta
        # The experiment at once (as the calibration below runs it) is the four invocations.
        whole, _ = _experiment(seed, effect=effect)
        assert [(c.rule, c.category, c.verdict, c.delta) for c in whole.cells] == [
            (c.rule, c.category, c.verdict, c.delta) for c in last.cells
        ]
        assert whole.made == last.made


def test_a_a_over_three_continuations_flags_at_most_alpha():
    """Measured (200): any flag 0.005 by the end of the first invocation, 0.010 after three continuations
    (0.010 after each of them)."""
    rates = _by_invocation(0.0, "r0")
    print(f"continuation A/A: flagged by the end of each invocation {rates}")
    assert rates[-1] <= ALPHA
    assert not _beyond_schedule(rates)


def test_every_cell_at_the_edge_of_mattering_over_three_continuations():
    """Every rule moves every category by +delta0 (14 cells on the zone's boundary). Measured (200):
    0.005 by the end of the first invocation, 0.010 after three continuations."""
    rates = _by_invocation(Zone().delta0, None)
    print(f"continuation, every cell at +delta0: {rates}")
    assert rates[-1] <= ALPHA
    assert not _beyond_schedule(rates)


def test_the_checks_fail_when_each_continuation_spends_alpha_afresh(monkeypatch):
    """Mutant: each invocation's new looks spend the whole of alpha (and beta) again, as a new plan per
    budget did. Measured (200), every cell at +delta0: 0.035, 0.060, 0.080, 0.110 by the end of each invocation."""
    real = Zone.continued

    def afresh(self, start, looks, spent, anchor):
        monkeypatch.setattr(zones, "RESERVE", 0.0)
        try:
            return real(self, start, looks, (0.0, 0.0), looks[-1] if looks else anchor)
        finally:
            monkeypatch.setattr(zones, "RESERVE", 1 / 3)

    monkeypatch.setattr(Zone, "continued", afresh)
    rates = _by_invocation(Zone().delta0, None)
    monkeypatch.undo()
    print(f"mutant (alpha afresh per invocation), every cell at +delta0: {rates}")
    assert rates[-1] > ALPHA or _beyond_schedule(rates)


def test_a_planted_effect_at_the_printed_minimum_detectable_effect_is_decided_across_continuations():
    """The last continuation's plan prints the smallest effect it decides with 80% power
    (``tuner.planning``, from its looks made and what is left of the error budget: what the leads'
    calls are computed from). Planted at that size on one rule x category, the first 600 calls
    decide it in a few experiments, the three continuations in about 80%. Measured (100): 0.184
    printed; 0.15 at the first cap, 0.80 at the last."""
    from tuner.planning.families import engine_family

    anchor, made, ends = _chain()
    printed = engine_family(_plan(CAPS[-1], 0, anchor, made), "continued").mde
    seeds = SEEDS // 2
    first = last = 0
    for seed in range(seeds):
        out, _ = _experiment(seed, effect=printed)
        look = _first_flag(out, "r0")
        first += look is not None and look <= ends[0]
        last += look is not None and next(c for c in out.cells if c.rule == "r0" and c.category == "a").verdict == HELPS
    print(
        f"continuation, {printed:+.3f} (printed MDE) on r0 x a: decided {first / seeds:.2f} at the first cap, "
        f"{last / seeds:.2f} after three continuations"
    )
    assert 0.80 - 0.07 <= last / seeds <= 0.80 + 0.07 and first < last
