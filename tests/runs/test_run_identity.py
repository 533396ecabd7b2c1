"""Everything that reaches a model or decides a simulated answer is in the run id (issue 19.5), and
a stored run's model is called again as it was (issue 19.11)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow]


@pytest.fixture
def py_suite(py_suite, tmp_path, monkeypatch) -> Path:
    """The shared Python-suite project, with caches of its own: these tests count what is called."""
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    return py_suite


def _run(cli) -> dict:
    r = cli("run", "--guidelines", "none", "--samples", "2", "--json")
    assert r.exit_code == 0, r.output
    [run] = json.loads(r.stdout)
    return run


def test_editing_the_planted_truth_makes_a_new_run_with_new_answers(cli, py_suite):
    first = _run(cli)
    assert first["overall"]["pass_rate"] < 1  # sim/careful makes its planted mistakes without rules
    profiles = py_suite / "sim" / "profiles.yaml"
    text = profiles.read_text()
    careful, rest = text.split("  overeager:", 1)
    profiles.write_text(re.sub(r"(\n      [a-z.-]+): [0-9.]+", r"\1: 0", careful) + "  overeager:" + rest)
    second = _run(cli)
    assert second["run"] != first["run"]
    assert second["overall"]["pass_rate"] == 1.0  # every gap at 0: nothing stale replayed


def test_the_answer_format_text_is_in_the_run_id(py_suite, monkeypatch):
    from tuner.models import ModelSpec
    from tuner.runs import Harness
    from tuner.runs.runner import inputs_hash

    with Harness() as h:
        spec = ModelSpec(model="sim/careful")
        before = inputs_hash(h, spec)
        monkeypatch.setattr(type(h.suite.kind), "output_format", lambda self: "Answer in one fenced block.")
        assert inputs_hash(h, spec) != before
        assert inputs_hash(h, ModelSpec(model="openai/gpt-x")) != inputs_hash(h, spec)


def test_compare_against_a_stored_run_calls_its_model_as_it_was(cli, py_suite, monkeypatch, server):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-local-000000")
    panel = Path.cwd() / "experiments" / "local.toml"
    panel.write_text(
        f'[[models]]\nmodel = "openai/steady"\napi_base = "{server.api_base}"\nmax_retries = 0\n'
        "timeout_s = 5\nconcurrency = 3\n"
    )
    r = cli("run", "--guidelines", "none", "--panel", "local", "--samples", "1", "--json")
    assert r.exit_code == 0, r.output
    [run] = json.loads(r.stdout)
    calls = len(server.calls)
    r = cli("compare", "--before", run["run"], "--after", "all-active", "--json")
    # Before the fix the after side went to the provider's default endpoint without api_base.
    assert r.exit_code == 0, r.output
    assert len(server.calls) > calls
    data = json.loads(r.stdout)
    assert data["not_measured"] == [] and data["after"]["runs"]
