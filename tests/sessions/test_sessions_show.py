"""`tuner sessions show`: what a reviewer needs to judge one generation (issue 21): the system
prompt the model read, the step where grading failed and that step's error."""

from __future__ import annotations

import json

from sessionkit import invoke


def _failing(store):
    for run in store.runs():
        for r in store.results(run.id):
            failed = next((s for s in r.steps if s.status == "fail" and s.detail), None)
            if r.outcome == "fail" and failed is not None and r.response_key:
                return r, failed
    raise AssertionError("the recorded store has no failed step with a detail")


def test_show_has_the_system_prompt_failed_step_and_error(env, store):
    result, step = _failing(store)
    prompt = store.chat_messages(result)[0]["content"]
    r = invoke("sessions", "show", result.response_key[7:19])
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "**System:**" in out and prompt.strip().splitlines()[0] in out and prompt.strip().splitlines()[-1] in out
    assert f"Failed step: {step.name}" in out and "Outcome: fail" in out
    assert step.detail.strip().splitlines()[0] in out
    assert out.index("**System:**") < out.index("**User:**") < out.index("**Assistant:**")
    data = json.loads(invoke("sessions", "show", result.response_key, "--json").stdout)
    assert data["failed_step"] == step.name and data["error"].startswith(step.detail.strip().splitlines()[0])
    assert data["system_prompt"] == prompt and data["messages"][0]["role"] == "system"


def test_show_of_a_passing_session_says_no_failed_step(env, store):
    run = env.runs[0]
    ok = next(r for r in store.results(run.id) if r.outcome == "pass" and r.response_key)
    out = invoke("sessions", "show", ok.response_key).stdout
    assert "Outcome: pass | Failed step: none" in out and "Error:" not in out and "**System:**" in out
