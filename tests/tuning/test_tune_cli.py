"""`tuner tune` end to end on the simulator, graded by the suite's real grader (the Python suite's pytest)."""

import json

import optuna
import pytest

pytestmark = [pytest.mark.slow]


@pytest.mark.timeout(1800)
def test_tune_runs_reruns_and_reports(cli, py_suite):
    args = ["tune", "--category", "data", "--samples", "2", "--json"]
    first = cli(*args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["category"] == "data" and data["trials"] == data["screening"]["checked"] >= 1
    # The screening's verdicts are the rule evidence: every pool rule and phrasing, on the target.
    assert (
        data["evidence"]["design"] == "screening"
        and data["evidence"]["rounds"] == data["screening"]["engine"]["rounds"]
    )
    assert {e["category"] for e in data["rule_effects"]} == {"data"}
    assert all(e["verdict"] in ("helps", "hurts", "no meaningful effect", "undecided") for e in data["rule_effects"])
    from tuner.evals import load_suite
    from tuner.paths import find_project

    suite = load_suite(find_project())
    n_tuning, n_held = len(suite.select(held_out=False)), len(suite.select(held_out=True))
    # Confirmation is sequential, within what the cap left and at most twice the fixed design (2 prompts x
    # every tuning and held-out eval x 12 samples), and says what it saved; every row carries its verdict.
    conf = data["confirmation"]
    if data["best_selection"] != data["baseline_selection"]:
        assert conf["design"] == "sequential" and conf["fixed_calls"] == 2 * (n_tuning + n_held) * 12
        assert 0 < conf["calls"] <= conf["budget_calls"] <= 2 * conf["fixed_calls"]
        assert conf["saved_calls"] == max(0, conf["fixed_calls"] - conf["calls"])
        assert conf["stopped"] in ("decided", "budget") and conf["looks"] == len(conf["samples_per_round"])
        assert {r["category"] for r in data["fresh"]} == {e.category for e in suite.select(held_out=False)}
    else:
        assert conf["design"] == "none" and not data["fresh"]
    verdicts = {r["paired"]["verdict"] for r in data["fresh"] + data["held_out"]}
    assert verdicts <= {"improved", "regressed", "no meaningful change", "undecided"}
    assert (py_suite.parents[1] / "reports" / "tune" / f"{data['study']}.md").is_file()
    # The check's first trial is the baseline; the winner is the trial publish will read.
    study = optuna.load_study(
        study_name=data["study"], storage=f"sqlite:///{py_suite.parents[1] / 'experiments' / 'tuner.db'}"
    )
    assert study.trials[0].user_attrs.get("baseline") is True
    assert json.loads(study.trials[data["best_trial"]].user_attrs["selection"]) == data["best_selection"]
    # The same command again is the same study, replayed from the caches: no call paid twice.
    again_run = cli(*args)
    assert again_run.exit_code == 0, again_run.output
    again = json.loads(again_run.stdout)
    assert again["study"] == data["study"] and again["best_selection"] == data["best_selection"]
    assert again["calls"] == 0 and again["decision"] == data["decision"]
    # The table output says the decision; only an accepted winner comes with the command that publishes it.
    shown = cli(*[a for a in args if a != "--json"])
    assert shown.exit_code == 0, shown.output
    assert f"decision: {again['decision']}" in shown.stdout
    if again["accepted"]:
        assert f"publish the winner with: tuner publish --from {data['study']}" in shown.stdout
    else:
        assert "publish the winner" not in shown.stdout and again["publish_command"] is None


def test_unknown_category_is_one_line_exit_2(cli, py_suite):
    r = cli("tune", "--category", "dta")
    assert r.exit_code == 2
    assert "unknown category 'dta'" in r.stderr and r.stderr.count("\n") == 1


@pytest.mark.parametrize("option", [["--search", "tpe"], ["--trials", "4"], ["--evidence-budget", "600"]])
def test_the_removed_tpe_search_is_refused_in_one_line(cli, py_suite, option):
    r = cli("tune", "--category", "data", *option)
    assert r.exit_code == 2 and "No such option" in r.output
