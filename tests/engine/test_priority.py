"""Questions asked first (``Plan.priority``): the weighted BH step's weights and the plan's figures."""

from __future__ import annotations

import pytest

from tuner.engine import PRIORITY_WEIGHT, Plan, look_weights, targeted
from tuner.planning import engine_family
from tuner.planning.families import engine_designs, priority_weights
from tuner.planning.mde import mde

CATEGORIES = {"a": ("a/0", "a/1", "a/2"), "b": ("b/0", "b/1", "b/2")}
RULES = tuple(f"r{i}" for i in range(7))


def _plan(weight: float = PRIORITY_WEIGHT, **kw) -> Plan:
    return Plan(
        rules=RULES,
        evals=CATEGORIES,
        models=("m",),
        budget_calls=600,
        priority={"a": ("r0", "r1"), "b": ("r2",)},
        priority_weight=weight,
        **kw,
    )


def test_weights_average_one_over_the_cells_tested_and_favour_the_prioritized():
    keys = [("r0", "a"), ("r1", "a"), ("r2", "a"), ("r0", "b"), ("r2", "b"), ("r2@x", "b")]
    w = look_weights(_plan(4.0), keys)
    assert sum(w) / len(w) == pytest.approx(1.0)
    # r0, r1 on a and r2 on b (its phrasing too) are asked first; r2 on a and r0 on b are not.
    assert w[0] == w[1] == w[4] == w[5] == pytest.approx(4 * w[2]) and w[2] == w[3]


def test_no_priority_is_plain_bh():
    assert look_weights(_plan(1.0), [("r0", "a")]) is None
    assert look_weights(Plan(rules=RULES, evals=CATEGORIES, models=("m",), budget_calls=600), [("r0", "a")]) is None


def test_targeted_takes_the_rules_whose_targets_include_the_category():
    fields = targeted(RULES, CATEGORIES, lambda r: ("a",) if r in ("r0", "r1") else ("c",))
    assert fields == {"priority": {"a": ("r0", "r1")}, "priority_weight": PRIORITY_WEIGHT}


def test_the_plan_prints_the_prioritized_questions_figure_and_the_others():
    plan = _plan()
    first, rest = priority_weights(plan)["a"]
    assert first == pytest.approx(PRIORITY_WEIGHT * rest)
    # The mean weight is 1 over the 14 cells: 3 at the high weight, 11 at the low.
    assert (3 * first + 11 * rest) / 14 == pytest.approx(1.0)
    designs = engine_designs(plan)["a"]
    assert mde(designs["priority rules"]) < mde(engine_designs(_plan(1.0))["a"]["rules"]) < mde(designs["rules"])
    line = engine_family(plan, "ablate").line()
    assert "questions asked first:" in line
    assert "questions asked first" not in engine_family(_plan(1.0), "ablate").line()
