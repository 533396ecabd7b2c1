"""The experiment page shows a design's points (schema v5): an adaptive ablation records its
observations as points of its experiment, not as runs, and the page summarises and lists them."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from sessionkit import invoke

pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")


@pytest.fixture
def ablation(env, store) -> str:
    """An adaptive ablation of the text rules on sim/careful, recorded in the test's store; its id."""
    r = invoke(
        "ablate",
        "--suite",
        str(env.root / "suites" / "python"),
        "--category",
        "text",
        "--budget-calls",
        "60",
        "--model",
        "sim/careful",
        "--json",
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["design"] == "adaptive"
    yield data["id"]
    for suffix in (".md", ".json", ".png"):  # the recorded project is shared by the session's tests
        Path(data["report"]).with_suffix(suffix).unlink(missing_ok=True)


def _section(page: str) -> str:
    start = page.index('id="design-points"')
    return page[start : page.index("</details>", start)]


def test_the_page_summarises_and_lists_an_adaptive_ablations_points(viewer, store, ablation):
    points = store.design_points(ablation)
    assert points
    collapsed = viewer.get(f"/experiments/{ablation}").text
    # Behind the verdicts: collapsed, and its rows only when asked for.
    assert 'id="design-points" open' not in collapsed and 'class="points"' not in collapsed
    assert 'href="?points=0#design-points"' in collapsed
    page = viewer.get(f"/experiments/{ablation}?points=0").text
    section = _section(page)
    outcomes = Counter(p.outcome for p in points.values())
    summary = section[section.index('id="points-summary"') : section.index("</div>")]
    assert f"{len(points)} points over {len({p.eval_id for p in points.values()})} evals" in summary
    assert f"{outcomes['pass']} pass · {outcomes['fail']} fail" in summary
    assert f"{sum(p.attempts or 0 for p in points.values())} provider calls" in summary
    # Per model x category: passed / measured.
    cells = section[section.index('id="points-cells"') :]
    cat = next(iter({p.category for p in points.values()}))
    passed = sum(p.outcome == "pass" and p.category == cat for p in points.values())
    measured = sum(p.outcome != "infra" and p.category == cat for p in points.values())
    assert re.search(rf'data-category="{cat}">{passed}/{measured}<', cells), cells[:2000]
    # Every point is a row of its eval's table (the design is smaller than a page).
    for eval_id in {p.eval_id for p in points.values()}:
        table = section[section.index(f'data-eval="{eval_id}"') :]
        table = table[: table.index("</table>")]
        assert table.count("<tr>") - 1 == sum(p.eval_id == eval_id for p in points.values())
    usage = page[page.index('id="usage"') :]
    usage = usage[: usage.index("</div>")]  # no runs: what it spent is its points'
    assert f"{sum(p.attempts or 0 for p in points.values())}</b> provider calls" in usage
    assert f"0 runs made, {len(points)} design points" in usage
    dropped = next(p for p in points.values() if p.dropped)
    assert f'href="/rule/{dropped.dropped[0]}"' in section
    assert f'href="/prompts/{dropped.prompt_hash}"' in section


def test_a_point_whose_generation_is_stored_links_to_its_session(viewer, store, ablation, env):
    from tuner.store import ResultRecord

    points = store.design_points(ablation)
    point = next(p for p in points.values() if p.dropped)
    page = viewer.get(f"/experiments/{ablation}?points=0").text
    linked = set(re.findall(r'class="session-link" href="/sessions/([^"]+)"', page))
    held = {p.response_key for p in points.values()} & {
        r.response_key for run in env.runs for r in store.results(run.id)
    }
    assert linked == held  # only generations the store holds are links: the others would be a 404
    if point.response_key not in held:
        # A run that made the same generation records it (what a rerun as a plain run would do).
        run = env.runs[0]
        base = store.results(run.id)[0]
        store.record_result(
            run.id,
            ResultRecord(
                eval_id=point.eval_id,
                category=point.category,
                sample_index=point.sample_index,
                outcome=point.outcome,
                output="answer",
                response_key=point.response_key,
                messages=base.messages,
            ),
        )
    page = viewer.get(f"/experiments/{ablation}?points=0").text
    assert f'class="session-link" href="/sessions/{point.response_key}"' in page
    assert viewer.get(f"/sessions/{point.response_key}").status_code == 200


def test_points_are_paged_with_a_count(viewer, store, ablation):
    from tuner.web.points import design_points_view

    n = len(store.design_points(ablation))
    first = design_points_view(store, ablation, page_size=7)
    assert first.points == n and first.shown == min(7, n) and first.prev_offset is None
    assert sum(len(rows) for rows in first.by_eval.values()) == first.shown
    last = design_points_view(store, ablation, offset=10**6, page_size=7)
    assert last.offset == (n - 1) // 7 * 7 and last.next_offset is None and last.shown == n - last.offset
    page = viewer.get(f"/experiments/{ablation}?points=0").text
    assert f"points 1 to {min(n, 100)} of {n}" in page


def test_an_experiment_without_points_shows_no_points_section(viewer, store):
    from sessionkit import link_compare

    exp = link_compare(store, store.runs())
    assert not store.design_points(exp)
    page = viewer.get(f"/experiments/{exp}").text
    assert "design-points" not in page and "Design points" not in page and 'id="usage"' in page


def test_rule_and_eval_ids_are_escaped(viewer, store, ablation):
    from tuner.store import PointRecord

    points = list(store.design_points(ablation).values())
    evil = points[0].model_copy(
        update={"eval_id": "<script>e</script>", "dropped": ["<b>rule</b>"], "sample_index": 999}
    )
    store.record_points(ablation, [PointRecord(**evil.model_dump())])
    page = viewer.get(f"/experiments/{ablation}?points=0").text
    assert "<script>e</script>" not in page and "&lt;script&gt;e&lt;/script&gt;" in page
    assert "<b>rule</b>" not in page and "&lt;b&gt;rule&lt;/b&gt;" in page
