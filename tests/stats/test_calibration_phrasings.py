"""The engine on a rule with several phrasings (issue 28.7), at the Python suite's shape and floor budget.

A user's suite may give a rule 4 other phrasings; with a quarter of the rules dropped per prompt, the
former sampling showed a kept rule in one of its other phrasings every time (4 x 1/4 = 1), so its
default was never seen: the phrasings' columns added up to the rule's, no cell was identified, and the
fit still decided (in a world with no effect at all, 11 of 24 phrasing cells were flagged). Now the
phrasings together replace the default in at most half of the prompts that keep the rule
(``tuner.engine.design._swap_p``), and a cell whose column is a combination of the others is never decided
(``tuner.engine.fit._identified``). Checked over 100 A/A designs (nothing matters, 7 rules, r0 with 4 other
phrasings, 2 categories x 3 evals, 600 calls):

- any flag, rules and phrasings, in at most alpha of the designs;
- every phrasing cell identified and tested (it has an interval) in at least 90% of them.

Mutant: the former sampling (the tested check fails: no phrasing cell is identified).
"""

import numpy as np
import pytest

from tuner.ablation import MIN_BUDGET
from tuner.engine import Plan, run_engine
from tuner.engine import design as _design
from tuner.stats import ALPHA
from tuner.stats.simulate import task_rates
from tuner.stats.zones import HELPS, HURTS, Zone

pytestmark = [pytest.mark.slow]

CATEGORIES = {"a": ("a/0", "a/1", "a/2"), "b": ("b/0", "b/1", "b/2")}
RULES = tuple(f"r{i}" for i in range(7))
PHRASINGS = {"r0": ("v1", "v2", "v3", "v4")}
SEEDS = 100


def _a_a(seeds: int = SEEDS) -> tuple[float, float]:
    """(designs flagging anything, designs where every phrasing cell was tested)."""
    flagged = tested = 0
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        base = {e: 0.25 + 0.5 * r for evals in CATEGORIES.values() for e, r in zip(evals, task_rates(rng, 0.5, 0.3, 3))}

        def observe(points, rng=rng, base=base):
            return [{"m": bool(rng.random() < base[pt.eval_id])} for pt in points], len(points)

        plan = Plan(
            rules=RULES,
            evals=CATEGORIES,
            models=("m",),
            budget_calls=MIN_BUDGET,
            zone=Zone(),
            seed=seed,
            variants=PHRASINGS,
        )
        cells = run_engine(plan, observe).cells
        flagged += any(c.verdict in (HELPS, HURTS) for c in cells)
        tested += all(c.lo is not None for c in cells if "@" in c.rule)
    return flagged / seeds, tested / seeds


def test_a_rule_with_four_phrasings_in_an_a_a_world():
    """Measured (100): any flag 0.03, every phrasing cell tested in 1.00."""
    flagged, tested = _a_a()
    print(f"phrasings A/A: any flag {flagged:.3f}, phrasing cells tested {tested:.3f}")
    assert flagged <= ALPHA
    assert tested >= 0.90


def test_the_checks_fail_on_the_former_sampling(monkeypatch):
    """Mutant: the former sampling (each phrasing at p_drop, uncapped). Measured: no phrasing cell is
    ever identified, so none is tested (0.00) and, with the identification check, none decided (any
    flag 0.00). Without the identification check the former sampling flagged 0.02 at this budget (the
    issue's 11 of 24 cells were at larger ones), so the identification is checked by the first test's
    "tested" figure rather than by a false-alarm rate."""
    monkeypatch.setattr(_design, "_swap_p", lambda p_drop, n: p_drop)
    flagged, tested = _a_a()
    print(f"mutant, former sampling: any flag {flagged:.3f}, phrasing cells tested {tested:.3f}")
    assert tested < 0.90
