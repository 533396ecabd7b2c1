"""The MDE simulator (``tuner.planning.mde``) and the families it prices: deterministic, monotone,
and sized caps that hold what they promise (the calibration against the product's decision rules is
``tests/stats/test_calibration_mde.py``)."""

import math

import pytest

from tuner.engine import Plan
from tuner.errors import InputError
from tuner.planning import Design, decide_value, engine_family, mde, paired_family, power
from tuner.planning.commands import engine_calls_for
from tuner.planning.families import engine_designs
from tuner.stats.zones import Zone

CATEGORIES = {"a": ("a/0", "a/1", "a/2"), "b": ("b/0", "b/1", "b/2", "b/3")}
RULES = tuple(f"r{i}" for i in range(7))


def _plan(budget: int) -> Plan:
    return Plan(rules=RULES, evals=CATEGORIES, models=("m",), budget_calls=budget, zone=Zone())


def test_one_look_at_one_question_matches_the_closed_form():
    """A single normal test at alpha (two-sided) is the textbook z_{a/2} + z_{power}."""
    from scipy.stats import norm

    se = 0.05
    d = Design(se=(se,), df=(1e9,), alpha=(0.05,), beta=(0.0,), tested=(True,))
    assert mde(d) == pytest.approx((norm.isf(0.025) + norm.isf(0.2)) * se, abs=0.004)


def test_power_grows_with_the_effect_and_the_mde_is_deterministic():
    design = engine_designs(_plan(1200))["a"]["rules"]
    powers = [power(design, e) for e in (0.05, 0.15, 0.25, 0.4)]
    assert powers == sorted(powers) and powers[0] < 0.2 and powers[-1] > 0.95
    assert mde(design) == mde(design)


def test_more_calls_or_fewer_questions_decide_smaller_effects():
    small, large = engine_family(_plan(600), "x"), engine_family(_plan(4800), "x")
    assert large.mde < small.mde
    # The category with fewer evals is the headline (the largest); each category's is kept.
    assert small.mde == max(small.by.values()) and set(small.by) == {"a", "b"}
    design = engine_designs(_plan(1200))["a"]["rules"]
    from dataclasses import replace

    assert mde(replace(design, questions=1)) < mde(design)


def test_a_budget_too_small_to_test_anything_decides_nothing():
    assert engine_family(_plan(20), "x").mde is None
    assert "no effect, however large" in engine_family(_plan(20), "x").line()
    assert paired_family(3, 1, family="x").mde is None


def test_the_sized_cap_decides_the_effect_and_one_percent_less_does_not():
    calls = engine_calls_for(_plan(600), 0.12)
    assert engine_family(_plan(calls), "x").mde <= 0.12
    assert engine_family(_plan(int(calls * 0.97)), "x").mde > 0.12


@pytest.mark.parametrize("value", ["0", "-0.1", "1", "1.5", "abc", "nan", ""])
def test_decide_values_outside_0_1_are_refused(value):
    with pytest.raises(InputError, match="--decide"):
        decide_value(value)
    assert decide_value("0.08") == 0.08 and not math.isnan(decide_value("0.5"))
