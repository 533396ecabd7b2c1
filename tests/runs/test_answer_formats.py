"""Answers as real providers send them, end to end through the CLI (issue 34): the Python suite with
``answer_format = "tool"`` against the local OpenAI-compatible server (tests/models/fake_openai.py)
answering with ``write_file`` tool calls, reasoning fields and a cut-off answer; ``run`` and
``compare`` grade them, the store keeps reasoning and tool calls apart, and ``sessions show``, the
analyst's input and the viewer name a truncation as such."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

TRUNCATED = "truncated at the token limit (finish_reason length)"


@pytest.fixture
def tool_project(scripted_suite, server) -> Path:
    suite = scripted_suite
    manifest = suite / "suite.toml"
    manifest.write_text(manifest.read_text().replace('kind = "pytest"\n', 'kind = "pytest"\nanswer_format = "tool"\n'))

    from tuner.evals import load_suite

    evals = load_suite(suite).evals

    def reply(request: dict) -> dict:
        user = request["messages"][-1]["content"]
        ev = max((e for e in evals if e.task.strip() in user), key=lambda e: len(e.task))
        calls = [
            {"name": "write_file", "arguments": json.dumps({"path": "proj\\" + p.replace("/", "\\"), "content": c})}
            for p, c in ev.answer_files().items()
        ]
        if ev.id.endswith("002-wrap"):  # cut off in the middle of its only call
            return {
                "content": None,
                "tool_calls": [{"name": "write_file", "arguments": calls[0]["arguments"][:60]}],
                "finish_reason": "length",
                "reasoning_content": "Wrapping is greedy.",
            }
        return {"content": "<think>The reference idea.</think>", "tool_calls": calls}

    server.script = reply
    return suite


def test_tool_answers_run_and_compare_end_to_end(cli, tool_project, server):
    r = cli("run", "--panel", "local", "--category", "text", "--json")
    assert r.exit_code == 0, r.output
    [run] = json.loads(r.stdout)
    bodies = server.bodies["scripted"]
    assert bodies and all(
        b["tools"][0]["function"]["name"] == "write_file" and b["tool_choice"] == "auto" for b in bodies
    )
    assert all("`write_file` tool" in b["messages"][-1]["content"] for b in bodies)

    from tuner.store import Store

    store = Store.open(f"sqlite:///{tool_project.parents[1] / 'experiments' / 'tuner.db'}", create=False)
    try:
        results = {r.eval_id: r for r in store.results(run["run"])}
    finally:
        store.close()
    wrap = results.pop("001-text/002-wrap")
    assert all(r.outcome == "pass" for r in results.values()), {k: (r.failed_step, r.steps) for k, r in results.items()}
    slug = results["001-text/001-slugify"]
    assert slug.reasoning == "The reference idea." and slug.output == "" and slug.tool_calls[0]["name"] == "write_file"
    assert list(slug.files) == ["app/slugify.py"]  # the project folder and the backslashes are read through
    assert wrap.outcome == "fail" and wrap.steps[0].detail == TRUNCATED and wrap.reasoning == "Wrapping is greedy."

    # sessions show names the truncation; analyze's input tells its analyst the answer is incomplete.
    shown = cli("sessions", "show", wrap.response_key.removeprefix("sha256:")[:12])
    assert shown.exit_code == 0, shown.output
    assert f"Error: {TRUNCATED}" in shown.stdout and "Finish: length" in shown.stdout
    assert "**Reasoning:** Wrapping is greedy." in shown.stdout
    as_json = json.loads(cli("sessions", "show", wrap.response_key, "--json").stdout)
    assert as_json["stopped"] == TRUNCATED and as_json["messages"][-1]["tool_calls"]

    from tuner.analysis.analyst import analyst_inputs
    from tuner.analysis.failures import summarise
    from tuner.evals import load_suite

    store = Store.open(f"sqlite:///{tool_project.parents[1] / 'experiments' / 'tuner.db'}", create=False)
    try:
        summary = summarise(store, load_suite(tool_project), store.run(run["run"]))
    finally:
        store.close()
    [failure] = summary.failures
    assert failure.reason == TRUNCATED and analyst_inputs(failure)["model_output"].startswith(
        f"(the answer is incomplete: {TRUNCATED})"
    )

    # The viewer's eval and session pages show the reason and the reasoning.
    from fastapi.testclient import TestClient

    from tuner.paths import find_project
    from tuner.web import Login, create_app

    store = Store.open(f"sqlite:///{tool_project.parents[1] / 'experiments' / 'tuner.db'}", create=False)
    try:
        with TestClient(create_app(store, find_project(), Login("t-login")), base_url="http://127.0.0.1") as viewer:
            assert viewer.get("/login?token=t-login", follow_redirects=False).status_code == 303
            page = viewer.get(f"/runs/{run['run']}/evals/001-text/002-wrap").text
            assert TRUNCATED in page and "data-reasoning" in page and "Wrapping is greedy." in page
            assert "Tool calls" in page
            page = viewer.get(f"/sessions/{wrap.response_key.removeprefix('sha256:')}").text
            assert f'<p class="error" data-stopped>{TRUNCATED}</p>' in page and "Wrapping is greedy." in page
    finally:
        store.close()

    calls = len(bodies)
    r = cli(
        "compare",
        "--panel",
        "local",
        "--category",
        "text",
        "--before",
        "none",
        "--after",
        "all-active",
        "--samples",
        "1",
        "--json",
    )
    assert r.exit_code == 0, r.output  # the same answers before and after: no change, every pair measured
    out = json.loads(r.stdout)
    assert len(server.bodies["scripted"]) > calls  # the second prompt was asked, through the tool format
    [cell] = out["cells"]
    assert cell["tasks"] == 4 and cell["pairs"] >= 4 and cell["delta"] == 0 and out["not_measured"] == []
    assert cell["before"]["rate"] == cell["after"]["rate"] == 0.75  # 3 of 4 pass; the cut-off one fails


def test_the_answer_format_is_part_of_run_identity(tool_project):
    from tuner.models import ModelSpec
    from tuner.runs import Harness
    from tuner.runs.runner import inputs_hash

    spec = ModelSpec(model="openai/scripted", api_base="http://127.0.0.1:1/v1")
    hashes = []
    for fmt in ("tool", "text"):
        manifest = tool_project / "suite.toml"
        manifest.write_text(re.sub(r'answer_format = "\w+"', f'answer_format = "{fmt}"', manifest.read_text()))
        with Harness() as h:
            hashes.append((inputs_hash(h, spec), h.suite.hash, h.suite.answer_tools()))
    (tool_hash, tool_suite, tools), (text_hash, text_suite, no_tools) = hashes
    assert tools and no_tools is None
    assert tool_hash != text_hash and tool_suite != text_suite
