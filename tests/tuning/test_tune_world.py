"""`tuner tune` then `tuner publish`, the whole product path on the Python suite, with answers from a
planted world (tests/tuning/tune_world.py): what tune decides and what publish then does, for a clear
winner, a harm elsewhere, a lost answer, a study changed after tune accepted it, and a rerun.

Issue 28 items: 2 (every category re-measured), 3 (a lost answer in the check is "not measured"),
4 (publish ships only what tune accepted), 5 (claims say where they were measured), 6 (a rerun
judges its own candidate), 11 (a clear winner is published without --force).
"""

from __future__ import annotations

import json

import pytest
from tune_world import suite_world, use_world

from tuner.tuning.simulate import Term

COPY, LOWER = "py.copy-inputs", "py.lower-is-enough"


@pytest.fixture
def suite(py_suite):
    return str(py_suite)


def _tune(cli, suite, *args):
    r = cli("tune", "--suite", suite, "--category", "data", "--json", *args)
    return r, (json.loads(r.stdout) if r.stdout.strip().startswith("{") else None)


def test_a_clear_winner_is_accepted_then_published_without_force(cli, suite, monkeypatch, py_suite):
    log = use_world(monkeypatch, suite_world((Term((COPY,), {"data": 0.4}),)))
    r, data = _tune(cli, suite)
    assert r.exit_code == 0, r.output
    assert data["decision"] == "accepted" and COPY in data["best_selection"]
    # Item 2: the confirmation re-measured every tuning eval of every category, on fresh samples.
    from tuner.evals import load_suite
    from tuner.paths import find_project

    evals = load_suite(find_project()).evals
    fresh = [entry for entry in log if entry[0] == "measure" and entry[4] >= 1_000_000]
    asked = {e for entry in fresh for e in entry[2]}
    assert asked == {e.id for e in evals}, "the confirmation must measure every tuning and held-out eval"
    # ... and the decision read them: one drop test per other category, tuning and held-out together.
    drops = data["acceptance"]["drops"]
    assert {(d["category"], d["evals"]) for d in drops} == {("text", "tuning + held-out"), ("data", "held-out")}
    # Item 5: the claim says where it was measured, with the held-out target beside it.
    [claim] = data["acceptance"]["claim"]
    assert claim["tuning_evals"]["verdict"] == "improved" and claim["held_out_evals"]["evals"] == 1
    report = open(data["report"]).read()
    assert "on its 3 tuning evals (fresh samples; the change was chosen on these evals)" in report
    # Item 11: published without --force, as tune accepted it.
    r = cli("publish", "--suite", suite, "--json")
    assert r.exit_code == 0, r.output
    manifest = json.loads(r.stdout)["manifest"]
    assert manifest["gate"]["accepted_by_tune"] is True and manifest["gate"]["status"] != "regressed"
    assert manifest["source"]["tune_claim"]["selection_hash"] == data["acceptance"]["selection_hash"]
    assert "tuning evals" in manifest["source"]["tune_claim"]["measured"]
    gate_offsets = {entry[4] for entry in log if entry[0] == "runs"}
    assert len(gate_offsets) == 1 and gate_offsets.pop() >= 1_100_000_000  # its own fresh window


def test_a_harm_elsewhere_is_not_offered_and_publish_refuses(cli, suite, monkeypatch):
    use_world(monkeypatch, suite_world((Term((COPY,), {"data": 0.4, "text": -0.5}),)))
    r, data = _tune(cli, suite)
    assert r.exit_code == 0, r.output
    assert data["decision"] in ("withheld", "no change") and not data["accepted"]
    assert any("text" in reason for reason in data["acceptance"]["reasons"]), data["acceptance"]["reasons"]
    r = cli("publish", "--suite", suite)
    assert r.exit_code == 1 and "did not accept" in r.output


def test_an_answer_lost_in_the_regression_check_is_not_measured(cli, suite, monkeypatch):
    """Item 3: before, the trial was merely infeasible, the baseline won, and tune said "no change"."""

    def lose_one(selections, eval_ids, samples, offset, groups):
        if offset == 0 and len(selections) == 1 and COPY in selections[0][1] and len(eval_ids) > 3:  # the check
            for outcome in groups[0].values():
                outcome.results[-1].outcome = "infra"

    use_world(monkeypatch, suite_world((Term((COPY,), {"data": 0.4}),)), tamper=lose_one)
    r, data = _tune(cli, suite)
    assert r.exit_code == 4, r.output
    assert (
        data["decision"] == "not measured" and "regression check was not measured" in data["acceptance"]["reasons"][0]
    )


def test_publish_refuses_a_selection_tune_did_not_accept(cli, suite, monkeypatch, py_suite):
    """Item 4: a study whose best trial changed after tune accepted (a worker's trial), or a study
    name sharing its configuration with another, is refused; --force publishes it, recorded."""
    use_world(monkeypatch, suite_world((Term((COPY,), {"data": 0.4}),)))
    r, data = _tune(cli, suite)
    assert data["decision"] == "accepted"
    study = data["study"]
    # Another study name, same configuration: the experiment record now speaks for it.
    r, other = _tune(cli, suite, "--study", "twin")
    assert other["decision"] == "accepted"
    r = cli("publish", "--suite", suite, "--from", study)
    assert r.exit_code == 1 and "not the selection tune accepted" in r.output and r.output.count("\n") == 1, r.output
    # The twin was accepted as it stands; then its best trial changes behind tune's back.
    import optuna

    from tuner.tuning.study import WINNER_ATTR

    storage = f"sqlite:///{py_suite.parents[1] / 'experiments' / 'tuner.db'}"
    twin = optuna.load_study(study_name="twin", storage=storage)
    moved = {k: v for k, v in data["best_selection"].items() if k != "py.casefold"}
    trial = next(
        t for t in twin.trials if t.user_attrs.get("selection") == json.dumps(data["best_selection"], sort_keys=True)
    )
    added = optuna.trial.create_trial(
        params={**trial.params, "py.casefold": "off"},
        distributions=trial.distributions,
        value=trial.value,
        user_attrs={**trial.user_attrs, "selection": json.dumps(moved, sort_keys=True)},
    )
    added.set_constraint("no_regression", -1.0)
    twin.add_trial(added)
    twin.set_user_attr(WINNER_ATTR, json.dumps(moved, sort_keys=True))
    r = cli("publish", "--suite", suite, "--from", "twin")
    assert r.exit_code == 1 and "not the selection tune accepted" in r.output, r.output
    r = cli("publish", "--suite", suite, "--from", "twin", "--force", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["manifest"]["gate"]["accepted_by_tune"] is False


def test_a_rerun_with_a_larger_cap_judges_its_own_candidate(cli, suite, monkeypatch, py_suite):
    """Item 6: the second invocation's screening finds another change; the decision is about it, not
    about the first invocation's (before: the lowest-numbered feasible trial of the study won)."""
    use_world(monkeypatch, suite_world((Term((COPY,), {"data": 0.4}),)))
    r, first = _tune(cli, suite, "--budget-calls", "600")
    assert first["decision"] == "accepted" and COPY in first["best_selection"]
    use_world(monkeypatch, suite_world((Term((LOWER,), {"data": 0.45}),)))
    r, second = _tune(cli, suite, "--budget-calls", "900")
    assert second["study"] == first["study"], "a larger cap continues the same study"
    assert "add " + LOWER in second["screening"]["changes"], second["screening"]
    assert LOWER in second["best_selection"] and second["acceptance"]["selection"] == second["best_selection"]
    import optuna

    from tuner.tuning import best_trial

    storage = f"sqlite:///{py_suite.parents[1] / 'experiments' / 'tuner.db'}"
    best = best_trial(optuna.load_study(study_name=second["study"], storage=storage))
    assert json.loads(best.user_attrs["selection"]) == second["best_selection"]
