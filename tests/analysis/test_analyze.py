"""`tuner analyze RUN` end to end: the simulated analyst offline, a real analyst on the local server."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow]

SECTIONS = [
    "## Failure summary",
    "## Overall",
    "## Classifications",
    "## Cross-cutting patterns",
    "## Recommendations",
    "### Eval improvements",
    "### Lint or config changes",
    "### Model-specific notes",
    "### No action needed",
    "## Net impact",
]


def _today() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d")


def _store():
    from tuner.paths import find_project
    from tuner.store import Store

    return Store.open(find_project().db_url())


def test_simulated_analyst_report_sections_path_and_store(cli, py_project, sim_run):
    # Sample 0 of the empty prompt happens to pass every text eval: nothing to analyse, nothing written.
    passed = sim_run("--guidelines", "none", "--category", "text")
    r = cli("analyze", passed)
    assert r.exit_code == 0 and "all 4 results passed" in r.stdout and not (py_project / "reports").exists()
    run_id = sim_run("--guidelines", "none", "--category", "text", "--samples", "2")
    r = cli("analyze", run_id[7:13])  # a unique prefix
    assert r.exit_code == 0, r.output
    path = py_project / "reports" / "sim" / "careful" / f"{run_id[7:15]}_{_today()}.md"
    text = path.read_text()
    # The terminal gets a summary and the report's path (issue 33: the report is a file, 100s of lines).
    lines = r.stdout.splitlines()
    assert len(lines) <= 8 and lines[-1].startswith(f"report: {path}") and "# Failure analysis" not in r.stdout
    assert lines[0].startswith(f"run {run_id[7:19]} · sim/careful") and "failed of" in lines[0]
    assert re.search(r"classified \d+ failed evals? \(sim/analyst \(simulated\)\): \d+ MODEL_FAULT", r.stdout)
    positions = [text.index(s) for s in SECTIONS]
    assert positions == sorted(positions)
    assert "simulated" in text.splitlines()[2]
    body = json.loads(path.with_suffix(".json").read_text())
    assert body["simulated_analyst"] and body["run_id"] == run_id and body["totals"]["failed"] > 0
    # The simulated analyst follows the planted truth: each failure's root cause is the first gap
    # the simulator says it planted in that answer, and with no rules in the prompt it is a MODEL_FAULT.
    store = _store()
    try:
        results = {r.eval_id: r for r in store.results(run_id)}
        from tuner.store.reports import list_reports

        [recorded] = list_reports(store, kind="analysis")
    finally:
        store.close()
    assert body["verdicts"]
    for v in body["verdicts"]:
        label = re.search(r"planted gaps ([^)]*)\)", results[v["eval_id"]].output).group(1)
        assert v["classification"] == "MODEL_FAULT" and v["root_cause"] == label.split(", ")[0]
        assert v["problematic"] != v["expected"]
    assert (
        recorded.path == f"reports/sim/careful/{run_id[7:15]}_{_today()}.md" and recorded.author_model == "sim/analyst"
    )
    assert recorded.body["verdicts"] == body["verdicts"]
    assert not (py_project.parent / "home" / ".dspy_cache").exists()
    # A viewer URL names the same run; a second analysis the same day is kept beside the first (_2).
    again = cli("analyze", f"http://127.0.0.1:8000/run/{run_id}/evals?x=1")
    assert again.exit_code == 0, again.output
    second = path.with_name(f"{path.stem}_2.md")
    assert sorted(p.name for p in path.parent.iterdir()) == sorted(
        [path.with_suffix(".json").name, path.name, second.name, second.with_suffix(".json").name]
    )


def test_recurrence_against_an_earlier_report(cli, py_project, sim_run):
    from tuner.analysis import analyze_run
    from tuner.paths import find_project

    first = sim_run("--guidelines", "none", "--category", "text", "--samples", "2")
    second = sim_run("--guidelines", "none", "--category", "text", "--samples", "3")
    store = _store()
    try:
        old = analyze_run(find_project(), store, first, analyst="sim/analyst", date="2026-01-01")
        new = analyze_run(find_project(), store, second, analyst="sim/analyst", date="2026-02-01")
    finally:
        store.close()
    assert old.body["repeats"] == []
    failed_before = {v["eval_id"] for v in old.body["verdicts"]}
    repeats = {r["eval_id"]: r for r in new.body["repeats"]}
    assert repeats and set(repeats) <= failed_before
    for r in repeats.values():
        assert r["earlier"][0]["report"] == f"{first[7:15]}_2026-01-01.json"
        # The earlier report recommended a rule for these failures (propose); they recur.
        assert f"tuner propose --category text --run {first[7:15]} --suite " in r["recommendation"]
    assert "- repeat: " in new.markdown and "an earlier recommendation should have fixed it" in new.markdown


def test_ambiguous_prefix_lists_candidates_and_bad_input_writes_nothing(cli, py_project, sim_run):
    run_id = sim_run("--guidelines", "none", "--category", "text", "--samples", "2")
    from tuner.analysis import resolve_run
    from tuner.errors import InputError
    from tuner.store.schema import RunRow

    store = _store()
    try:
        with store.session() as s:  # a second run whose id shares the first 6 digits
            row = s.get(RunRow, run_id)
            s.add(
                RunRow(
                    **{
                        c: getattr(row, c)
                        for c in (
                            "prompt_hash",
                            "set_name",
                            "model",
                            "model_key",
                            "params",
                            "suite",
                            "suite_hash",
                            "grader_hash",
                            "eval_ids",
                            "samples",
                        )
                    },
                    id=run_id[:13] + "f" * 10,
                    status="complete",
                )
            )
        with pytest.raises(InputError, match="ambiguous: "):
            resolve_run(store, run_id[7:13])
    finally:
        store.close()
    r = cli("analyze", run_id[7:13])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and run_id[7:19] in r.stderr
    for bad in (["--analyst", "gpt4"], ["--analyst", "sim/careful"], ["--analyst", "nosuchprovider/x"]):
        r = cli("analyze", run_id, *bad)
        assert r.exit_code == 2 and r.stderr.count("\n") == 1, (bad, r.output)
    assert cli("analyze", "zz-not-hex").exit_code == 2
    assert not (py_project / "reports").exists()


def test_unreachable_analyst_writes_nothing(cli, py_project, sim_run, server):
    run_id = sim_run("--guidelines", "none", "--category", "text", "--samples", "2")
    r = cli("analyze", run_id, "--analyst", "openai/auth", "--api-base", server.api_base)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "could not be reached" in r.stderr, r.output
    assert "sk-abcdef1234567890XYZ" not in r.stderr and server.counts["auth"] > 0
    assert not (py_project / "reports").exists()


def test_real_analyst_on_local_server_bounded_to_4(cli, py_project, sim_run, server):
    run_id = sim_run("--guidelines", "none", "--samples", "2")  # both categories: more failed evals than the bound
    r = cli("analyze", run_id, "--analyst", "openai/analyst", "--api-base", server.api_base, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    failed = len(out["body"]["failures"])
    assert failed > 4
    assert server.counts["analyst"] == failed and server.max_in_flight == 4
    assert {v["classification"] for v in out["body"]["verdicts"]} == {"MODEL_FAULT"}
    assert out["body"]["analyst"] == "openai/analyst" and not out["body"]["simulated_analyst"]
    assert "simulated" not in (py_project / out["report"]).read_text().splitlines()[2]
    # DSPy wrote no disk cache (an answer could carry a key), neither in $HOME nor in ours.
    import os

    ours = Path(os.environ["TUNER_CACHE_DIR"]) / "dspy"
    assert not ours.exists() or not any(p.is_file() for p in ours.rglob("*"))
    assert not (py_project.parent / "home" / ".dspy_cache").exists()
    # The analyst was sent an analysis prompt (DSPy's fields), not the code-answer format.
    sent = json.dumps(server.bodies["analyst"][0]["messages"])
    assert "classification" in sent and "MODEL_FAULT" in sent and "reference_answer" in sent


def test_malformed_answer_retried_once_then_unclassified(cli, py_project, sim_run, server):
    run_id = sim_run("--guidelines", "none", "--category", "text", "--samples", "2")
    r = cli("analyze", run_id, "--analyst", "openai/analyst-malformed", "--api-base", server.api_base, "--json")
    assert r.exit_code == 0, r.output
    body = json.loads(r.stdout)["body"]
    n = len(body["failures"])
    assert server.counts["analyst-malformed"] == 2 * n  # one retry each, no more
    for v in body["verdicts"]:
        assert v["classification"] == "UNCLASSIFIED" and "PROBABLY_FINE" in v["raw"] and v["reasoning"] == ""
    assert body["unclassified"] == n and body["counts"]["MODEL_FAULT"] == 0


def test_api_key_never_reaches_report_or_store(cli, py_project, sim_run, server, monkeypatch):
    secret = "sk-test-SECRET-analyst-9f8e7d6c5b4a"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    run_id = sim_run("--guidelines", "none", "--category", "text", "--samples", "2")
    r = cli("analyze", run_id, "--analyst", "openai/analyst-echo", "--api-base", server.api_base)
    assert r.exit_code == 0, r.output
    assert server.counts["analyst-echo"] > 0
    assert secret not in r.output
    written = [p for p in (py_project / "reports").rglob("*") if p.is_file()]
    assert any("the key is ***" in p.read_text() for p in written if p.suffix == ".md")  # the server did echo it
    written += list((py_project / "experiments").glob("tuner.db*"))
    assert len(written) >= 3 and all(secret.encode() not in p.read_bytes() for p in written)
