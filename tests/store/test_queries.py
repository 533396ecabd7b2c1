"""The store's query modules (tuner/store/{keys,runs,results,prompts,reports,experiments,usage,studies}.py):
each contract, as its module docstring states it, once against every backend (``store_url``)."""

from __future__ import annotations

from datetime import datetime

import pytest
import storekit as kit

from tuner.errors import InputError, NotFoundError
from tuner.store import Store, keys, prompts, reports, results, runs, studies, usage
from tuner.store import experiments as ex


@pytest.fixture
def store(store_url):
    s = Store.open(store_url)
    kit.save_prompt(s)
    yield s
    s.close()


def test_keys_store_a_hash_revoke_by_prefix_and_keep_the_first_date(store):
    a = keys.insert_key(store, "aaaa00000001", "ci", "h1", datetime(2026, 1, 1))
    keys.insert_key(store, "aaaa00000002", "laptop", "h2", datetime(2026, 1, 2))
    assert [k.name for k in keys.list_keys(store)] == ["ci", "laptop"] and a.active
    assert keys.key_hash(store, "aaaa00000001") == (a, "h1") and keys.key_hash(store, "ffff00000000") is None
    with pytest.raises(InputError, match="ambiguous"):
        keys.revoke_key(store, "aaaa", datetime(2026, 2, 1))
    with pytest.raises(NotFoundError, match="unknown key id"):
        keys.revoke_key(store, "bbbb", datetime(2026, 2, 1))
    first = keys.revoke_key(store, "aaaa00000001", datetime(2026, 2, 1))
    again = keys.revoke_key(store, "aaaa00000001", datetime(2026, 3, 1))
    assert first.revoked_at == again.revoked_at == datetime(2026, 2, 1) and not again.active
    assert keys.key_hash(store, "aaaa00000002")[0].active


def _runs(store):
    """Four runs a person started (two models, two suites) and three an experiment made as parts."""
    mine = kit.start(store, summary={"categories": {"actions": {}, "queries": {}}})
    other = kit.start(store, model="sim/sloppy", suite="python", summary={"categories": {"parsing": {}}})
    trial = kit.start(store, set_name="tune-x", samples=2)
    legacy = kit.start(store, set_name="ablate-1234-without-r.a", samples=3)
    hashed = kit.start(store, set_name="study#4", samples=4)
    store.save_experiment("e-tune", "tune x", "tune", {})
    store.link_runs("e-tune", [trial], "trial")
    store.link_runs("e-tune", [mine], "before")  # a compare-like role: not a part
    return mine, other, trial, legacy, hashed


def test_list_runs_hides_the_parts_of_experiments_unless_asked(store):
    mine, other, trial, legacy, hashed = _runs(store)
    assert [r.id for r in runs.list_runs(store)] == [other, mine]  # newest first
    assert {r.id for r in runs.list_runs(store, include_parts=True)} == {mine, other, trial, legacy, hashed}
    assert [r.id for r in runs.list_runs(store, model="sim/sloppy")] == [other]
    assert [r.id for r in runs.list_runs(store, suite="convex")] == [mine]
    assert [r.id for r in runs.list_runs(store, limit=1, offset=1)] == [mine]
    assert runs.is_legacy_part("winner-adaptive-r1") and runs.is_legacy_part("baseline")
    assert not runs.is_legacy_part("all-active")
    assert [r.id for r in runs.unlinked_runs(store, 10)] == [other]  # mine is linked (as "before")


def test_runs_by_id_prefix_and_facts(store):
    mine, other, trial, *_ = _runs(store)
    assert [r.id for r in runs.runs_by_prefix(store, mine[7:15], 5)] == [mine]
    assert runs.runs_by_prefix(store, mine, 5)[0].model == "sim/careful"
    assert len(runs.runs_by_prefix(store, "", 3)) == 3  # the empty prefix: every run, limited
    assert runs.resolve_run_prefixes(store, [mine[7:20], "ffffffffffff", ""]) == {mine[7:20]: mine}
    assert set(runs.run_records(store, [mine, other, "sha256:nope"])) == {mine, other}
    facts = runs.run_facts(store, [trial, "sha256:nope"])
    assert list(facts) == [trial] and facts[trial].set_name == "tune-x" and facts[trial].sample_offset == 0
    assert list(runs.run_facts(store, (), experiment="e-tune", role="trial")) == [trial]
    assert set(runs.run_facts(store, (), experiment="e-tune")) == {trial, mine}


def test_known_values_and_first_use(store):
    mine, *_ = _runs(store)
    assert runs.known_models(store) == ["sim/careful", "sim/sloppy"]
    assert runs.known_suites(store) == ["convex", "python"]
    assert runs.known_set_names(store) == ["ablate-1234-without-r.a", "all-active", "study#4", "tune-x"]
    assert runs.known_set_names(store, 1) == ["ablate-1234-without-r.a"]
    assert runs.known_categories(store) == ["actions", "parsing", "queries"]
    assert runs.prompt_first_use(store) == {"sha256:p1": store.run(mine).created_at}


def test_results_of_a_page_and_why_one_failed(store):
    run = kit.start(store, samples=2, evals=("005-actions/001-a", "005-actions/002-b"))
    store.record_results(
        run,
        [
            kit.result(sample=0),
            kit.result(sample=1, outcome="fail", detail="TS2305: no export\nmore"),
            kit.result("005-actions/002-b", outcome="fail", error="parse error: no files"),
            kit.result("001-queries/001-q", category="queries"),
        ],
    )
    rows = results.category_rows(store, run, "actions")
    assert [(r["eval_id"], r["sample_index"], r["outcome"], r["detail"]) for r in rows] == [
        ("005-actions/001-a", 0, "pass", None),
        ("005-actions/001-a", 1, "fail", "TS2305: no export\nmore"),
        ("005-actions/002-b", 0, "fail", None),
    ]
    stored = store.results(run)
    by = {(r.eval_id, r.sample_index): r for r in stored}
    failed, parse = by[("005-actions/001-a", 1)], by[("005-actions/002-b", 0)]
    assert results.failure_text(store, failed.id) == "TS2305: no export\nmore"
    assert results.failure_text(store, parse.id) == "parse error: no files"
    assert results.failure_text(store, by[("005-actions/001-a", 0)].id) is None
    assert results.failure_details(store, [failed.id, parse.id]) == {failed.id: "TS2305: no export\nmore"}
    assert [r.sample_index for r in results.eval_results(store, run, "005-actions/001-a")] == [0, 1]
    full = results.results_by_id(store, [failed.id, 10**9])
    assert list(full) == [failed.id] and [s.name for s in full[failed.id].steps] == ["filesystem", "tsc"]
    assert results.results_by_id(store, []) == {}
    outline = results.result_outlines(store, run)
    assert outline[("005-actions/001-a", 1)] == {
        "id": failed.id,
        "eval_id": "005-actions/001-a",
        "category": "actions",
        "sample_index": 1,
        "outcome": "fail",
        "failed_step": "tsc",
    }
    assert len(outline) == 4


def test_prompts_and_reports(store):
    assert prompts.prompt(store, "sha256:p1")["text"] == kit.SYSTEM
    with pytest.raises(NotFoundError, match="unknown prompt"):
        prompts.prompt(store, "sha256:nope")
    kit.save_prompt(store, "sha256:p2", rules=(("r.a", "default", "sha256:ra2"),), text="other")
    assert dict(prompts.prompt_rules(store)) == {
        "sha256:p1": [["r.a", "default", "sha256:ra1"], ["r.b", "terse", "sha256:rb1"]],
        "sha256:p2": [["r.a", "default", "sha256:ra2"]],
    }
    for i in range(3):
        reports.save_report(
            store,
            reports.ReportRecord(
                kind="analysis",
                run_id=f"sha256:r{i}",
                model="sim/careful",
                author_model="sim/analyst",
                path=f"reports/a{i}.md",
                body={"i": i},
            ),
        )
    heads = reports.report_heads(store, 2)
    assert [h.path for h in heads] == ["reports/a2.md", "reports/a1.md"] and heads[0].run_id == "sha256:r2"


def test_experiments_their_links_owners_suites_and_point_models(store):
    a = kit.start(store)
    b = kit.start(store, suite="python", model="sim/sloppy")
    store.save_experiment("e1", "first", "run", {})
    store.save_experiment("e2", "second", "compare", {}, {"cells": []})
    store.save_experiment("e3", "third", "ablate", {}, {"effects": [1]})
    store.link_runs("e1", [a], "run")
    store.link_runs("e2", [a, b, a], "before")
    store.record_points("e3", [kit.point(), kit.point(sample=1, model="sim/sloppy")])
    assert [e["id"] for e in ex.experiment_index(store)] == ["e3", "e2", "e1"]
    assert [e["id"] for e in ex.experiment_index(store, 1)] == ["e3"]
    made = ex.experiments_created(store, ["compare", "ablate"])
    assert [(e["id"], e["result"]) for e in made] == [("e3", {"effects": [1]}), ("e2", {"cells": []})]
    assert sorted((e["id"], e["role"]) for e in ex.experiments_of_run(store, a)) == [("e1", "run"), ("e2", "before")]
    assert ex.experiments_of_run(store, "sha256:nope") == []
    links = ex.experiment_links(store, ["e2", "e1", "e3"])
    assert list(links) == ["e2", "e1", "e3"] and links["e1"] == [a] and links["e3"] == []
    assert set(links["e2"]) == {a, b} and len(links["e2"]) == 2
    assert ex.run_owners(store, [a, b, "sha256:nope"]) == {a: "e1", b: "e2"}  # a: the first experiment to link it
    suites = ex.experiment_suites(store, ["e1", "e2", "e3"])
    assert suites["e1"] == "convex" and suites["e2"] in ("convex", "python") and "e3" not in suites
    assert ex.point_models(store, ["e3", "e1"]) == {"e3": {"sim/careful", "sim/sloppy"}}


def test_usage_sums_calls_tokens_and_what_is_priced(store):
    sim = kit.start(store)
    paid = kit.start(store, model="openai/gpt-x")
    empty = kit.start(store, model="openai/gpt-y")
    store.record_results(
        sim, [kit.result(sample=0, attempts=2, cost=None), kit.result(sample=1, attempts=0, cost=None)]
    )
    store.record_results(
        paid,
        [
            kit.result(sample=0, attempts=1, cost=0.5),
            kit.result(sample=1, attempts=1, cost=None),
            kit.result(sample=2, attempts=None, cost=0.25),
        ],
    )  # attempts null: a v1 store, paid
    got = usage.run_usage(store, [sim, paid, empty, sim])
    assert list(got) == [sim, paid, empty]
    s, p = got[sim], got[paid]
    assert (s.results, s.calls, s.tokens, s.paid, s.priced, s.cost_known) == (
        2,
        2,
        15,
        1,
        1,
        True,
    )  # the cache hit bought nothing
    assert s.cost_text() == "$0.0000"
    assert (p.results, p.calls, p.prompt_tokens, p.paid, p.priced, p.cost_usd) == (3, 2, 30, 3, 2, 0.75)
    assert not p.cost_known and p.cost_text() == ">= $0.7500 (2/3 priced)"
    assert got[empty] == usage.Usage() and usage.total_usage([s, p]).calls == 4
    store.save_experiment("d", "design", "ablate", {})
    store.record_points(
        "d",
        [
            kit.point(attempts=3),
            kit.point(sample=1, attempts=0),
            kit.point(sample=2, model="openai/gpt-x", attempts=1, cost=None),
        ],
    )
    pts = usage.points_usage(store, ["d", "none"])
    assert (pts["d"].results, pts["d"].calls, pts["d"].paid, pts["d"].priced, pts["d"].tokens) == (3, 4, 2, 1, 20)
    assert pts["none"] == usage.Usage()
    states = usage.run_states(store, [sim, "sha256:nope"])
    assert list(states) == [sim] and states[sim] == (store.run(sim).updated_at, "complete")


def test_a_study_not_in_the_store_reads_as_empty(store):
    assert studies.trial_values(store, "nope") == [] and studies.trial_attributes(store, "nope", ["baseline"]) == []


def test_trials_of_a_study_stored_in_the_store(store):
    optuna = pytest.importorskip("optuna")
    study = optuna.create_study(
        study_name="s1",
        storage=store.url if "postgresql" not in store.url else store.engine.url.render_as_string(hide_password=False),
        direction="maximize",
    )
    for value, attrs in ((0.5, {"baseline": True, "run_ids": ["a"]}), (0.7, {"constraint": 1, "regressed": ["m · c"]})):
        trial = study.ask()
        for k, v in attrs.items():
            trial.set_user_attr(k, v)
        study.tell(trial, value)
    study.ask()  # a running trial is not read
    assert studies.trial_values(store, "s1") == [(0, 0.5), (1, 0.7)]
    assert studies.trial_attributes(store, "s1", ["baseline", "constraint", "run_ids"]) == [
        {"number": 0, "baseline": True, "run_ids": ["a"]},
        {"number": 1, "constraint": 1},
    ]
    assert studies.trial_values(store, "other") == []


def test_design_points_keep_a_recorded_outcome_over_a_later_outage(store):
    """``Store.record_points`` / ``design_points`` (tuner/store/points.py)."""
    store.save_experiment("d", "design", "ablate", {})
    first = [kit.point(), kit.point(sample=1).model_copy(update={"outcome": "infra", "error": "timeout"})]
    assert store.record_points("d", first) == 2 and store.record_points("d", []) == 0
    outage = kit.point().model_copy(update={"outcome": "infra"})
    retried = kit.point(sample=1).model_copy(update={"outcome": "fail", "failed_step": "tests"})
    assert store.record_points("d", [outage, retried]) == 1
    got = store.design_points("d")
    assert {k[-1]: p.outcome for k, p in got.items()} == {0: "pass", 1: "fail"}
    assert got[kit.point().key].attempts == 1 and store.design_points("other") == {}


def test_reports_are_one_per_file_and_filtered(store):
    """``save_report`` / ``list_reports`` (tuner/store/reports.py)."""

    def rep(kind, run, path, body):
        return reports.ReportRecord(
            kind=kind, run_id=run, model="sim/careful", author_model="sim/a", path=path, body=body
        )

    one = reports.save_report(store, rep("analysis", "sha256:r1", "reports/a.md", {"v": 1}))
    again = reports.save_report(store, rep("analysis", "sha256:r1", "reports/a.md", {"v": 2}))
    reports.save_report(store, rep("proposal", None, "reports/p.md", {}))
    assert one.id == again.id and [r.body for r in reports.list_reports(store, kind="analysis")] == [{"v": 2}]
    assert [r.path for r in reports.list_reports(store)] == ["reports/a.md", "reports/p.md"]
    assert [r.kind for r in reports.list_reports(store, run_id="sha256:r1")] == ["analysis"]
    assert reports.list_reports(store, model="sim/other") == []


def test_store_runs_by_prefix_and_filter_and_the_messages_sent(store):
    """``Store.run``, ``Store.runs``, ``Store.results`` and ``Store.chat_messages`` (tuner/store/store.py)."""
    a = kit.start(store)
    b = kit.start(store, model="sim/sloppy")
    assert store.run(a[7:19]).id == a and store.run(a).id == a
    with pytest.raises(InputError, match="ambiguous"):
        store.run("")
    with pytest.raises(NotFoundError):
        store.run("ffffffffffffffff")
    assert [r.id for r in store.runs()] == [b, a] and [r.id for r in store.runs(model="sim/careful")] == [a]
    assert [r.id for r in store.runs(limit=1)] == [b] and store.runs(suite_hash="nope") == []
    store.record_results(a, [kit.result()])
    [res] = store.results(a)
    assert store.chat_messages(res) == [{"role": "system", "content": kit.SYSTEM}, {"role": "user", "content": "task"}]
