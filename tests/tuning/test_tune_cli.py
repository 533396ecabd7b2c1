"""`tuner tune` end to end on the simulator (grades with the real toolchain)."""

import json

import optuna
import pytest

pytestmark = [pytest.mark.node, pytest.mark.slow]


def test_tune_runs_resumes_and_reports(cli, live_project):
    args = ["tune", "--category", "actions", "--trials", "4", "--samples", "1", "--batch", "4", "--json"]
    first = cli(*args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["trials"] == 4 and data["category"] == "actions"
    assert {r["category"] for r in data["fresh"]} == {"fundamentals", "data_modeling", "queries", "mutations", "actions", "idioms", "clients"}
    assert data["held_out"] and all(r["model"] == "sim/careful" for r in data["held_out"])
    assert (live_project / "reports" / "tune" / f"{data['study']}.md").is_file()
    # The baseline (all-active: no candidates) was trial 0.
    study = optuna.load_study(study_name=data["study"], storage=f"sqlite:///{live_project / 'experiments' / 'tuner.db'}")
    trial0 = study.trials[0]
    assert trial0.user_attrs.get("baseline") is True
    assert trial0.params["actions.storage-blobs"] == "off" and trial0.params["actions.use-node-directive"] == "default"
    # Resuming the same command with a higher target continues the same study.
    second = cli(*[a if a != "4" else "6" for a in args])
    assert second.exit_code == 0, second.output
    again = json.loads(second.stdout)
    assert again["study"] == data["study"] and again["trials"] == 6
    assert [t.params for t in study.trials[:4]] == [t.params for t in optuna.load_study(
        study_name=data["study"], storage=f"sqlite:///{live_project / 'experiments' / 'tuner.db'}").trials[:4]]


def test_unknown_category_is_one_line_exit_2(cli, live_project):
    r = cli("tune", "--category", "action")
    assert r.exit_code == 2
    assert "unknown category 'action'" in r.stderr and r.stderr.count("\n") == 1
