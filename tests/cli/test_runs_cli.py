"""`tuner runs list | show` and `tuner leaderboard` on a store filled with hand-made results."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[2]


def invoke(*args: str):
    from typer.testing import CliRunner

    from tuner.cli.main import app

    return CliRunner().invoke(app, list(args))


def _spec(model: str, prompt: str, suite_hash: str, evals: list[str], samples: int = 2, set_name: str = "all-active"):
    from tuner.store import RunSpec

    return RunSpec(
        prompt_hash=prompt,
        set_name=set_name,
        model=model,
        model_key=f"key-{model}",
        params={},
        suite="convex",
        suite_hash=suite_hash,
        grader_hash="g",
        eval_ids=evals,
        samples=samples,
    )


def _record(store, spec, outcome_of) -> str:
    """Start, fill and finish a run; ``outcome_of(eval_id, sample)`` -> pass | fail | infra."""
    from tuner.runs import summarize
    from tuner.store import ResultRecord, StepRecord

    run = store.start_run(spec)
    results = []
    for ev in spec.eval_ids:
        for s in range(spec.samples):
            outcome = outcome_of(ev, s)
            steps = (
                [
                    StepRecord(name="filesystem", status="pass"),
                    StepRecord(
                        name="tsc",
                        status="fail",
                        detail="\nconvex/x.ts(3,1): error TS2304: Cannot find name 'v'.\nmore",
                    ),
                ]
                if outcome == "fail"
                else []
            )
            results.append(
                ResultRecord(
                    eval_id=ev,
                    category=ev.split("/")[0].split("-", 1)[1],
                    sample_index=s,
                    outcome=outcome,
                    failed_step="tsc" if outcome == "fail" else None,
                    error="provider 503" if outcome == "infra" else None,
                    steps=steps,
                )
            )
    store.record_results(run.id, results)
    summary = summarize(store.results(run.id))
    store.finish_run(run.id, "partial" if summary["overall"]["infra"] else "complete", summary)
    return run.id


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    from tuner.evals import load_suite
    from tuner.paths import Project
    from tuner.store import Store

    db = f"sqlite:///{tmp_path_factory.mktemp('runs-cli') / 'store.db'}"
    mp = pytest.MonkeyPatch()
    mp.setenv("TUNER_HOME", str(REPO))
    mp.setenv("TUNER_DB", db)
    suite = load_suite(Project(REPO))
    evals = [e.id for e in suite.evals]
    store = Store.open(db)
    for text, set_name in (("p1", "all-active"), ("p2", "none"), ("p3", "all-active"), ("p4", "all-active")):
        store.save_prompt(
            SimpleNamespace(hash=text, set_name=set_name, template="default", rules=[], tokens=1, text=text)
        )
    ids = {
        # careful with all-active: two full runs (2 and 4 samples), 50% and 75% of samples pass
        "careful1": _record(
            store, _spec("sim/careful", "p1", suite.hash, evals), lambda e, s: "pass" if s == 0 else "fail"
        ),
        "careful1b": _record(
            store, _spec("sim/careful", "p1", suite.hash, evals, samples=4), lambda e, s: "fail" if s == 3 else "pass"
        ),
        # careful with no rules: one full run, 25% pass (a different rule set: never averaged with the above)
        "careful2": _record(
            store,
            _spec("sim/careful", "p2", suite.hash, evals, samples=4, set_name="none"),
            lambda e, s: "pass" if s == 0 else "fail",
        ),
        # expert: one full run, all pass
        "expert": _record(store, _spec("sim/expert", "p1", suite.hash, evals), lambda e, s: "pass"),
        # a one-category run and a run of an older suite version: not on the leaderboard
        "queries": _record(
            store, _spec("sim/careful", "p3", suite.hash, [e for e in evals if "queries" in e]), lambda e, s: "pass"
        ),
        "old": _record(store, _spec("sim/careful", "p4", "sha256:old", evals), lambda e, s: "pass"),
        # infra failures are excluded from the score and make the run partial
        "infra": _record(
            store,
            _spec("openai/gpt-x", "p1", suite.hash, evals[:3]),
            lambda e, s: "infra" if s == 1 else ("pass" if e == evals[0] else "fail"),
        ),
    }
    store.close()
    yield ids
    mp.undo()


def test_runs_list_json(filled):
    r = invoke("runs", "list", "--json")
    assert r.exit_code == 0, r.output
    rows = {row["id"]: row for row in json.loads(r.stdout)}
    assert len(rows) == 7
    row = rows[filled["careful1"]]
    assert row["model"] == "sim/careful" and row["simulated"] and row["status"] == "complete" and row["samples"] == 2
    assert row["overall"]["rate"] == 0.5 and row["overall"]["lo"] <= 0.5 <= row["overall"]["hi"]
    infra = rows[filled["infra"]]
    assert infra["status"] == "partial" and infra["infra"] == 3 and infra["overall"]["n"] == 3
    assert infra["overall"]["rate"] == pytest.approx(1 / 3)


def test_runs_list_filters_and_table(filled):
    r = invoke("runs", "list", "--model", "sim/expert", "--json")
    assert [row["id"] for row in json.loads(r.stdout)] == [filled["expert"]]
    assert len(json.loads(invoke("runs", "list", "--limit", "2", "--json").stdout)) == 2
    r = invoke("runs", "list")
    assert r.exit_code == 0 and "(simulator)" in r.stdout and filled["expert"].removeprefix("sha256:")[:12] in r.stdout


def test_runs_show(filled):
    prefix = filled["careful1"].removeprefix("sha256:")[:10]
    r = invoke("runs", "show", prefix, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["id"] == filled["careful1"] and data["simulated"]
    assert data["rates"]["overall"]["rate"] == 0.5 and "queries" in data["rates"]
    first = data["results"][0]
    assert first["outcomes"] == ["pass", "fail"] and first["first_failing_step"] == "tsc"
    assert first["first_error"] == "convex/x.ts(3,1): error TS2304: Cannot find name 'v'."
    r = invoke("runs", "show", prefix)
    assert r.exit_code == 0 and "first failing step" in r.stdout and "sim/careful (simulator)" in r.stdout
    assert invoke("runs", "show", "ffffffffffff").exit_code == 2


def test_leaderboard_never_averages_rule_sets(filled):
    r = invoke("leaderboard", "--json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["rows"]
    assert [(row["model"], row["set_name"], row["prompt_hash"]) for row in rows] == [
        ("sim/expert", "all-active", "p1"),
        ("sim/careful", "all-active", "p1"),
        ("sim/careful", "none", "p2"),
    ]
    expert, careful_all, careful_none = rows
    # Two runs of the same model and prompt: 50% and 75%.
    assert careful_all["runs"] == 2 and careful_all["mean"] == pytest.approx(0.625)
    assert careful_all["sd"] == pytest.approx(0.1767767)
    assert set(careful_all["run_ids"]) == {filled["careful1"], filled["careful1b"]}
    # The no-rules run is its own row, not folded into the mean and spread above.
    assert careful_none["runs"] == 1 and careful_none["mean"] == pytest.approx(0.25) and careful_none["sd"] is None
    assert careful_none["run_ids"] == [filled["careful2"]]
    assert expert["sd"] is None and expert["simulated"] and expert["mean"] == 1.0
    last1 = json.loads(invoke("leaderboard", "--last", "1", "--json").stdout)["rows"]
    assert [row["runs"] for row in last1] == [1, 1, 1]
    partial = json.loads(invoke("leaderboard", "--include-partial", "--json").stdout)["rows"]
    by = {(row["model"], row["prompt_hash"]): row["runs"] for row in partial}
    assert by[("sim/careful", "p1")] == 2 and by[("sim/careful", "p3")] == 1  # the one-category run
    assert ("sim/careful", "p4") not in by  # an older suite version
    r = invoke("leaderboard")
    assert r.exit_code == 0 and "sim/expert (simulator)" in r.stdout and "none" in r.stdout
