"""`publish` gates against what is published (or the study's baseline) on the study's models, with
fresh samples, says "not enough evidence" rather than "passed", never publishes an outage, refuses a
winner tune withheld, and never overwrites a version (issue 19.1, 19.2, 19.9, 19.10)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow]


def _manifest(suite: Path, version: str | None = None) -> dict:
    base = suite / "guidelines" / "published" / "python_rules"
    return json.loads((base / ("manifest.json" if version is None else f"history/{version}.json")).read_text())


def test_publish_gates_against_the_study_then_the_published_text(cli, py_suite):
    r = cli("tune", "--category", "data", "--json")
    assert r.exit_code == 0, r.output
    study = json.loads(r.stdout)
    assert study["decision"] == "accepted"
    r = cli("tune", "--category", "text", "--json")
    assert json.loads(r.stdout)["decision"] == "no change"

    # The latest *finished* study is the text one, which tune did not accept: refused, nothing written.
    r = cli("publish")
    assert r.exit_code == 1 and "did not accept" in r.output, r.output
    assert not (py_suite / "guidelines" / "published").exists()

    r = cli("publish", "--from", study["study"], "--json")
    assert r.exit_code == 0, r.output
    m = _manifest(py_suite)
    gate = m["gate"]
    assert m["version"] == "1.0.0" and gate["against"] == "the study's baseline"
    from tuner.publish import GATE_BASE

    assert gate["models"] == ["sim/careful (simulator)"] and gate["sample_offset"] >= GATE_BASE
    assert gate["status"] in ("passed", "not enough evidence") and gate["passed"] == (gate["status"] == "passed")
    assert gate["rows"] and all(row["paired"]["pairs"] > 0 and row["infra"] == 0 for row in gate["rows"])
    assert {row["gate"] for row in gate["rows"]} <= {"non-inferior", "not enough evidence"}
    assert {row["category"] for row in gate["rows"]} == {"data", "text"}  # every held-out category has its row
    published_text = (
        py_suite / "guidelines" / "published" / "python_rules" / "history" / "1.0.0.prompt.md"
    ).read_text()
    assert "copy" in published_text.lower()

    # A template edit changes the published bytes: a new version, the old one kept, and the gate's
    # "previous" side is the text published as 1.0.0, not today's recomposition.
    template = py_suite / "guidelines" / "templates" / "default.yaml"
    template.write_text(template.read_text().replace("# Python guidelines", "# Python coding guidelines"))
    r = cli("publish", "--from", study["study"], "--json")
    assert r.exit_code == 0, r.output
    assert _manifest(py_suite)["version"] == "1.0.1" and _manifest(py_suite, "1.0.0")["version"] == "1.0.0"
    assert _manifest(py_suite)["gate"]["against"] == "published 1.0.0"
    from tuner.store import Store

    store = Store.open(f"sqlite:///{Path.cwd() / 'experiments' / 'tuner.db'}", create=False)
    try:
        before_runs = [store.run(rid) for rid in _manifest(py_suite)["run_ids"]]
        texts = {store.prompt_text(run.prompt_hash) for run in before_runs}
    finally:
        store.close()
    assert published_text in texts  # the exact 1.0.0 bytes were sent


def test_publish_with_a_failing_provider_writes_nothing_and_exits_4(cli, py_suite, monkeypatch, server):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-local-000000")
    server.fault_rate, server.timeout_sleep_s = 1.0, 0.6
    panel = Path.cwd() / "experiments" / "down.toml"
    panel.write_text(
        f'[[models]]\nmodel = "openai/faulty"\napi_base = "{server.api_base}"\nmax_retries = 0\ntimeout_s = 0.3\n'
    )
    r = cli("publish", "--from", "all-active", "--panel", "down", "--samples", "1")
    assert r.exit_code == 4, r.output
    assert "not measured" in r.output and "nothing published" in r.output
    assert not (py_suite / "guidelines" / "published").exists()


def test_the_gate_has_a_row_for_every_held_out_category_and_an_empty_one_is_not_measured():
    """Issue 28 (minor): a held-out category without answers had no row, and the gate passed."""
    from types import SimpleNamespace

    from tuner.publish import gate
    from tuner.runs import RunOutcome

    def side(results):
        run = SimpleNamespace(id="r", model="sim/careful", params={})
        return {"k": RunOutcome(run=run, prompt=None, results=results, summary={}, new_calls=0)}

    rows_of = [
        SimpleNamespace(eval_id=f"a/{i}", category="a", sample_index=s, outcome="pass")
        for i in range(3)
        for s in range(40)
    ]
    rows, status = gate([side(rows_of), side(list(rows_of))], 0.15, ["a", "b"])
    assert {r["category"]: r["gate"] for r in rows} == {"a": "non-inferior", "b": "not measured"}
    assert status == "not measured"


def test_a_gate_retried_with_more_samples_continues_one_sequential_test(cli, py_suite):
    """The same candidate against the same other side (here: no guidelines, under two names) is one
    sequence of looks: the first tests non-inferiority at 2/3 of alpha, the retry with more samples
    only at what is left (tuner.publish.gate_looks), and the two levels together stay within alpha."""
    first = cli(
        "publish", "--from", "all-active", "--name", "retry_a", "--model", "sim/careful", "--samples", "2", "--json"
    )
    assert first.exit_code == 0, first.output
    one = json.loads(first.stdout)["manifest"]["gate"]
    assert one["noninferiority_alpha"] == pytest.approx(0.05 * 2 / 3) and len(one["looks"]) == 1
    again = cli(
        "publish", "--from", "all-active", "--name", "retry_b", "--model", "sim/careful", "--samples", "4", "--json"
    )
    assert again.exit_code == 0, again.output
    two = json.loads(again.stdout)["manifest"]["gate"]
    assert two["looks"][0] == one["looks"][0] and len(two["looks"]) == 2
    assert two["noninferiority_alpha"] == pytest.approx(0.05 * (1 - 2 / (3 * 4)) - 0.05 * 2 / 3)
    assert sum(level for _, level in two["looks"]) <= 0.05
    for row in two["rows"]:  # each row's test ran at the look's level, not at alpha
        assert row["noninferiority"]["alpha"] == pytest.approx(two["noninferiority_alpha"])
