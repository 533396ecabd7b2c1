"""The simulator's repair loop: a planted mistake is fixed at a later turn from the error alone or
only when a rule teaches the fix; the two shipped repair profiles (evals/sim/profiles/repair.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tuner.errors import InputError
from tuner.models import build_messages
from tuner.models.sim.profiles import load_sim_data
from tuner.models.sim.provider import answer_for

ROOT = Path(__file__).resolve().parents[3]
SUITE = ROOT / "evals"
RULE = (ROOT / "guidelines" / "rules" / "actions" / "use-node-directive.md").read_text()
TASK = (SUITE / "005-actions" / "001-hash-text" / "TASK.txt").read_text()
N = 120


def _wrong(profile: str, system: str, turn: int) -> int:
    """How many of N samples still hold the mistake after ``turn``."""
    exchange = [{"role": "assistant", "content": "an answer"}, {"role": "user", "content": "it failed"}] * (turn - 1)
    messages = build_messages(system, TASK) + exchange
    return sum(bool(answer_for(profile, messages, i, suite_root=str(SUITE))[0].planted) for i in range(N))


def test_the_rule_matters_at_turn_one_not_at_turn_three():
    without = [_wrong("repair-from-error", "", t) for t in (1, 2, 3)]
    with_rule = [_wrong("repair-from-error", RULE, t) for t in (1, 2, 3)]
    assert without[0] > 0.8 * N and with_rule[0] < 0.03 * N  # turn 1: the rule prevents it
    assert without[2] < 0.03 * N and with_rule[2] == 0  # turn 3: the error alone got it fixed
    assert without[0] > without[1] > without[2]


def test_the_rule_matters_at_turn_three_not_at_turn_one():
    without = [_wrong("repair-taught", "", t) for t in (1, 3)]
    with_rule = [_wrong("repair-taught", RULE, t) for t in (1, 3)]
    assert abs(without[0] - with_rule[0]) < 0.1 * N and without[0] > 0.8 * N  # the rule does not prevent it
    assert without[1] == without[0]  # the error alone never fixes it
    assert with_rule[1] < 0.03 * N  # the taught fix does


def test_a_later_turn_only_removes_mistakes_and_turn_one_is_unchanged():
    messages = build_messages("", TASK)
    for i in range(30):
        first, _ = answer_for("repair-from-error", messages, i, suite_root=str(SUITE))
        later, _ = answer_for(
            "repair-from-error",
            messages + [{"role": "assistant", "content": first.text}, {"role": "user", "content": "failed"}],
            i,
            suite_root=str(SUITE),
        )
        assert set(later.planted) <= set(first.planted)
        if not later.planted:
            assert "use node" in later.text


def test_default_repair_settings_leave_the_planted_truth_hash_alone(tmp_path):
    from tuner.models.sim.profiles import Repair

    data = load_sim_data(SUITE)
    careful = data.profiles["careful"]
    assert careful.repair == Repair() and careful.repairs == {}
    assert careful.fix_probability("actions.missing-use-node", [], RULE) == 0.0  # no repair unless planted


def test_repairs_of_unknown_ids_are_refused(tmp_path):
    user = tmp_path / "bad.yaml"
    user.write_text(
        "profiles:\n  p:\n    cure_strength: 0.5\n    attention_tokens: 100\n    repairs:\n"
        "      nope.gap: {from_error: 0.5}\n"
    )
    with pytest.raises(InputError, match="repairs of unknown gap or side-effect ids"):
        load_sim_data(SUITE, user)
