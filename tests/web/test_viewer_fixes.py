"""Viewer bugs a reviewer hit (issue 21), each on the recorded store through FastAPI's TestClient."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")


@pytest.fixture
def app(env, store):
    from tuner.paths import find_project
    from tuner.web import Login, create_app

    return create_app(store, find_project(), Login("test-login-token"))


@pytest.fixture
def viewer(app):
    from fastapi.testclient import TestClient

    with TestClient(app, base_url="http://127.0.0.1") as c:
        assert c.get("/login?token=test-login-token", follow_redirects=False).status_code == 303
        yield c


def _failing_with_step_detail(store, env):
    for run in env.runs:
        for r in store.results(run.id):
            step = next((s for s in r.steps if s.status == "fail" and s.detail), None)
            if r.outcome == "fail" and step and not r.error:
                return run, r, step
    raise AssertionError("no failing result whose reason is only on its step")


def test_category_first_error_comes_from_the_failed_step(viewer, store, env):
    run, result, step = _failing_with_step_detail(store, env)
    page = viewer.get(f"/runs/{run.id}/categories/{result.category}").text
    row = next(r for r in page.split("<tr>") if f">{result.eval_id}</a>" in r)
    first = next(line.strip() for line in step.detail.splitlines() if line.strip())
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    assert cells[-2].strip() == step.name
    from markupsafe import escape

    assert cells[-1].strip() == str(escape(first[:200])), cells[-1]


def test_eval_header_names_the_failing_step_not_tests_0_of_0(viewer, store, env):
    from tuner.store import ResultRecord, StepRecord

    run = env.runs[0]
    base = store.results(run.id)[0]
    # A bundle failure: the tests never ran (0 of 0).
    store.record_result(
        run.id,
        ResultRecord(
            eval_id=base.eval_id,
            category=base.category,
            sample_index=7,
            outcome="fail",
            failed_step="bundle",
            output="x",
            files={"a.py": "x"},
            tests_passed=0,
            tests_total=0,
            steps=[StepRecord(name="bundle", status="fail", detail="SyntaxError: invalid syntax")],
        ),
    )
    page = viewer.get(f"/runs/{run.id}/evals/{base.eval_id}").text
    section = page[page.index('id="sample-7"') :]
    header = section[: section.index("</h2>")]
    assert "tests 0/0" not in header and "failed at step bundle" in header


def test_bulk_labelling_chooses_no_status_by_default(viewer, store):
    from tuner.sessions import apply_labels, label_change, list_sessions

    keys = [s.key for s in list_sessions(store, limit=2).items]
    apply_labels(store, keys, label_change(status="correct"))
    page = viewer.get("/evals").text
    select = page[page.index('<select id="bulk-status">') :]
    select = select[: select.index("</select>")]
    first = re.search(r"<option([^>]*)>", select).group(1)
    assert 'value=""' in first and "selected" in first
    assert not re.search(r"<option[^>]*selected[^>]*>golden", select)


def test_a_second_browser_logs_in_without_a_restart(app, store):
    from fastapi.testclient import TestClient

    from tuner.apikeys import create_key

    here = "http://127.0.0.1"
    with (
        TestClient(app, base_url=here) as first,
        TestClient(app, base_url=here) as second,
        TestClient(app, base_url=here) as third,
    ):
        assert first.get("/login?token=test-login-token", follow_redirects=False).status_code == 303
        assert second.get("/login?token=test-login-token", follow_redirects=False).status_code == 401  # spent
        # 1. a logged-in browser mints another one-time link
        assert second.post("/login/another").status_code == 401
        page = first.post("/login/another")
        assert page.status_code == 200
        link = re.search(r'<pre id="login-link">(\S+)</pre>', page.text).group(1)
        path = link[link.index("/login?") :]
        assert second.get(path, follow_redirects=False).status_code == 303
        assert second.get("/runs").status_code == 200
        assert third.get(path, follow_redirects=False).status_code == 401  # that link is spent too
        # 2. an API key created while the server runs
        assert third.post("/login/key", json={"key": "nope"}).status_code == 401
        assert third.get("/runs").status_code == 401
        secret = create_key(store, "laptop").secret
        r = third.post("/login/key", json={"key": secret})
        assert r.status_code == 200 and "HttpOnly" in r.headers["set-cookie"]
        assert third.get("/runs").status_code == 200


def test_report_run_ids_and_evals_are_links(viewer, env, store):
    rel = env.report.relative_to(env.root / "reports").as_posix()
    page = viewer.get(f"/reports/{rel}").text
    for run in env.runs:
        assert f'href="/runs/{run.id}"' in page, run.id
    # An analysis report: its evals link to that run's eval pages.
    import json
    from pathlib import Path

    from sessionkit import invoke

    run = next(r for r in env.runs if r.model == "sim/overeager" and r.set_name == "none")
    r = invoke("analyze", run.id, "--suite", str(env.root / "suites" / "python"), "--json")
    assert r.exit_code == 0, r.output
    report = Path(json.loads(r.stdout)["report"])
    try:
        page = viewer.get(f"/reports/{report.relative_to(env.root / 'reports').as_posix()}").text
    finally:
        report.unlink()
        report.with_suffix(".json").unlink()
    evals = set(re.findall(r'class="eval-link" href="([^"]+)"', page))
    failed = {x.eval_id for x in store.results(run.id) if x.outcome == "fail"}
    assert evals == {f"/runs/{run.id}/evals/{e}" for e in failed}
    assert viewer.get(sorted(evals)[0]).status_code == 200
    assert f'href="/runs/{run.id}"' in page


def test_no_emoji_or_symbol_glyphs_in_pages(viewer, env, store):
    run = next(r for r in env.runs if r.model == "sim/overeager")
    result = next(r for r in store.results(run.id) if r.outcome == "fail")
    pages = [
        "/runs",
        f"/runs/{run.id}",
        f"/runs/{run.id}/categories/{result.category}",
        f"/runs/{run.id}/evals/{result.eval_id}",
        "/evals?ready=all",
    ]
    for url in pages:
        text = viewer.get(url).text
        bad = {
            c for c in text if 0x2700 <= ord(c) <= 0x27BF or 0x1F000 <= ord(c) <= 0x1FAFF or 0x2600 <= ord(c) <= 0x26FF
        }
        assert not bad, (url, bad)
    assert "<svg" in viewer.get(f"/runs/{run.id}/categories/{result.category}").text


def test_ablation_report_marks_are_words():
    from tuner.ablation import report

    assert all(mark.isascii() for mark in report._MARKS.values()), report._MARKS


def test_run_page_shows_calls_tokens_and_cost(viewer, env, store):
    run = env.runs[0]
    results = store.results(run.id)
    tokens_in = sum(r.prompt_tokens or 0 for r in results if r.attempts != 0)  # a cache hit bought no tokens
    page = viewer.get(f"/runs/{run.id}").text
    usage = page[page.index('<div id="usage">') :]
    usage = usage[: usage.index("</div>")]
    assert f"{tokens_in:,} tokens in" in usage and "cost <b>$0.0000</b>" in usage  # the simulator's price is $0


def test_compare_report_flips_link_to_the_side_by_side_page(viewer, env):
    rel = env.report.relative_to(env.root / "reports").as_posix()
    page = viewer.get(f"/reports/{rel}").text
    runs = {(r.model, r.set_name): r.id for r in env.runs}
    flips = re.findall(r'class="flip-link" href="([^"]+)"', page)
    assert flips
    careful = f"/compare/{runs['sim/careful', 'none']}/{runs['sim/careful', 'all-active']}#"
    overeager = f"/compare/{runs['sim/overeager', 'none']}/{runs['sim/overeager', 'all-active']}#"
    assert all(f.startswith((careful, overeager)) for f in flips), flips
    assert viewer.get(flips[0].split("#")[0]).status_code == 200
