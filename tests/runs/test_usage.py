"""Counts and cost from one source (issue 33): calls, tokens and cost of runs, design points and
experiments, with the simulator at $0, an unpriced model unknown, and a run another experiment
reused counted once, under the experiment that made it. Against every backend."""

from __future__ import annotations

import time

import pytest

from tuner.guidelines import load_guidelines
from tuner.paths import Project
from tuner.store import ResultRecord, RunSpec, Store
from tuner.store.points import PointRecord


@pytest.fixture
def store(store_url):
    s = Store.open(store_url)
    yield s
    s.close()


@pytest.fixture
def prompt(project_dir, store):
    g = load_guidelines(Project(project_dir))
    p = g.compose(g.load_set("all-active"))
    store.save_prompt(p)
    return p


def _run(store, prompt, model: str, samples: int, answers: list[tuple[int, int | None, float | None]]) -> str:
    """A run whose results are (attempts, prompt tokens, cost) each; completion tokens 10 a paid answer."""
    spec = RunSpec(
        prompt_hash=prompt.hash,
        set_name="s",
        model=model,
        model_key=f"sha256:{model}",
        params={},
        suite="python",
        suite_hash="sha256:s",
        grader_hash="sha256:g",
        eval_ids=["001-text/001-a"],
        samples=samples,
    )
    run = store.start_run(spec)
    store.record_results(
        run.id,
        [
            ResultRecord(
                eval_id="001-text/001-a",
                category="text",
                sample_index=i,
                outcome="pass",
                attempts=a,
                prompt_tokens=t,
                completion_tokens=10,
                cost_usd=c,
            )
            for i, (a, t, c) in enumerate(answers)
        ],
    )
    store.finish_run(run.id, "complete", {})
    return run.id


def test_runs_count_calls_paid_tokens_and_price_the_simulator_at_zero(store, prompt):
    from tuner.runs.usage import run_usage

    # Two paid answers (one retried: 2 calls) and a cache hit, whose tokens were not bought again.
    sim = _run(store, prompt, "sim/careful", 3, [(1, 100, None), (2, 200, None), (0, 300, None)])
    real = _run(store, prompt, "openai/gpt-x", 2, [(1, 100, 0.25), (1, 100, None)])
    priced = _run(store, prompt, "openai/gpt-y", 2, [(1, 100, 0.25), (0, 100, None)])
    u = run_usage(store, [sim, real, priced])
    assert (u[sim].calls, u[sim].prompt_tokens, u[sim].completion_tokens) == (3, 300, 20)
    assert u[sim].cost_text() == "$0.0000" and u[sim].as_json()["cost_usd"] == 0.0
    assert u[real].cost_text() == ">= $0.2500 (1/2 priced)" and u[real].as_json()["cost_usd"] is None
    assert u[priced].cost_text() == "$0.2500" and u[priced].calls == 1  # the cache hit's missing price does not matter


def test_an_experiment_counts_its_own_runs_and_points_and_a_reused_run_once(store, prompt):
    from tuner.runs.usage import experiment_links, experiment_usage

    first = _run(store, prompt, "sim/careful", 2, [(1, 100, None), (1, 100, None)])
    other = _run(store, prompt, "sim/overeager", 1, [(1, 50, None)])
    store.start_experiment("sha256:run", "all-active", "run", {})
    store.link_runs("sha256:run", [first], "run")
    time.sleep(0.01)  # the compare is recorded later: the run is the `tuner run`'s
    store.start_experiment("sha256:cmp", "none vs all-active", "compare", {})
    store.link_runs("sha256:cmp", [other], "before")
    store.link_runs("sha256:cmp", [first], "after")
    store.start_experiment("sha256:abl", "ablate", "ablate", {})
    store.record_points(
        "sha256:abl",
        [
            PointRecord(
                prompt_hash=prompt.hash,
                model_key="sha256:m",
                model="sim/careful",
                inputs_key="sha256:i",
                eval_id="001-text/001-a",
                category="text",
                sample_index=i,
                dropped=[],
                outcome="pass",
                attempts=a,
                prompt_tokens=40,
                completion_tokens=4,
            )
            for i, a in enumerate((1, 1, 0))
        ],
    )
    links = experiment_links(store, ["sha256:run", "sha256:cmp", "sha256:abl"])
    u = experiment_usage(store, links)
    assert (u["sha256:run"].spent.calls, u["sha256:run"].runs, u["sha256:run"].reused_runs) == (2, 1, 0)
    assert (u["sha256:cmp"].spent.calls, u["sha256:cmp"].runs, u["sha256:cmp"].reused_runs) == (1, 1, 1)
    assert u["sha256:cmp"].reused.calls == 2  # shown as read, not spent
    assert (u["sha256:abl"].spent.calls, u["sha256:abl"].points, u["sha256:abl"].spent.prompt_tokens) == (2, 3, 80)
    assert u["sha256:abl"].spent.cost_text() == "$0.0000"
    assert sum(x.spent.calls for x in u.values()) == 5  # every call once


def test_the_spent_line_and_the_store_agree_on_format():
    from tuner.runs.plan import Budget
    from tuner.runs.usage import fmt_cost, plural

    b = Budget()
    b.spent_calls = 1
    assert b.summary_line() == "spent: 1 provider call, 0 tokens in, 0 out, cost $0.0000"
    assert fmt_cost(None) == "unknown" and fmt_cost(1234.5) == "$1,234.5000"
    assert plural(1, "call") == "1 call" and plural(0, "call") == "0 calls" and plural(1200, "call") == "1,200 calls"
