"""`tuner compare --placebo` end to end on the Python suite's simulator: on sim/primed (any
instruction text helps) the rules beat none but not the placebo; on sim/careful (the rules' content
helps) they beat both. Plus the plan, replay, report, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SUITE = REPO / "suites" / "python"  # the env fixture (conftest.py) runs it
ARGS = ("--before", "none", "--after", "all-active", "--category", "text", "--samples", "4", "--placebo")


def invoke(*args: str):
    import os

    from typer.testing import CliRunner

    from tuner.cli.main import app

    suite = os.environ["TUNER_SUITE"]
    try:
        return CliRunner().invoke(app, list(args))
    finally:
        os.environ["TUNER_SUITE"] = suite  # the autouse fixture restores it per test; keep it for the module


def _compare(env, model: str, *extra: str):
    report = env / f"{model.replace('/', '-')}.md"
    r = invoke("compare", *ARGS, "--model", model, "--report", str(report), *extra)
    return r, report


@pytest.fixture(scope="module")
def primed(env):
    return _compare(env, "sim/primed", "--json")


@pytest.fixture(scope="module")
def careful(env):
    return _compare(env, "sim/careful", "--json")


def _helps(r) -> dict:
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    (row,) = data["helps"]
    return data, row


def test_primed_profile_beats_none_but_not_the_placebo(primed):
    data, row = _helps(primed[0])
    assert row["vs_none"] == "improved" and row["delta_none"] > 0.25
    # Not "improved": with one cell in the family, the near-A/A noise of two prompts reads either way.
    assert row["vs_placebo"] != "improved" and abs(row["delta_placebo"]) < row["delta_none"]
    assert row["claim"] == "helps, but no more than the placebo"
    arm = data["placebo"]
    assert arm["matches"] == "all-active" and arm["seed"] == 0 and arm["domain"] == "keeping a community garden"
    assert arm["tokens"] == 555  # all-active's prompt on the Python suite, to the token
    assert arm["side"]["prompts"]["sim/primed (simulator)"] not in data["after"]["prompts"].values()


def test_careful_profile_beats_none_and_the_placebo(careful):
    _, row = _helps(careful[0])
    assert row["vs_none"] == "improved" and row["vs_placebo"] == "improved"
    assert row["claim"] == "helps beyond priming"


def test_report_and_recorded_experiment_carry_the_placebo(env, careful):
    from tuner.store import Store

    report = careful[1].read_text(encoding="utf-8")
    assert "## Against a length-matched placebo" in report and "**helps beyond priming**" in report
    assert "1 of 1 improved cell(s) help beyond priming" in report
    data, _ = _helps(careful[0])
    store = Store.open(f"sqlite:///{env / 'store.db'}", create=False)
    exp = store.experiment(data["identity"])
    store.engine.dispose()
    assert exp["result"]["helps"][0]["claim"] == "helps beyond priming"
    assert exp["config"]["placebo"] == {"seed": 0, "tokens": 555, "domain": "keeping a community garden"}


def test_text_output_and_replay_cost_nothing(env, careful):
    r, _ = _compare(env, "sim/careful")
    assert r.exit_code == 0, r.output
    assert "against none and against the placebo" in r.output and "helps beyond priming" in r.output
    assert "spent: 0 provider calls" in r.output


def test_plan_counts_the_placebo_arm(env):
    r = invoke("compare", *ARGS, "--model", "sim/careful", "--plan")
    assert r.exit_code == 0, r.output
    assert "placebo-all-active-s0" in r.output and "48 provider calls" in r.output  # 3 arms x 4 evals x 4


def test_another_seed_is_another_placebo(env):
    r = invoke("compare", *ARGS, "--model", "sim/careful", "--placebo-seed", "1", "--plan")
    assert r.exit_code == 0, r.output
    assert "placebo-all-active-s1" in r.output


@pytest.mark.parametrize(
    ("after", "message"),
    [
        ("none", "set 'none' has no rule text to match"),
    ],
)
def test_refusals(env, after, message):
    r = invoke("compare", "--before", "all-active", "--after", after, "--placebo", "--model", "sim/careful", "--plan")
    assert r.exit_code == 2, r.output
    assert message in r.output


def test_a_stored_run_as_after_is_refused(env, careful):
    data, _ = _helps(careful[0])
    run_id = data["after"]["runs"]["sim/careful (simulator)"]
    r = invoke("compare", "--before", "none", "--after", run_id.removeprefix("sha256:")[:12], "--placebo")
    assert r.exit_code == 2, r.output
    assert "is a stored run; the placebo is matched to a rule set" in r.output


def test_the_viewers_compare_page_shows_both_readings(env, careful):
    from fastapi.testclient import TestClient

    from tuner.paths import find_project
    from tuner.store import Store
    from tuner.web import Login, create_app

    data, _ = _helps(careful[0])
    store = Store.open(f"sqlite:///{env / 'store.db'}", create=False)
    try:
        with TestClient(create_app(store, find_project(), Login("t")), base_url="http://127.0.0.1") as c:
            assert c.get("/login?token=t", follow_redirects=False).status_code == 303
            page = c.get(f"/experiments/{data['identity']}").text
    finally:
        store.close()
    assert 'id="placebo-helps"' in page and "keeping a community garden" in page
    assert page.count("helps beyond priming") >= 1 and page.index('id="compare-cells"') < page.index(
        'id="placebo-helps"'
    )
