"""`tuner ablate` end to end on the simulator."""

import json

import pytest

pytestmark = [pytest.mark.node, pytest.mark.slow]


def test_loo_on_a_small_set_writes_matrix_and_files(cli, live_project):
    rules = ["actions.use-node-directive", "functions.import-from-generated", "functions.internal-for-private",
             "database.table-name-first", "functions.args-validators", "queries.with-index", "style.explain-code"]
    (live_project / "guidelines" / "sets" / "small.yaml").write_text(f"description: a few rules\ninclude: [{', '.join(rules)}]\n")
    r = cli("ablate", "--set", "small", "--design", "loo", "--category", "actions", "--samples", "3", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert {e["rule"] for e in data["effects"]} == set(rules)
    assert all(e["category"] == "actions" and e["tokens"] > 0 for e in data["effects"])
    assert all(e["verdict"] in ("helps", "hurts", "no detectable effect") for e in data["effects"])
    md = live_project / data["report"] if not data["report"].startswith("/") else __import__("pathlib").Path(data["report"])
    assert md.is_file() and md.with_suffix(".png").stat().st_size > 1000 and md.with_suffix(".json").is_file()
    # The use-node rule removes a planted mistake (base rate 0.8) that fails two actions evals.
    node = next(e for e in data["effects"] if e["rule"] == "actions.use-node-directive")
    assert node["delta"] > 0


def test_screening_runs_and_bad_design(cli, live_project):
    r = cli("ablate", "--design", "screening", "--runs", "3", "--category", "queries", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["design"] == "screening" and data["runs"] == 3
    assert len({e["rule"] for e in data["effects"]}) >= 12
    bad = cli("ablate", "--design", "everything")
    assert bad.exit_code == 2 and "--design" in bad.stderr


def test_adaptive_spends_its_budget_and_a_larger_one_continues(cli, live_project):
    rules = ["actions.use-node-directive", "functions.import-from-generated", "database.table-name-first",
             "queries.with-index", "style.explain-code", "actions.storage-blobs"]
    (live_project / "guidelines" / "sets" / "six.yaml").write_text(f"description: six rules\ninclude: [{', '.join(rules)}]\n")
    first = cli("ablate", "--set", "six", "--category", "actions", "--budget-calls", "180", "--json")
    assert first.exit_code == 0, first.output
    a = json.loads(first.stdout)
    assert a["design"] == "adaptive" and a["adaptive"]["calls"] <= 180
    assert a["adaptive"]["new_calls"] == a["adaptive"]["calls"]  # a fresh store and cache: every call is paid
    assert {e["rule"] for e in a["effects"]} == set(rules)
    assert all(e["verdict"] in ("helps", "hurts", "no meaningful effect", "undecided") for e in a["effects"])
    assert sum(h["calls"] for h in a["adaptive"]["history"][-1:]) == a["adaptive"]["calls"]

    more = cli("ablate", "--set", "six", "--category", "actions", "--budget-calls", "360", "--json")
    assert more.exit_code == 0, more.output
    b = json.loads(more.stdout)
    assert b["id"] == a["id"]  # the budget is not part of the ablation's identity
    # The rounds the first invocation ran are retraced from the caches: only the new ones are paid.
    assert b["adaptive"]["calls"] <= 360
    assert b["adaptive"]["new_calls"] == b["adaptive"]["calls"] - a["adaptive"]["calls"]
    # Whole rounds are retraced exactly (the last one of the first call may have been cut short).
    whole = a["adaptive"]["history"][:-1]
    assert b["adaptive"]["history"][: len(whole)] == [{**h, "new_calls": 0} for h in whole]
    assert len(b["adaptive"]["history"]) >= len(a["adaptive"]["history"])


def test_adaptive_refuses_samples_and_an_inverted_zone(cli, live_project):
    r = cli("ablate", "--samples", "3")
    assert r.exit_code == 2 and "--budget-calls" in r.stderr
    r = cli("ablate", "--delta0", "0.1", "--delta", "0.05")
    assert r.exit_code == 2 and "--delta0" in r.stderr
    assert not (live_project / "experiments" / "tuner.db").exists()
