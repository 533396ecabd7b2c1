"""The repair loop (``--turns N``): feedback, reading results at a turn, run identity, and
`tuner run --turns` end to end on the Python suite's simulator."""

from __future__ import annotations

import json

import pytest

from tuner.runs.repair import FEEDBACK_LIMIT, at_turn, feedback_message, outcome_at, repair_identity
from tuner.store import ResultRecord, StepRecord


def _failed(detail: str, step: str = "tests") -> ResultRecord:
    return ResultRecord(
        eval_id="e",
        category="c",
        sample_index=0,
        outcome="fail",
        failed_step=step,
        steps=[StepRecord(name="parse", status="pass"), StepRecord(name=step, status="fail", detail=detail)],
    )


def test_feedback_names_the_failed_step_and_hides_secrets_and_host_paths(monkeypatch, tmp_path):
    secret = "sk-live-0123456789abcdefghij"
    monkeypatch.setenv("MY_PROVIDER_API_KEY", "plainvalue-9876543210")
    detail = (
        f"AssertionError at {tmp_path}/proj/app/wrap.py:3 (key {secret}, token plainvalue-9876543210)\n"
        "  File \"/home/alice/checkout/app/wrap.py\", line 3\nexpected 'a b' got 'a'"
    )
    text = feedback_message(_failed(detail), roots=[tmp_path / "proj"])
    assert "`tests` step" in text and "expected 'a b' got 'a'" in text and "app/wrap.py" in text
    for leaked in (secret, "plainvalue-9876543210", str(tmp_path), "/home/alice"):
        assert leaked not in text


def test_feedback_is_bounded_and_falls_back_to_the_error():
    text = feedback_message(_failed("z" * 50_000))
    assert len(text) < FEEDBACK_LIMIT + 400 and text.count("z") == FEEDBACK_LIMIT and "[... cut]" in text
    bare = ResultRecord(
        eval_id="e", category="c", sample_index=0, outcome="fail", failed_step="parse", error="no files in the answer"
    )
    assert "`parse` step" in feedback_message(bare) and "no files in the answer" in feedback_message(bare)


def test_outcome_at_a_turn():
    repaired = ResultRecord(
        eval_id="e",
        category="c",
        sample_index=0,
        outcome="pass",
        pass_turn=2,
        turns=[{"turn": 1, "outcome": "fail"}, {"turn": 2, "outcome": "pass"}],
    )
    lost = ResultRecord(
        eval_id="e",
        category="c",
        sample_index=1,
        outcome="infra",
        turns=[{"turn": 1, "outcome": "fail"}, {"turn": 2, "outcome": "infra"}],
    )
    one_shot = ResultRecord(eval_id="e", category="c", sample_index=2, outcome="pass")
    assert [outcome_at(repaired, k) for k in (1, 2, 3)] == ["fail", "pass", "pass"]
    # A turn lost to the provider is not measured from then on, never a failed repair.
    assert [outcome_at(lost, k) for k in (1, 2, 3)] == ["fail", "infra", "infra"]
    assert [outcome_at(one_shot, k) for k in (1, 3)] == ["pass", "pass"]
    assert [r.outcome for r in at_turn([repaired, lost, one_shot], 1)] == ["fail", "fail", "pass"]
    # Read at an earlier turn, a result is that turn's answer: its step, and its grade's key (pairing
    # folds samples by it), not the last answer's.
    graded = repaired.model_copy(
        update={
            "grade_key": "g2",
            "turns": [
                {"turn": 1, "outcome": "fail", "failed_step": "tests", "grade_key": "g1"},
                {"turn": 2, "outcome": "pass"},
            ],
        }
    )
    early = at_turn([graded], 1)[0]
    assert (early.outcome, early.failed_step, early.grade_key) == ("fail", "tests", "g1")
    assert at_turn([graded], 2)[0] is graded
    assert at_turn([repaired], None)[0] is repaired


def test_one_turn_keeps_the_run_ids_it_had(py_suite):
    from tuner.hashing import sha256_json
    from tuner.models import ModelSpec
    from tuner.models.sim.world import fingerprint
    from tuner.runs import Harness
    from tuner.runs.runner import inputs_hash

    spec = ModelSpec(model="sim/careful")
    assert repair_identity(1) is None
    with Harness(turns=1) as one, Harness(turns=2) as two, Harness(turns=3) as three:
        before = sha256_json(
            {"answer_format": one.suite.answer_instructions(), "sim": fingerprint(None, one.suite.root)}
        )
        assert inputs_hash(one, spec) == before  # what every one-shot run was addressed by
        assert len({inputs_hash(h, spec) for h in (one, two, three)}) == 3
    with pytest.raises(Exception, match="--turns 0"):
        Harness(turns=0)


FIXER = """
profiles:
  fixer:
    description: Always casefolds wrong at first; fixes it from the test failure.
    cure_strength: 0.99
    attention_tokens: 20000
    gaps: {text.lower-not-casefold: 1.0}
    repairs:
      text.lower-not-casefold: {from_error: 1.0}
"""


@pytest.mark.slow
def test_run_turns_repairs_on_the_second_turn(cli, py_suite, tmp_path, monkeypatch):
    sim = tmp_path / "fixer.yaml"
    sim.write_text(FIXER)
    monkeypatch.setenv("TUNER_SIM_FILE", str(sim))
    plan = cli("run", "-g", "none", "-m", "sim/fixer", "-c", "text", "--turns", "2", "--plan", "--json")
    assert plan.exit_code == 0, plan.output
    one = cli("run", "-g", "none", "-m", "sim/fixer", "-c", "text", "--plan", "--json")
    assert json.loads(plan.stdout)["calls_at_most"] == 2 * json.loads(one.stdout)["calls_at_most"] == 8

    r = cli("run", "-g", "none", "-m", "sim/fixer", "-c", "text", "--turns", "2", "--json")
    assert r.exit_code == 0, r.output
    [out] = json.loads(r.stdout)
    by_turn = out["repair"]["by_turn"]
    assert by_turn["1"]["overall"]["pass_rate"] < by_turn["2"]["overall"]["pass_rate"] == 1.0
    failing = by_turn["1"]["overall"]["fail"]
    assert failing >= 1 and by_turn["2"]["answers"] == failing and by_turn["1"]["answers"] == 4
    assert out["calls"]["provider_calls"] == 4 + failing

    from tuner.runs import Harness

    with Harness() as h:
        results = h.store.results(out["run"])
        repaired = [x for x in results if x.pass_turn == 2]
        assert len(repaired) == failing
        x = repaired[0]
        assert [t["outcome"] for t in x.turns] == ["fail", "pass"] and x.turns[0]["failed_step"]
        roles = [m["role"] for m in x.messages]
        assert roles == ["system", "user", "assistant", "user"] or roles == ["user", "assistant", "user"]
        assert x.messages[-1]["content"] == x.turns[0]["feedback"]
        assert str(py_suite) not in x.messages[-1]["content"] and str(tmp_path) not in json.dumps(x.turns)

    again = json.loads(cli("run", "-g", "none", "-m", "sim/fixer", "-c", "text", "--turns", "2", "--json").stdout)[0]
    assert again["run"] == out["run"] and again["calls"]["provider_calls"] == 0
    single = json.loads(cli("run", "-g", "none", "-m", "sim/fixer", "-c", "text", "--json").stdout)[0]
    assert single["run"] != out["run"] and "repair" not in single
    assert single["overall"]["pass_rate"] == by_turn["1"]["overall"]["pass_rate"]
    assert cli("run", "-m", "sim/fixer", "--turns", "0").exit_code == 2
