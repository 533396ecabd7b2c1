"""Calibration of tune -> acceptance -> publish over continuations (issue 29: one experiment across
invocations), through the product's own functions (``tuner.publish.simulate.run_path``: the
screening's engine with ``assemble`` as its stopping question, the regression ``check``,
``confirm``, ``accept``, the publish ``gate``) on the Python suite's shape (2 categories x 3 tuning
and 1 held-out evals, a pool of 5 baseline rules and 2 candidates): tune at its default cap (600
calls), then the same tune continued three times with twice the cap each time (1,200, 2,400, 4,800),
as a user does who reruns an undecided tune with a larger ``--budget-calls``. Each invocation is
given the screening's looks the earlier ones made, as the store keeps them (``looks_key="screen"``,
``Store.engine_looks``), replays them (the world's answers are a function of the prompt and sample,
as the response cache makes them) and spends only what is left of alpha (``Zone.continued``). A user
stops at the first invocation that publishes.

The null world is the least favourable one: every pool rule moves the target by exactly +delta0
(each question on the zone's boundary: a change there is not worth making, and deciding it is the
error alpha bounds). The confirmation's looks are kept between invocations too (``confirm_looks``,
a ``MemoryLooks`` standing in for the store), as tune keeps them. Over 200 seeds:

- anything published (or accepted) over the four invocations: at most alpha (measured before the
  acceptance required the margin elsewhere, which can only withhold more);
- the screening's verdicts (the rule evidence the tune report states: ``found_helpful``,
  ``found_harmful``): an experiment with any "helps"/"hurts" by the end of invocation j at most alpha x
  G(cap_j), the reserve's schedule, with two binomial standard errors of slack, and at most alpha by
  the end.

The mutants spend alpha afresh at each continuation (``Zone.continued`` with no reserve and the
looks made not counted, which the confirmation's spending shares; or a new plan per cap for the
screening and the confirmation, as before their looks were recorded). Their screening flags more
than alpha by the end (0.075, 0.060). The published rate does not show them (0.025 and 0.005, under
alpha): between the screening and an acceptance stands the confirmation on fresh samples of every
eval, and at the boundary even a confirmation spending alpha afresh per invocation accepts rarely.
The screening's error control over continuations is what the report's rule verdicts rest on; the
confirmation's is what the publication rests on (``test_calibration_confirmation_reruns.py``).

A clear winner (+30 points on the target) withheld by the first invocation is rarely rescued by the
continuations: see ``test_a_clear_winner_is_published_without_force_over_continuations``.
"""

from __future__ import annotations

import itertools
import math

import pytest
from test_calibration_tune_path import RULES, shape, world

from tuner.publish.simulate import run_path
from tuner.stats import ALPHA, zones
from tuner.stats.zones import Zone
from tuner.tuning.confirm_looks import MemoryLooks
from tuner.tuning.simulate import Term, World

pytestmark = [pytest.mark.slow]

SEEDS = 200
CAPS = (600, 1200, 2400, 4800)  # tune's default cap on the Python suite, then three continuations


def _boundary() -> World:
    """Every rule of the pool moves the target by +delta0 (the least favourable null)."""
    return World(
        shape=shape("suites/python"),
        target="data",
        baseline=RULES,
        candidates=("c1", "c2"),
        terms=tuple(Term((r,), {"data": Zone().delta0}) for r in (*RULES, "c1", "c2")),
        target_rates=(0.3, 0.6),
    )


def _experiments(w: World, seeds: int = SEEDS, continued: bool = True) -> dict:
    """Per invocation, the share of experiments whose screening flagged something by its end, which
    accepted, which published (without --force) by its end; each experiment stops once published.
    ``continued`` False: each invocation is given no looks (a new plan per cap, the mutant)."""
    flagged, accepted, published = ([0] * len(CAPS) for _ in range(3))
    replays_ok = True
    for seed in range(seeds):
        looks: tuple = (None, [])
        kept = MemoryLooks()  # the confirmation's looks, as the store keeps them with the experiment
        first_flag = None
        for j, cap in enumerate(CAPS):
            r = run_path(
                w, seed, cap=cap, looks=looks if continued else (None, []), confirm_store=kept if continued else None
            )
            # The looks made are replayed as they were (what they spent included), never re-planned.
            replays_ok &= r.looks[1][: len(looks[1])] == looks[1]
            looks = r.looks
            if r.flagged and first_flag is None:
                first_flag = j
                flagged[j] += 1
            accepted[j] += r.decision == "accepted"
            if r.published:
                published[j] += 1
                break
    cumulative = lambda xs: [round(x / seeds, 3) for x in itertools.accumulate(xs)]  # noqa: E731
    return {
        "flagged": cumulative(flagged),
        "accepted": cumulative(accepted),
        "published": cumulative(published),
        "replays": replays_ok,
    }


def _schedule() -> list[float]:
    """alpha x G(cap_j): the share of alpha the screening may have spent by the end of invocation j."""
    from tuner.engine import Plan, planned_looks

    def last_look(cap: int) -> int:
        target = [e for e, c, held in shape("suites/python").evals_ if c == "data" and not held]
        plan = Plan(rules=(*RULES, "c1", "c2"), evals={"data": tuple(target)}, models=("m",), budget_calls=cap // 2)
        return planned_looks(plan)[-1]

    anchor = last_look(CAPS[0])
    return [ALPHA * zones._share(last_look(cap), anchor) for cap in CAPS]


def _beyond_schedule(rates: list[float], seeds: int = SEEDS) -> list[str]:
    out = []
    for j, (rate, planned) in enumerate(zip(rates, _schedule())):
        if rate > planned + 2 * math.sqrt(planned * (1 - planned) / seeds):
            out.append(f"invocation {j + 1}: {rate:.3f} flagged, {planned:.4f} planned")
    return out


def test_every_question_at_the_edge_of_mattering_over_three_continuations():
    """Measured (200): published 0.005 by the end (by the second invocation, with the acceptance's
    margin; by the first before it; none accepted and withheld by the gate); the screening flagged 0.020 by the end of each invocation (all at the
    first)."""
    r = _experiments(_boundary())
    print(f"tune continued, every question at +delta0: {r}; schedule {[round(x, 4) for x in _schedule()]}")
    assert r["replays"]
    assert r["published"][-1] <= ALPHA and r["accepted"][-1] <= ALPHA
    assert r["flagged"][-1] <= ALPHA and not _beyond_schedule(r["flagged"])


def test_the_check_fails_when_each_continuation_spends_alpha_afresh(monkeypatch):
    """Mutant: each invocation's new looks spend the whole of alpha again (``Zone.continued`` with no
    reserve and the looks made not counted; the confirmation's spending shares it). Measured (200),
    the screening flagged by the end of each invocation: 0.035, 0.035, 0.040, 0.075 (beyond alpha);
    published 0.025 (the confirmation guards it). The other mutant, a new plan per cap for the
    screening and the confirmation (no looks given: ``_experiments(..., continued=False)``), flagged
    0.020, 0.025, 0.030, 0.060 and published 0.005 (measured once; left out of the run for time)."""
    real = Zone.continued

    def afresh(self, start, looks, spent, anchor):
        monkeypatch.setattr(zones, "RESERVE", 0.0)
        try:
            return real(self, start, looks, (0.0, 0.0), looks[-1] if looks else anchor)
        finally:
            monkeypatch.setattr(zones, "RESERVE", 1 / 3)

    monkeypatch.setattr(Zone, "continued", afresh)
    r = _experiments(_boundary())
    monkeypatch.undo()
    print(f"mutant (alpha afresh per continuation), every question at +delta0: {r}")
    assert r["flagged"][-1] > ALPHA or _beyond_schedule(r["flagged"])


def test_a_clear_winner_is_published_without_force_over_continuations():
    """+30 points on the target. Measured (100): published without --force 0.45 by the first
    invocation, 0.73 by the second, 0.96 by the third, 0.98 by the end, now that the acceptance needs
    a drop of 15 points ruled out on text (``tuner.tuning.noninferior``); 0.68, 0.95, 0.99, 0.99
    before. The confirmation's budget grows with the cap
    over the default (``budgets.confirm_budget``); when it stopped at twice its fixed design (384
    calls here) every look from the third cap on was a replay and the end was 0.75. The boundary
    world publishes 0.005 either way (the test above)."""
    r = _experiments(world("suites/python", "data", 0.30), seeds=100)
    print(f"tune continued, +30 on the target: {r}")
    assert r["published"][-1] >= 0.90 and r["published"][-1] > r["published"][0]
