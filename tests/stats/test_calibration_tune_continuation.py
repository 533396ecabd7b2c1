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
error alpha bounds). Over 200 seeds:

- anything published (or accepted) over the four invocations: at most alpha;
- the screening's verdicts (the rule evidence the tune report states: ``found_helpful``,
  ``found_harmful``): an experiment with any "helps"/"hurts" by the end of invocation j at most alpha x
  G(cap_j), the reserve's schedule, with two binomial standard errors of slack, and at most alpha by
  the end.

The mutants spend alpha afresh at each continuation (no reserve and the looks made not counted; or
a new plan per cap, as before the looks were recorded). Their screening flags more than alpha by
the end (0.075, 0.060); the published rate does not show it,
and the test says why: the confirmation, on fresh samples of every eval, stands between the
screening and an acceptance, so at these sizes even the mutant publishes at most 0.04 (measured,
with the confirmation's own samples also drawn afresh per continuation). The screening's error
control over continuations is what the report's rule verdicts rest on; the confirmation's is what
the publication rests on.

A clear winner (+30 points on the target) is accepted and published without --force by the end of
the continuations in nearly every repetition, more often than by the first invocation alone.
"""

from __future__ import annotations

import itertools
import math

import pytest
from test_calibration_tune_path import RULES, shape, world

from tuner.publish.simulate import run_path
from tuner.stats import ALPHA, zones
from tuner.stats.zones import Zone
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
        first_flag = None
        for j, cap in enumerate(CAPS):
            r = run_path(w, seed, cap=cap, looks=looks if continued else (None, []))
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
    """Measured (200): published 0.020 by the end (0.010 by the first invocation; none accepted
    and withheld by the gate); the screening flagged 0.020 by the end of each invocation (all at the
    first)."""
    r = _experiments(_boundary())
    print(f"tune continued, every question at +delta0: {r}; schedule {[round(x, 4) for x in _schedule()]}")
    assert r["replays"]
    assert r["published"][-1] <= ALPHA and r["accepted"][-1] <= ALPHA
    assert r["flagged"][-1] <= ALPHA and not _beyond_schedule(r["flagged"])


@pytest.mark.parametrize("mutant", ["alpha afresh", "looks not replayed"])
def test_the_check_fails_when_each_continuation_spends_alpha_afresh(mutant, monkeypatch):
    """Mutants: each invocation's new looks spend the whole of alpha again (no reserve, the looks made not
    counted), or each invocation is a new plan (the looks made not given: a new design over the same
    cached points, its own two thirds of alpha). Measured (200), the screening flagged by the end of
    each invocation: 0.035, 0.035, 0.040, 0.075; 0.020, 0.025, 0.030, 0.060 (both beyond alpha at the
    end). Published 0.020 and 0.010: the confirmation guards it (with its samples also drawn afresh per
    continuation, 0.040)."""
    if mutant == "alpha afresh":
        real = Zone.continued

        def afresh(self, start, looks, spent, anchor):
            monkeypatch.setattr(zones, "RESERVE", 0.0)
            try:
                return real(self, start, looks, (0.0, 0.0), looks[-1] if looks else anchor)
            finally:
                monkeypatch.setattr(zones, "RESERVE", 1 / 3)

        monkeypatch.setattr(Zone, "continued", afresh)
    r = _experiments(_boundary(), continued=mutant != "looks not replayed")
    monkeypatch.undo()
    print(f"mutant ({mutant}), every question at +delta0: {r}")
    assert r["flagged"][-1] > ALPHA or _beyond_schedule(r["flagged"])


def test_a_clear_winner_is_published_without_force_over_continuations():
    """+30 points on the target. Measured (100): published without --force 0.71 by the first
    invocation, 0.90 by the end, all of the gain at the first continuation. The later ones cannot add
    to it: the confirmation's budget stops growing at twice its fixed design (384 calls here) from the
    second cap on, so a winner it left unconfirmed there is replayed and left unconfirmed by every
    larger cap (the 10% withheld: the target not confirmed, the same answers each time)."""
    r = _experiments(world("suites/python", "data", 0.30), seeds=100)
    print(f"tune continued, +30 on the target: {r}")
    assert r["published"][-1] >= 0.85 and r["published"][-1] > r["published"][0]
