"""A run's sessions include the generations a later run recorded again (a re-grade, a subset run):
the run filter chooses the rows before the newest-row rule picks one per generation."""

from __future__ import annotations

import json

from sessionkit import invoke


def _keys(*args: str) -> set[str]:
    r = invoke("sessions", "list", "--json", "--limit", "1000", *args)
    assert r.exit_code == 0, r.output
    return {s["key"] for s in json.loads(r.stdout)["sessions"]}


def _regrade(store, run):
    """A new grader recorded every generation of ``run`` again in a run of its own."""
    from tuner.store import RunSpec

    results = store.results(run.id)
    later = store.start_run(
        RunSpec(**{**run.model_dump(include=set(RunSpec.model_fields)), "grader_hash": "sha256:later"})
    )
    store.record_results(later.id, [x.model_copy(update={"outcome": "fail", "grade_key": "g2"}) for x in results])
    return later, {x.response_key for x in results}


def test_run_filter_keeps_generations_a_later_run_recorded_again(env, store):
    run = env.runs[0]
    later, keys = _regrade(store, run)
    assert len(keys) == 8
    assert _keys("--run", run.id) == keys  # all 8, not 0: the later rows no longer hide them
    assert _keys("--run", later.id) == keys
    assert len(_keys()) == 32  # without a run filter still one session per generation
    # Shown through the row of the run asked for: its outcome, its result id.
    r = invoke("sessions", "list", "--json", "--limit", "1000", "--run", run.id)
    rows = json.loads(r.stdout)["sessions"]
    assert {s["run"] for s in rows} == {run.id}
    assert {s["outcome"] for s in rows} == {x.outcome for x in store.results(run.id)}


def test_label_and_export_by_run_reach_regraded_generations(env, store):
    run = env.runs[0]
    _, keys = _regrade(store, run)
    r = invoke("label", "--run", run.id, "--status", "correct", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["labelled"] == 8
    r = invoke("export", "--format", "openai", "--run", run.id)
    assert r.exit_code == 0, r.output
    assert len(r.stdout.splitlines()) == 8


def test_viewer_sessions_of_a_run_lists_regraded_generations(store, env):
    import warnings

    from fastapi.testclient import TestClient

    from tuner.paths import find_project
    from tuner.web import Login, create_app

    run = env.runs[0]
    _, keys = _regrade(store, run)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(store, find_project(), Login("t")), base_url="http://127.0.0.1") as viewer:
            assert viewer.get("/login?token=t", follow_redirects=False).status_code == 303
            page = viewer.get(f"/runs/{run.id}")
            assert f"/evals?run={run.id}" in page.text  # the "Sessions of this run" link
            listing = viewer.get(f"/evals?run={run.id}&ready=all")
    assert listing.status_code == 200
    assert all(f'data-key="{k}"' in listing.text or k[7:19] in listing.text for k in keys), listing.text[:2000]
