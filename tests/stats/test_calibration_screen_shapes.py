"""The engine's A/A at the shapes tune's screening ships (``tuner.tuning.screen``): the Convex pool's
94 questions (rules and their other phrasings) on the target's 9 tuning evals, with the screening's
share of the default cap (``screen_budget(2475)``: 4 looks), one model (a panel of two is checked at the
Python shape in ``test_calibration_engine.py``; here it would double the test's minute). Nothing
matters; the engine must flag no question in more than alpha of the designs, and look by look stay
within its planned spending (``test_calibration_engine._beyond_planned_spending``). The mutant, the
error spending switched off, must fail the check.
"""

import numpy as np
import pytest
from test_calibration_engine import _beyond_planned_spending

from tuner.engine import Plan, run_engine
from tuner.stats import ALPHA
from tuner.stats.zones import HELPS, HURTS, Zone
from tuner.tuning.screen import screen_budget

pytestmark = [pytest.mark.slow]

RULES = tuple(f"r{i:02d}" for i in range(80))
PHRASINGS = {r: ("alt",) for r in RULES[:14]}  # 80 rules + 14 phrasings = 94 questions
EVALS = {"actions": tuple(f"actions/{i}" for i in range(9))}
SEEDS = 40


def _first_flags(models: int, seeds: int = SEEDS):
    names = tuple(f"m{i}" for i in range(models))
    first, looks = [], []
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        base = {m: {e: rng.uniform(0.3, 0.8) for e in EVALS["actions"]} for m in names}

        def observe(points, rng=rng, base=base):
            return [{m: bool(rng.random() < base[m][pt.eval_id]) for m in names} for pt in points], len(points) * len(
                names
            )

        plan = Plan(
            rules=RULES,
            evals=EVALS,
            models=names,
            budget_calls=screen_budget(2475) * models,
            zone=Zone(),
            seed=seed,
            variants=PHRASINGS,
        )
        out = run_engine(plan, observe)
        looks = out.looks
        first.append(next((h["round"] for h in out.history if h.get(HELPS, 0) + h.get(HURTS, 0)), None))
    return first, looks


def test_tunes_screen_a_a():
    """Measured (40): any flag 0.025 (one design, at the last look)."""
    first, looks = _first_flags(1)
    rate = sum(f is not None for f in first) / SEEDS
    print(f"tune's screen, {len(looks)} looks: any flag {rate:.3f}; {_beyond_planned_spending(first, looks)}")
    assert len(looks) >= 2
    assert rate <= ALPHA and not _beyond_planned_spending(first, looks)


def test_tunes_screen_check_fails_without_error_spending(monkeypatch):
    """Measured (40): any flag 0.050 (not beyond alpha), 0.025 by the second look where 0.0004 was planned."""
    # The engine's spending (Zone.continued, a first invocation's included): the full alpha at every look.
    monkeypatch.setattr(
        Zone, "continued", lambda self, start, looks, spent, anchor: [(self.alpha, self.beta)] * len(looks)
    )
    first, looks = _first_flags(1)
    monkeypatch.undo()
    rate = sum(f is not None for f in first) / SEEDS
    beyond = _beyond_planned_spending(first, looks)
    print(f"tune's screen without spending: any flag {rate:.3f}; {beyond}")
    assert rate > ALPHA or beyond
