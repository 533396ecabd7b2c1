"""A provider outage is never a verdict: compare says which cells were not measured and exits 4 (issue 19.2)."""

from __future__ import annotations

import json

import pytest
from reliability_helpers import write_panel

pytestmark = [pytest.mark.slow]


def test_compare_with_a_failing_provider_is_not_measured_and_exits_4(cli, py_project, provider):
    provider.fault_rate, provider.timeout_sleep_s = 1.0, 0.6
    write_panel(py_project, "down", "openai/faulty", provider.api_base, max_retries=0, timeout_s=0.3)
    r = cli("compare", "--before", "none", "--after", "all-active", "--panel", "down", "--samples", "1", "--json")
    assert r.exit_code == 4, r.output
    data = json.loads(r.stdout)
    assert data["regressions"] == 0 and data["not_measured"]
    assert {c["verdict"] for c in data["cells"]} == {"not measured"}
    assert all(c["pairs"] == 0 and c["expected"] > 0 for c in data["not_measured"])

    r = cli("compare", "--before", "none", "--after", "all-active", "--panel", "down", "--samples", "1")
    assert r.exit_code == 4, r.output
    assert "not measured" in r.stdout and "no significant regression" not in r.stdout
    assert "no detectable change" not in r.stdout


def test_compare_with_a_healthy_provider_is_measured(cli, py_project, provider):
    write_panel(py_project, "up", "openai/steady", provider.api_base)
    r = cli("compare", "--before", "none", "--after", "none", "--panel", "up", "--samples", "1", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["not_measured"] == [] and all(c["pairs"] == c["expected"] for c in data["cells"])
    # Recorded as an experiment linked to both sides' runs.
    from tuner.store import Store

    store = Store.open(f"sqlite:///{py_project / 'experiments' / 'tuner.db'}", create=False)
    try:
        [exp] = store.experiments("compare")
        links = store.experiment_runs(exp["id"])
    finally:
        store.close()
    assert exp["result"]["exit_code"] == 0 and {role for _, role in links} == {"before", "after"}


def test_tune_default_flow_against_a_failing_provider_is_not_measured_exit_4(cli, py_project, provider):
    """The default (screening) flow: an outage during the baseline and the screening is never read as
    'no change'."""
    provider.fault_rate, provider.timeout_sleep_s = 1.0, 0.6
    write_panel(py_project, "down", "openai/faulty", provider.api_base, max_retries=0, timeout_s=0.3)
    r = cli("tune", "--category", "data", "--panel", "down", "--samples", "1", "--budget-calls", "60")
    assert r.exit_code == 4, r.output
    assert "decision: no change" not in r.output and "publish the winner" not in r.output


def test_tune_screening_that_lost_answers_is_not_measured_exit_4(cli, py_project, provider):
    """The baseline measured, then the provider goes down during the screening: not 'no change'."""
    write_panel(py_project, "down", "openai/faulty", provider.api_base, max_retries=0, timeout_s=0.3)
    args = ("tune", "--category", "data", "--panel", "down", "--samples", "1")
    provider.fault_rate = 0.0
    r = cli(*args, "--budget-calls", "3")  # the baseline's 3 calls (1 sample x 3 data evals); no room to screen
    assert r.exit_code == 4 and "screening was not measured" in r.output, r.output
    assert "decision: no change" not in r.output
    provider.fault_rate, provider.timeout_sleep_s = 1.0, 0.6
    r = cli(*args, "--budget-calls", "60")  # the baseline comes back from the cache; every screening call fails
    assert r.exit_code == 4, r.output
    assert "screening was not measured" in r.output and "decision: no change" not in r.output


def test_ablate_default_design_against_a_failing_provider_is_not_measured_exit_4(cli, py_project, provider):
    provider.fault_rate, provider.timeout_sleep_s = 1.0, 0.6
    write_panel(py_project, "down", "openai/faulty", provider.api_base, max_retries=0, timeout_s=0.3)
    r = cli("ablate", "--category", "data", "--panel", "down", "--budget-calls", "40", "--json")
    assert r.exit_code == 4, r.output
    assert "not measured" in r.stderr
    data = json.loads(r.stdout)
    assert data["adaptive"]["lost"] == data["adaptive"]["calls"] > 0
    assert {e["verdict"] for e in data["effects"]} == {"undecided"}  # never "no meaningful effect"


@pytest.mark.parametrize("design", ["loo", "add", "screening"])
def test_ablate_fixed_designs_against_a_failing_provider_are_not_measured_exit_4(cli, py_project, provider, design):
    """Issue 28.3: every pair lost is "not measured" (exit 4), never "no detectable effect"."""
    provider.fault_rate, provider.timeout_sleep_s = 1.0, 0.6
    write_panel(py_project, "down", "openai/faulty", provider.api_base, max_retries=0, timeout_s=0.3)
    extra = ("--runs", "2") if design == "screening" else ("--samples", "1")
    r = cli("ablate", "--design", design, "--category", "data", "--panel", "down", *extra, "--json")
    assert r.exit_code == 4, r.output
    assert "not measured" in r.stderr
    data = json.loads(r.stdout)
    assert data["lost"] > 0
    assert {e["verdict"] for e in data["effects"]} == {"not measured"}
