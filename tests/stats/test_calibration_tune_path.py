"""Calibration of what users act on: the whole tune -> acceptance -> publish path, end to end, through the
product's own functions (``tuner.publish.simulate.run_path``: the screening engine and ``assemble``,
the regression ``check``, ``confirm`` with what the default cap leaves, ``accept``, the publish
``gate``), with answers drawn from planted worlds (``tuner.tuning.simulate``).

The shape, at the default cap, one model:

- **Convex**: the shipped suite's 8 categories (9-12 tuning and 3 held-out evals each), cap 2,475
  calls (half the leave-one-out of its 65-rule pool), the change decided at the screening's first
  look (126 calls for its 94 questions, ``planned_looks``).
- the Python suite, whose screening the engine itself runs, is in
  ``test_calibration_tune_path_engine.py``.

Worlds: the planted change adds ``gain`` to the pass probability of every target eval (target evals
at 30-60%, every other eval 30-90%) and ``-harm`` to one other category's. Rates are family-wise:
over everything the path decides, from the check to the gate. The figures measured are in the
docstrings and docs/tune-and-publish.md; the bounds are the guarantees (<= 5%) or a floor under the measured
figure. A mutant (the drop test without Benjamini-Hochberg) must fail the family-wise bound.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from tuner.publish.simulate import run_path
from tuner.tuning.simulate import Shape, Term, World

REPO = Path(__file__).resolve().parents[2]
ADD = [{"kind": "add", "rule": "c1", "variant": "default"}]
RULES = ("r1", "r2", "r3", "r4", "r5")
CONVEX = dict(changes=ADD, cap=2475, screening_calls=126)


@lru_cache(maxsize=None)
def shape(suite: str) -> Shape:
    from tuner.evals import load_suite
    from tuner.paths import find_project

    return Shape.of_suite(load_suite(find_project(REPO, suite=REPO / suite if suite != "evals" else None)))


def world(suite: str, target: str, gain: float, harm: tuple[str, float] | None = None, **kw) -> World:
    shifts = {target: gain, **({harm[0]: -harm[1]} if harm else {})}
    return World(
        shape=shape(suite),
        target=target,
        baseline=RULES,
        candidates=("c1", "c2"),
        terms=(Term(("c1",), shifts),),
        target_rates=(0.3, 0.6),
        **kw,
    )


def rates(w: World, seeds: int, **kw) -> dict[str, float]:
    """Shares over the repetitions: accepted, published without --force, and why the others stopped."""
    out: Counter = Counter()
    for seed in range(seeds):
        r = run_path(w, seed, **kw)
        out[r.decision] += 1
        out["published"] += r.published
        out[f"stopped by {r.stopped_by or 'nothing'}"] += 1
        out["held-out target improved"] += r.held_out_target_improved
        out["held-out gain shown"] += r.held_out_gain_p is not None and r.held_out_gain_p < 0.05
    return {k: v / seeds for k, v in out.items()}


def test_convex_a_clear_winner_is_published_and_noise_elsewhere_rarely_stops_it():
    """+30 points on actions, nothing elsewhere, at the default cap. Measured (200): accepted and
    published without --force 0.095; a drop of 15 points not yet ruled out in some other category
    0.815 (the acceptance's margin, ``tuner.tuning.noninferior``: 7 categories at 10 samples per eval
    each show it about 70% of the time); stopped by noise in another category (the check 0.01, the
    drop family 0.015, the gate 0.00) 0.025; the target not confirmed 0.065. Before the margin was
    required: published 0.91. Reruns with a larger cap publish it 0.60 by 2x, 0.89 by 4x, 0.97 by 8x
    (``test_calibration_tune_noninferiority.py``). A gain on the 3 held-out actions evals alone
    (exact one-sided McNemar at 0.05) shows in 0.72: requiring it would withhold one clear winner in four."""
    r = rates(world("evals", "actions", 0.30), 200, **CONVEX)
    print("convex, clear winner:", r)
    assert r["published"] >= 0.04
    assert r["published"] + r.get("stopped by margin", 0) >= 0.85, r
    stopped_by_noise = r.get("stopped by drop", 0) + r.get("stopped by check", 0) + (r["accepted"] - r["published"])
    assert stopped_by_noise <= 0.05, r


@pytest.mark.parametrize("harm,most", [(0.15, 0.05), (0.25, 0.05)])
def test_convex_a_harm_in_one_other_category(harm, most):
    """+30 on actions, -15 or -25 on idioms. Measured (100): published 0.00 (15 points; stopped by
    the check 0.02, an established drop 0.45, the margin not ruled out 0.49), 0.00 (25 points; check
    0.11, drop 0.86, margin 0.03). Before the margin was required: 0.47 and 0.03."""
    r = rates(world("evals", "actions", 0.30, ("idioms", harm)), 100, **CONVEX)
    print(f"convex, harm {harm}:", r)
    assert r["published"] <= most


def test_convex_a_change_that_does_nothing_is_not_offered():
    """Nothing anywhere. Measured (100): accepted 0.00 (the target not confirmed 0.98, a drop flagged
    by noise 0.02)."""
    r = rates(world("evals", "actions", 0.0), 100, **CONVEX)
    print("convex, nothing:", r)
    assert r.get("accepted", 0) <= 0.05


def test_the_family_wise_bound_fails_on_the_drop_test_without_its_correction(monkeypatch):
    """The mutant: every cell of the drop family tested at alpha alone. The clear winner is then
    stopped by noise far more than 5% of the time (measured 0.24 over 60: check 0.08, acceptance 0.13,
    gate 0.03 of the few it accepts; 0.40 before the margin was required, when more reached the gate)."""
    import tuner.stats.gates as gates

    monkeypatch.setattr(gates, "bh_adjust", lambda ps: list(ps))
    r = rates(world("evals", "actions", 0.30), 60, **CONVEX)
    stopped_by_noise = r.get("stopped by drop", 0) + r.get("stopped by check", 0) + (r["accepted"] - r["published"])
    print("mutant:", r)
    assert stopped_by_noise > 0.05
