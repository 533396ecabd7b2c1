"""A plan before spending and one cap over the whole command (issue 22), against a local provider
(tests/models/fake_openai.py counts every call) on the Python suite (pytest grading, no Node)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def py_project(tmp_path, monkeypatch, server) -> str:
    root = tmp_path / "proj"
    shutil.copytree(ROOT / "suites" / "python", root / "suites" / "python")
    for d in ("guidelines", "evals", "experiments"):
        (root / d).mkdir()
    (root / "experiments" / "local.toml").write_text(
        f'[[models]]\nmodel = "openai/steady"\napi_base = "{server.api_base}"\nmax_retries = 0\ntimeout_s = 10\n'
    )
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-local-000000")
    monkeypatch.setenv("TUNER_HOME", str(root))
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TUNER_DB", f"sqlite:///{root / 'experiments' / 'tuner.db'}")
    monkeypatch.delenv("TUNER_SUITE", raising=False)
    monkeypatch.chdir(root)
    return str(root / "suites" / "python")


def _calls(server) -> int:
    return sum(server.counts.values())


def _runs(root: Path) -> int:
    db = root / "experiments" / "tuner.db"
    if not db.is_file():
        return 0
    from tuner.store import Store

    store = Store.open(f"sqlite:///{db}", create=False)
    try:
        return len(store.runs())
    finally:
        store.close()


@pytest.mark.parametrize(
    "command",
    [
        ["run", "--samples", "2"],
        ["compare", "--before", "none", "--after", "all-active", "--samples", "2"],
        ["ablate", "--design", "loo"],
        ["ablate", "--design", "screening", "--runs", "2"],  # its cells are design points, not runs
    ],
)
def test_plan_calls_nothing_and_bounds_what_the_command_then_calls(cli, py_project, server, command):
    args = [*command, "--suite", py_project, "--panel", "local"]
    r = cli(*args, "--plan", "--json")
    assert r.exit_code == 0, r.output
    plan = json.loads(r.stdout)
    assert _calls(server) == 0 and _runs(Path.cwd()) == 0
    assert plan["calls_at_most"] > 0 and plan["tokens_in"] > plan["calls_at_most"] and plan["tokens_out"] > 0
    assert plan["prices"] == [{"model": "openai/steady", "input_per_mtok": None, "output_per_mtok": None}]
    assert plan["cost_usd"] is None  # a model litellm has no price for is "unknown", never $0

    r = cli(*args, "--json")
    assert r.exit_code in (0, 1), r.output  # 1: compare may call a change significant
    assert 0 < _calls(server) <= plan["calls_at_most"]
    out = json.loads(r.stdout)
    spent = out[0]["command_spent"] if isinstance(out, list) else out["spent"]
    assert spent["calls"] == _calls(server) and spent["tokens_in"] > 0


def test_the_plan_is_printed_before_the_first_call(cli, py_project, server):
    r = cli("run", "--suite", py_project, "--panel", "local", "--category", "text")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("plan: run makes at most 4 provider calls")
    assert "price openai/steady: unknown" in r.stdout and "spent: 4 provider calls" in r.stdout


def test_a_call_cap_stops_the_command_and_the_same_command_goes_on(cli, py_project, server):
    args = ["run", "--suite", py_project, "--panel", "local", "--samples", "2"]
    r = cli(*args, "--budget-calls", "5")
    assert r.exit_code == 4, r.output
    assert "budget spent" in r.output
    assert _calls(server) == 5
    r = cli(*args, "--budget-calls", "100", "--json")
    assert r.exit_code == 0, r.output
    assert _calls(server) == 16  # 8 evals x 2 samples, none bought twice
    [run] = json.loads(r.stdout)
    assert run["calls"]["kept"] == 5 and run["command_spent"]["calls"] == 11


def test_the_cap_is_shared_by_every_phase_of_tune(cli, py_project, server):
    # The baseline takes 12 calls (4 samples x 3 data evals), the screening half the cap (10): the
    # cap refuses the screening's ninth call, and the command stops there, resumable.
    r = cli("tune", "--suite", py_project, "--panel", "local", "--category", "data", "--budget-calls", "20")
    assert r.exit_code == 4, r.output
    assert "budget spent" in r.output
    assert _calls(server) == 20


def test_a_dollar_cap_needs_a_known_price(cli, py_project, server):
    r = cli("run", "--suite", py_project, "--panel", "local", "--budget-usd", "1")
    assert r.exit_code == 2
    assert "--budget-usd" in r.output and "openai/steady" in r.output
    assert _calls(server) == 0


def test_tune_plan_lists_every_phase_within_the_default_cap_and_calls_nothing(cli, py_project, server):
    r = cli("tune", "--suite", py_project, "--panel", "local", "--category", "data", "--plan", "--json")
    assert r.exit_code == 0, r.output
    plan = json.loads(r.stdout)
    assert _calls(server) == 0 and _runs(Path.cwd()) == 0
    names = [p["name"].split(":")[0] for p in plan["phases"]]
    assert names == ["baseline", "screen", "regression check", "regression check", "confirmation"]
    assert plan["cap"]["calls"] == plan["calls_at_most"] == sum(p["calls"] for p in plan["phases"])
    # the baseline and the screening always run; the check and the confirmation only on a finding
    assert [bool(p["only_if"]) for p in plan["phases"]] == [False, False, True, True, True]
    assert plan["calls_always"] == plan["phases"][0]["calls"] + plan["phases"][1]["calls"]
    r = cli("tune", "--suite", py_project, "--panel", "local", "--category", "data", "--plan")
    assert f"of these, {plan['calls_always']:,} always" in r.stdout


def test_tune_plans_cached_tokens_for_its_phases_of_few_prompts(cli, py_project, server, monkeypatch):
    """The baseline (one prompt), the regression check (two, then one) and the confirmation (two)
    repeat their prompts, so a caching provider reads them cached after each one's first call; the
    screening's engine gives every call a prompt of its own: none counted."""
    from tuner.runs import plan as plan_module

    monkeypatch.setattr(plan_module, "CACHE_MIN_TOKENS", 0)  # the small suite's prompt counts as long enough
    r = cli("tune", "--suite", py_project, "--panel", "local", "--category", "data", "--plan", "--json")
    assert r.exit_code == 0, r.output
    phases = json.loads(r.stdout)["phases"]
    baseline, screen, check, alone, confirmation = phases
    per_call = baseline["tokens_in_cached"] // (baseline["calls"] - 1)  # the system prompt's tokens
    assert per_call > 0 and screen["tokens_in_cached"] == 0
    for phase, prompts in ((baseline, 1), (check, 2), (alone, 1), (confirmation, 2)):
        assert phase["tokens_in_cached"] == per_call * (phase["calls"] - prompts), phase["name"]


def _faulty_panel(server, retries: int = 3) -> None:
    server.fault_rate, server.timeout_sleep_s = 0.5, 1.5
    (Path.cwd() / "experiments" / "faulty.toml").write_text(
        f'[[models]]\nmodel = "openai/faulty"\napi_base = "{server.api_base}"\nmax_retries = {retries}\n'
        "timeout_s = 1\nbackoff_s = 0.01\n"
    )


@pytest.mark.parametrize(
    "command",
    [
        ["run", "--samples", "2"],
        ["ablate", "--category", "text"],  # the adaptive design, rounds of its own choosing
    ],
)
def test_retries_are_calls_and_never_overrun_the_cap(cli, py_project, server, command):
    """Half the provider's answers fail (429, 5xx, timeouts, resets, bad bodies): every retry is a
    call the cap must grant, so the provider never sees more requests than the cap, and the
    command's summary counts exactly what it saw."""
    _faulty_panel(server)
    r = cli(*command, "--suite", py_project, "--panel", "faulty", "--budget-calls", "9", "--json")
    assert r.exit_code == 4, r.output
    assert "budget spent" in r.output and "tokens in" in r.output and "cost unknown" in r.output
    first = _calls(server)
    assert 0 < first <= 9 and sum(server.faults.values()) >= 3  # retries happened, within the cap
    r = cli(*command, "--suite", py_project, "--panel", "faulty", "--budget-calls", "20", "--json")
    assert r.exit_code in (0, 4), r.output
    assert 0 < _calls(server) - first <= 20  # a second command has its own cap, retries included


def test_spent_reports_calls_tokens_and_cost_with_retries(cli, py_project, server):
    _faulty_panel(server)
    r = cli("run", "--suite", py_project, "--panel", "faulty", "--category", "text", "--json")
    assert r.exit_code in (0, 4), r.output
    [run] = json.loads(r.stdout)
    spent = run["command_spent"]
    assert spent["calls"] == _calls(server) > 4  # 4 requests, their retries counted as calls
    assert spent["tokens_in"] > 0 and spent["tokens_out"] > 0 and spent["cost_usd"] is None  # unknown price
