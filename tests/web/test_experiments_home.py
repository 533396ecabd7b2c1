"""Experiments first (issue 21): the home page lists what was started, with filters; the runs an
experiment made as parts of itself are reached from it, hidden from the runs lists unless asked."""

from __future__ import annotations

import json

import pytest
from sessionkit import invoke

pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")


@pytest.fixture
def linked(env, store):
    """The recorded compare as a v4 experiment, plus a tune whose trial is a one-eval part run."""
    from sessionkit import link_compare

    from tuner.store import RunSpec

    runs = {(r.model, r.set_name): r for r in env.runs}
    compare = link_compare(store, env.runs)
    base = runs["sim/careful", "all-active"]
    part = store.start_run(
        RunSpec(
            **{
                **base.model_dump(include=set(RunSpec.model_fields)),
                "set_name": "trial-set",
                "eval_ids": base.eval_ids[:1],
            }
        )
    )
    store.record_results(part.id, [r for r in store.results(base.id) if r.eval_id == base.eval_ids[0]])
    store.finish_run(part.id, "complete", base.summary)
    store.start_experiment(
        "sha256:tune1", "study-text", "tune", {"category": "text", "models": [{"model": "sim/careful"}]}
    )
    store.link_runs("sha256:tune1", [part.id], "trial")
    return {"runs": runs, "part": part, "compare": compare}


def test_home_lists_experiments_with_kind_suite_models_set_status_calls_cost(viewer, linked):
    page = viewer.get("/").text
    rows = page[page.index('<table id="experiments">') : page.index("</table>")]
    compare = next(r for r in rows.split("<tr") if 'data-kind="compare"' in r)
    for text in (
        "python",
        "sim/careful",
        "sim/overeager",
        "all-active",
        "none",
        "finished",
        f"/experiments/{linked['compare']}",
        "$0.0000",
    ):  # the simulator's price is $0 (issue 33)
        assert text in compare, text
    calls = sum(x.summary["calls"]["provider_calls"] for x in linked["runs"].values())
    assert f'<td class="num calls">{calls}</td>' in compare
    tune = next(r for r in rows.split("<tr") if 'data-kind="tune"' in r)
    assert "running" in tune and "study-text" in tune
    # Plain runs are listed only when no experiment linked them: the four are the compare's.
    assert 'data-kind="run"' not in rows
    assert linked["part"].id[7:19] not in page


@pytest.mark.parametrize(
    "query, kinds",
    [
        ("kind=compare", {"compare"}),
        ("kind=tune", {"tune"}),
        ("status=running", {"tune"}),
        ("model=sim/overeager", {"compare"}),
        ("set=none", {"compare"}),
        ("suite=python", {"compare", "tune"}),
        ("suite=no-such-suite", set()),
        ("since=2999-01-01", set()),
    ],
)
def test_home_filters(viewer, linked, query, kinds):
    page = viewer.get(f"/?{query}").text
    rows = page[page.index('<table id="experiments">') : page.index("</table>")]
    found = {k for k in ("compare", "tune", "run", "analyze") if f'data-kind="{k}"' in rows}
    assert found == kinds, (query, found)


def test_bad_date_filter_is_a_clear_400(viewer):
    r = viewer.get("/?since=yesterday")
    assert r.status_code == 400 and "since &#39;yesterday&#39;: a date as YYYY-MM-DD" in r.text


def test_experiment_page_reaches_its_runs_and_side_by_side(viewer, linked):
    page = viewer.get(f"/experiments/{linked['compare']}").text
    assert 'data-role="before"' in page and 'data-role="after"' in page
    for run in linked["runs"].values():
        assert f'href="/runs/{run.id}"' in page
    careful = (linked["runs"]["sim/careful", "none"].id, linked["runs"]["sim/careful", "all-active"].id)
    assert f'href="/compare/{careful[0]}/{careful[1]}"' in page
    tune = viewer.get("/experiments/sha256:tune1").text
    assert f'href="/runs/{linked["part"].id}"' in tune and 'data-role="trial"' in tune
    run_page = viewer.get(f"/runs/{linked['part'].id}").text
    assert 'href="/experiments/sha256:tune1"' in run_page and "(as trial)" in run_page


def test_runs_lists_hide_parts_unless_asked(viewer, linked, env):
    part = linked["part"].id
    assert part[7:19] not in viewer.get("/runs").text
    assert part[7:19] in viewer.get("/runs?all=1").text
    listed = {x["id"] for x in json.loads(invoke("runs", "list", "--json").stdout)}
    assert part not in listed and {r.id for r in env.runs} <= listed
    assert part in {x["id"] for x in json.loads(invoke("runs", "list", "--json", "--all").stdout)}


def test_runs_list_suite_filters_by_suite(env, linked):
    from tuner.paths import find_project  # noqa: F401 - the recorded project is the current one

    python = env.root / "suites" / "python"
    listed = json.loads(invoke("runs", "list", "--json", "--suite", str(python)).stdout)
    assert {x["id"] for x in listed} == {r.id for r in env.runs}
    other = json.loads(invoke("runs", "list", "--json", "--suite", str(env.root / "evals")).stdout)
    assert other == []


def test_legacy_parts_are_recognised_by_set_name():
    from tuner.store.runs import is_legacy_part

    assert is_legacy_part("ablate-1234abcd-without-py.casefold") and is_legacy_part("tune-text-1a2b#3")
    assert is_legacy_part("winner-adaptive-r0007")
    assert not is_legacy_part("all-active") and not is_legacy_part("python_rules@1.0.0")


def test_charts_escape_labels_and_size_the_effect_axis():
    from tuner.web.charts import Interval, interval_chart, symmetric_range

    svg = str(
        interval_chart([Interval(label="<script>x</script>", value=0.1, lo=-0.05, hi=0.2)], lo=-0.25, hi=0.25, zero=0.0)
    )
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert (
        symmetric_range([0.1, -0.2, None]) == 0.25
        and symmetric_range([0.3, 0.9]) == 1.0
        and symmetric_range([]) == 0.25
    )


def test_usage_cache_keeps_finished_runs_and_resums_changed_ones(env, store):
    from tuner.runs.usage import UsageCache, run_usage
    from tuner.store import RunSpec

    run = env.runs[0]
    cache = UsageCache()
    first = cache.usage(store, [run.id])[run.id]
    assert first == run_usage(store, [run.id])[run.id]
    results = store.results(run.id)
    store.record_results(
        run.id, [results[0].model_copy(update={"prompt_tokens": (results[0].prompt_tokens or 0) + 1000})]
    )
    assert cache.usage(store, [run.id])[run.id].prompt_tokens == first.prompt_tokens  # finished and unchanged: kept
    store.finish_run(run.id, "complete", {**run.summary, "touched": True})  # written again: summed again
    assert cache.usage(store, [run.id])[run.id].prompt_tokens == first.prompt_tokens + 1000
    store.start_run(RunSpec(**run.model_dump(include=set(RunSpec.model_fields))))  # running again
    store.record_results(run.id, [results[0].model_copy(update={"prompt_tokens": (results[0].prompt_tokens or 0) + 5})])
    assert cache.usage(store, [run.id])[run.id].prompt_tokens == first.prompt_tokens + 5  # running: never kept


def test_compare_page_orders_sides_and_charts_both(viewer, linked):
    page = viewer.get(f"/experiments/{linked['compare']}").text
    assert page.index('data-role="before"') < page.index('data-role="after"')
    chart = page[page.index('id="compare-sides"') :]
    chart = chart[: chart.index("</svg>")]
    for run in linked["runs"].values():
        assert f'href="/runs/{run.id}' in chart


def test_home_charts_calls_per_experiment(viewer, linked):
    page = viewer.get("/").text
    chart = page[page.index('id="costs"') :]
    chart = chart[: chart.index("</svg>")]
    assert f'href="/experiments/{linked["compare"]}"' in chart and "calls, $0.0000" in chart
