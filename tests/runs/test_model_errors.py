"""A run that cannot reach its model says so: auth stops at once, incomplete exits non-zero,
unknown models are refused before anything is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = [pytest.mark.node, pytest.mark.slow]


def _panel(project: Path, name: str, model: str, api_base: str) -> None:
    (project / "experiments" / f"{name}.toml").write_text(
        f'[[models]]\nmodel = "{model}"\napi_base = "{api_base}"\nmax_retries = 1\nbackoff_s = 0.01\ntimeout_s = 5\n'
    )


def test_authentication_failure_stops_at_once_naming_model_and_variable(cli, live_project, server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong-0000000000")
    _panel(live_project, "bad", "openai/auth", server.api_base)
    r = cli("run", "--panel", "bad", "--category", "queries")
    assert r.exit_code == 2, r.output
    error = [line for line in r.stderr.splitlines() if line.startswith("tuner: error:")]
    assert len(error) == 1 and error[0] == r.stderr.strip().splitlines()[-1]  # one line, last
    assert "openai/auth" in r.stderr and "authentication failed" in r.stderr and "OPENAI_API_KEY" in r.stderr
    assert server.counts["auth"] == 1  # the first 401 stopped every other call to that model
    assert "sk-wrong" not in r.output


def test_incomplete_run_groups_failures_by_cause_and_exits_4(cli, live_project, server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-local-000000")
    _panel(live_project, "down", "openai/r500", server.api_base)
    r = cli("run", "--panel", "down", "--category", "clients")
    assert r.exit_code == 4, r.output
    assert "incomplete" in r.stdout and "InternalServerError (500)" in r.stdout
    assert "run the same command" in r.stderr
    r = cli("run", "--panel", "down", "--category", "clients", "--json")
    assert r.exit_code == 4
    [out] = json.loads(r.stdout)
    assert out["status"] == "partial" and sum(out["infra_causes"].values()) == out["categories"]["clients"]["infra"] > 0


@pytest.mark.parametrize("model", ["sim/nosuch", "nosuchprovider/x"])
def test_unknown_model_writes_nothing(cli, live_project, model):
    experiments = live_project / "experiments"
    before = {p for p in experiments.rglob("*")}
    cache = Path(__import__("os").environ["TUNER_CACHE_DIR"])
    cache_before = set(cache.rglob("*")) if cache.exists() else set()
    r = cli("run", "--model", model, "--category", "queries")
    assert r.exit_code == 2, r.output
    assert model in r.stderr and r.stderr.count("\n") == 1
    assert {p for p in experiments.rglob("*")} == before  # no store file, no run row left "running"
    assert (set(cache.rglob("*")) if cache.exists() else set()) == cache_before
