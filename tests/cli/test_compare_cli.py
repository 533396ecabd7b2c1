"""`tuner compare` and `tuner power` end to end (the compare runs grade on the simulator)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sessionkit import invoke

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def regression(env):
    """A planted regression: with-index swapped for the harmful candidate style.prefer-filter, which
    talks sim/careful into table scans (gap queries.filter-instead-of-index, induced_by)."""
    harmful = env / "prefer-filter.yaml"
    harmful.write_text(
        "description: filter instead of indexes\nstatuses: [active]\ninclude: [style.prefer-filter]\nexclude: [queries.with-index]\n"
    )
    report, chart = env / "out" / "reg.md", env / "out" / "reg.png"
    r = invoke(
        "compare",
        "--before",
        "all-active",
        "--after",
        str(harmful),
        "--model",
        "sim/careful",
        "--category",
        "queries",
        "--samples",
        "4",
        "--report",
        str(report),
        "--chart",
        str(chart),
        "--json",
    )
    return r, report, chart


@pytest.mark.node
def test_planted_regression_exits_1_with_json_report_and_chart(regression):
    r, report, chart = regression
    assert r.exit_code == 1, r.output
    data = json.loads(r.stdout)
    assert data["exit_code"] == 1 and data["regressions"] == 1
    assert data["simulated_models"] == ["sim/careful"]
    (cell,) = data["cells"]
    assert (
        cell["category"] == "queries" and cell["verdict"] == "regressed" and cell["model_label"].endswith("(simulator)")
    )
    from tuner.evals import load_suite
    from tuner.paths import find_project

    evals = len(load_suite(find_project()).select(category="queries"))
    assert cell["delta"] < 0 and cell["q_value"] < 0.05 and cell["pairs"] == 4 * evals  # every eval × 4 samples
    assert sum(f["pass_to_fail"] for f in cell["flips"].values()) > sum(
        f["fail_to_pass"] for f in cell["flips"].values()
    )
    assert data["report"] == str(report) and "regressed" in report.read_text().lower()
    assert "reg.png" in report.read_text() and chart.read_bytes()[:4] == b"\x89PNG"
    assert sorted(p.name for p in report.parent.iterdir()) == ["reg.md", "reg.png"]  # no temp files left


@pytest.mark.node
def test_a_stored_run_as_one_side(regression, env):
    r, _, _ = regression
    harmful_run = json.loads(r.stdout)["after"]["runs"]["sim/careful (simulator)"].removeprefix("sha256:")[:10]
    # The other side is run for the run's model, evals and samples: here exactly the stored before run.
    r2 = invoke("compare", "--before", "all-active", "--after", harmful_run, "--report", str(env / "o2" / "r.md"))
    assert r2.exit_code == 1, r2.output
    assert "significant regression: exit 1" in r2.stdout and "sim/careful (simulator)" in r2.stdout
    assert (env / "o2" / "r.png").is_file()  # the chart goes next to the report by default
    r3 = invoke("compare", "--before", "all-active", "--after", harmful_run, "--model", "sim/expert")
    assert r3.exit_code == 2 and "same model" in r3.output


def test_unknown_side_is_an_input_error(env):
    r = invoke("compare", "--before", "no-such-set", "--after", "all-active", "--category", "queries")
    assert r.exit_code == 2 and "neither a rule set" in r.output


def test_power_json_and_table(env):
    r = invoke("power", "--effect", "0.3", "--baseline", "0.5", "--category", "actions", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    from tuner.evals import load_suite
    from tuner.paths import find_project

    assert data["tasks"] == len(load_suite(find_project()).select(category="actions"))
    assert [p["samples"] for p in data["points"]] == [1, 2, 3, 5, 8, 13, 20]
    assert data["smallest_k"] in (2, 3, 5, 8, 13) and data["category"] == "actions"
    r = invoke("power", "--effect", "0.01", "--category", "queries")
    assert r.exit_code == 0 and "No K up to 20" in r.stdout
    assert invoke("power", "--effect", "0.6", "--baseline", "0.6").exit_code == 2
