"""One model at two parameter sets is two models everywhere: compare, leaderboard, ablation."""

from __future__ import annotations

import json

import pytest

pytestmark = [pytest.mark.node, pytest.mark.slow]

PANEL = """[[models]]
model = "sim/careful"
params = { temperature = 0.2 }

[[models]]
model = "sim/careful"
params = { temperature = 0.7 }
"""


def test_two_temperatures_stay_two_rows(cli, live_project):
    (live_project / "experiments" / "two.toml").write_text(PANEL)
    r = cli(
        "compare",
        "--before",
        "none",
        "--after",
        "all-active",
        "--panel",
        "two",
        "--category",
        "clients",
        "--samples",
        "1",
        "--json",
    )
    data = json.loads(r.stdout)
    # Every cell measured; the exit code is the table's: 1 exactly when a cell regressed.
    assert data["not_measured"] == [] and r.exit_code == (1 if data["regressions"] else 0), r.output
    cells = data["cells"]
    assert all(c["pairs"] == c["expected"] for c in cells)
    keys = {c["model_key"] for c in cells}
    labels = {c["model_label"] for c in cells}
    assert len(keys) == 2 and len(labels) == 2
    assert {"sim/careful [temperature=0.2] (simulator)", "sim/careful [temperature=0.7] (simulator)"} == labels

    r = cli("leaderboard", "--json", "--include-partial")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["rows"]
    careful = [row for row in rows if row["model"] == "sim/careful"]
    assert len({row["model_label"] for row in careful}) == 2


def test_ablation_effects_are_per_model_key():
    from tuner.compare.rates import model_label

    assert model_label("sim/careful", {"temperature": 0.2}) != model_label("sim/careful", {"temperature": 0.7})
    assert model_label("openai/x", {}) == "openai/x"
    assert model_label("sim/careful", {"sim_file": "/a.yaml"}) == "sim/careful (simulator)"
