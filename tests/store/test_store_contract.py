"""The store contract (tuner.store.store docstring), once against every backend."""

import pytest
from sqlalchemy import text

from tuner.errors import InputError, NotFoundError, StoreError
from tuner.guidelines import load_guidelines
from tuner.paths import Project
from tuner.store import SCHEMA_VERSION, ResultRecord, RunSpec, StepRecord, Store


@pytest.fixture
def store(store_url):
    s = Store.open(store_url)
    yield s
    s.close()


@pytest.fixture
def prompt(project_dir):
    g = load_guidelines(Project(project_dir))
    return g.compose(g.load_set("all-active"))


def spec(prompt, **over):
    base = dict(
        prompt_hash=prompt.hash,
        set_name="all-active",
        model="sim/careful",
        model_key="sha256:m",
        params={"temperature": 0.2},
        suite="convex",
        suite_hash="sha256:s",
        grader_hash="sha256:g",
        eval_ids=["005-actions/001-a"],
        samples=2,
    )
    base.update(over)
    return RunSpec(**base)


def result(outcome, sample=0, **over):
    steps = [
        StepRecord(name="filesystem", status="pass", duration_s=0.1),
        StepRecord(name="tsc", status="fail" if outcome == "fail" else "pass", detail="TS2305"),
    ]
    data = dict(
        eval_id="005-actions/001-a",
        category="actions",
        sample_index=sample,
        outcome=outcome,
        steps=steps,
        output="# Files",
        files={"convex/a.ts": "x"},
    )
    data.update(over)
    return ResultRecord(**data)


def test_open_is_idempotent_and_versioned(store_url):
    Store.open(store_url).close()
    s = Store.open(store_url)
    with s.engine.connect() as conn:
        assert conn.execute(text("select value from tuner_meta where key='schema_version'")).scalar() == str(
            SCHEMA_VERSION
        )
    s.close()


def test_newer_schema_is_refused(store_url):
    s = Store.open(store_url)
    with s.engine.begin() as conn:
        conn.execute(text("update tuner_meta set value='999' where key='schema_version'"))
    s.close()
    with pytest.raises(StoreError, match="newer"):
        Store.open(store_url)


def test_prompt_saved_once(store, prompt):
    store.save_prompt(prompt)
    store.save_prompt(prompt)
    assert store.prompt_text(prompt.hash) == prompt.text


def test_run_identity_is_a_content_hash(store, prompt):
    store.save_prompt(prompt)
    a = store.start_run(spec(prompt))
    again = store.start_run(spec(prompt, git_rev="abc", set_name="renamed"))
    assert a.id == again.id and a.id.startswith("sha256:")
    other = store.start_run(spec(prompt, samples=3))
    assert other.id != a.id
    assert store.run(a.id[7:19]).id == a.id
    with pytest.raises(NotFoundError):
        store.run("ffffffffffff")


def test_results_upsert_and_infra_never_overwrites(store, prompt):
    store.save_prompt(prompt)
    run = store.start_run(spec(prompt))
    store.record_results(run.id, [result("fail", 0), result("infra", 1, error="429 after 5 retries", steps=[])])
    rows = store.results(run.id)
    assert [(r.sample_index, r.outcome) for r in rows] == [(0, "fail"), (1, "infra")]
    assert rows[0].steps[1].detail == "TS2305"
    store.record_result(run.id, result("infra", 0, error="timeout", steps=[]))  # outage later: ignored
    store.record_result(run.id, result("pass", 1))  # infra retried: replaced
    assert [(r.sample_index, r.outcome) for r in store.results(run.id)] == [(0, "fail"), (1, "pass")]


def test_labels_survive_regrading(store, prompt):
    store.save_prompt(prompt)
    run = store.start_run(spec(prompt))
    store.record_result(run.id, result("fail", 0))
    rid = store.results(run.id)[0].id
    store.add_label(rid, "grader-bug", note="task never states the order")
    store.record_result(run.id, result("pass", 0))
    again = store.results(run.id)[0]
    assert again.id == rid and again.outcome == "pass"
    assert [label.label for label in store.labels(rid)] == ["grader-bug"]


def test_finish_and_list(store, prompt):
    store.save_prompt(prompt)
    run = store.start_run(spec(prompt))
    store.finish_run(run.id, "complete", {"pass_rate": 0.5})
    listed = store.runs(model="sim/careful")
    assert listed[0].id == run.id and listed[0].status == "complete" and listed[0].summary == {"pass_rate": 0.5}


def test_credentials_never_stored(store, prompt):
    store.save_prompt(prompt)
    with pytest.raises(InputError, match="credential"):
        store.start_run(spec(prompt, params={"api_key": "sk-123"}))


def test_experiments(store):
    store.save_experiment("sha256:e", "study-1", "tune", {"category": "actions"})
    store.save_experiment("sha256:e", "study-1", "tune", {"category": "actions"}, result={"best": 1})
    assert store.experiment("sha256:e")["result"] == {"best": 1}
    assert store.experiment("sha256:e")["status"] == "finished"


def test_experiment_lifecycle_and_run_links(store, prompt):
    store.save_prompt(prompt)
    a = store.start_run(spec(prompt)).id
    b = store.start_run(spec(prompt, samples=3)).id
    store.start_experiment("sha256:x", "cmp", "compare", {"before": "none"})
    store.start_experiment("sha256:y", "study", "tune", {})
    assert store.experiment("sha256:x")["status"] == "running"
    store.link_runs("sha256:x", [a], "before")
    store.link_runs("sha256:x", [b, b], "after")
    store.link_runs("sha256:x", [a], "before")  # idempotent
    store.link_runs("sha256:y", [a], "baseline")  # one run, several experiments
    assert store.experiment_runs("sha256:x") == [(b, "after"), (a, "before")]
    assert store.experiment_runs("sha256:y") == [(a, "baseline")]
    store.finish_experiment("sha256:x", "finished", {"verdict": "ok"})
    assert store.experiment("sha256:x")["result"] == {"verdict": "ok"}
    assert [e["id"] for e in store.experiments("compare")] == ["sha256:x"]
    assert [e["id"] for e in store.experiments(status="finished")] == ["sha256:x"]
    assert [e["id"] for e in store.experiments(status="running")] == ["sha256:y"]
    with pytest.raises(NotFoundError):
        store.finish_experiment("sha256:nope", "finished")


def test_bad_url_is_an_input_error():
    with pytest.raises(InputError, match="not a SQLAlchemy database URL"):
        Store.open("nonsense")
