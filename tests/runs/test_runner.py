"""`tuner run` end to end: results stored, resumable, infra failures excluded, secrets kept out."""

import json

import pytest

from tuner.evals import load_suite
from tuner.paths import find_project

pytestmark = [pytest.mark.node, pytest.mark.slow]


def test_run_records_and_rerun_costs_nothing(cli, live_project):
    r = cli("run", "--model", "sim/careful", "--category", "queries", "--samples", "2", "--json")
    assert r.exit_code == 0, r.output
    [first] = json.loads(r.stdout)
    assert first["status"] == "complete" and set(first["categories"]) == {"queries"}
    q = first["categories"]["queries"]
    n = len(load_suite(find_project()).select(category="queries"))
    assert q["pass"] + q["fail"] == 2 * n and q["infra"] == 0
    again = json.loads(
        cli("run", "--model", "sim/careful", "--category", "queries", "--samples", "2", "--json").stdout
    )[0]
    assert again["run"] == first["run"]
    assert again["calls"]["provider_calls"] == 0 and again["calls"]["kept"] == 2 * n
    assert again["categories"] == first["categories"]


def test_provider_outage_is_infra_and_secrets_stay_out(cli, live_project, monkeypatch):
    secret = "sk-test-DO-NOT-STORE-0123456789abcdef"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    (live_project / "experiments" / "down.toml").write_text(
        '[[models]]\nmodel = "openai/nobody"\napi_base = "http://127.0.0.1:9/v1"\nmax_retries = 1\nbackoff_s = 0.01\ntimeout_s = 5\n'
    )
    r = cli("run", "--panel", "down", "--category", "clients", "--json")
    assert r.exit_code == 4, r.output  # incomplete: resumable, and said so
    [out] = json.loads(r.stdout)
    c = out["categories"]["clients"]
    n = len(load_suite(find_project()).select(category="clients"))
    assert c["infra"] == n and c["pass"] == c["fail"] == 0 and c["pass_rate"] is None
    assert out["status"] == "partial"
    stored = b"".join(p.read_bytes() for p in (live_project / "experiments").rglob("*") if p.is_file())
    assert stored and secret.encode() not in stored and secret not in r.output


def test_unknown_set_and_model_string(cli, live_project):
    r = cli("run", "--guidelines", "nope")
    assert r.exit_code == 2 and "unknown set 'nope'" in r.stderr
    r = cli("run", "--model", "gpt4")
    assert r.exit_code == 2 and "gpt4" in r.stderr and r.stderr.count("\n") == 1
