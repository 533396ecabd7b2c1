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
