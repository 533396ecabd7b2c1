"""CLI details a reviewer meets (issue 21): help text, report names, the propose summary,
analysis reports that keep their reasoning whole."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def invoke(*args: str):
    from typer.testing import CliRunner

    from tuner.cli.main import app

    return CliRunner().invoke(app, list(args))


def test_help_shows_no_value_for_flags():
    for args in (["--help"], ["runs", "list", "--help"], ["sessions", "list", "--help"], ["compare", "--help"]):
        r = invoke(*args)
        assert r.exit_code == 0, r.output
        assert "<bool>" not in r.output, args
    assert "<int" in invoke("runs", "list", "--help").output  # options that take a value still say what


@pytest.fixture(scope="module")
def py_project(tmp_path_factory):
    """The Python suite (small, pytest-graded) in a project of its own, with a store."""
    root = tmp_path_factory.mktemp("reviewer") / "proj"
    shutil.copytree(REPO / "guidelines", root / "guidelines")
    (root / "evals").symlink_to(REPO / "evals", target_is_directory=True)
    (root / "experiments").mkdir()
    shutil.copytree(REPO / "suites" / "python", root / "py", ignore=shutil.ignore_patterns("__pycache__", "broken"))
    mp = pytest.MonkeyPatch()
    home = root.parent / "home"
    home.mkdir()
    mp.setenv("HOME", str(home))
    mp.setenv("TUNER_HOME", str(root))
    mp.setenv("TUNER_SUITE", str(root / "py"))
    mp.setenv("TUNER_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "reviewer-cache"))
    mp.setenv("TUNER_DB", f"sqlite:///{root / 'experiments' / 'tuner.db'}")
    mp.chdir(root)
    yield root
    mp.undo()


def _run(*args: str) -> str:
    r = invoke("run", "--model", "sim/careful", *args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)[0]["run"]


def test_ablate_of_a_set_file_writes_a_flat_report_named_by_its_stem(py_project):
    pool = py_project / "some" / "where" / "pool.yaml"
    pool.parent.mkdir(parents=True)
    shutil.copy(py_project / "py" / "guidelines" / "sets" / "all-active.yaml", pool)
    r = invoke("ablate", "--set", str(pool), "--design", "loo", "--category", "text", "-k", "1", "--json")
    assert r.exit_code == 0, r.output
    md = Path(json.loads(r.stdout)["report"])
    assert md.parent == py_project / "reports" / "ablate" and md.name.startswith("loo_pool_"), md
    assert md.is_file() and md.with_suffix(".json").is_file()


def test_second_analysis_the_same_day_keeps_the_first_and_reasoning_is_whole(py_project):
    run = _run("--guidelines", "none", "--category", "text", "--samples", "2")
    first = json.loads(invoke("analyze", run, "--json").stdout)
    r = invoke("analyze", run, "--json")
    assert r.exit_code == 0, r.output
    second = json.loads(r.stdout)
    a, b = Path(first["report"]), Path(second["report"])
    assert a != b and a.is_file() and b.is_file() and b.stem == a.stem + "_2"
    assert b.with_suffix(".json").is_file()
    # The verdict table carries each reasoning as the analyst wrote it (whitespace joined), never cut.
    text = b.read_text()
    for v in second["body"]["verdicts"]:
        assert " ".join(v["reasoning"].split()).replace("|", "\\|") in text
    assert "…" not in "".join(line for line in text.splitlines() if line.startswith("| ") and "**" in line)


def test_reasoning_column_is_not_cut():
    from tuner.analysis.report import _cell

    long = "because " * 80
    assert _cell(long, None) == long.strip() and not _cell(long, None).endswith("…")


def test_propose_ends_with_a_count_and_names_the_eval_of_each_skip(py_project):
    _run("--guidelines", "none", "--category", "text", "--samples", "2")
    r = invoke("propose", "--category", "text")
    assert r.exit_code == 0, r.output
    lines = [line for line in r.stdout.splitlines() if line.strip()]
    skips = [line for line in lines if line.startswith("skipped")]
    written = [line for line in lines if line.startswith("wrote")]
    assert skips, r.stdout
    assert any(f"{len(written)} written, {len(skips)} skipped" == line for line in lines), r.stdout
    assert all("skipped ''" not in line for line in skips)
    assert all("from " in line or "the draft for " in line for line in skips), skips


def test_runs_list_and_show_report_calls_tokens_and_cost(py_project):
    from tuner.store import Store

    run = _run("--guidelines", "all-active", "--category", "data", "--samples", "1")  # not yet cached here
    store = Store.open(f"sqlite:///{py_project / 'experiments' / 'tuner.db'}")
    try:
        results = store.results(run)
        # Tokens of the answers a call was made for (a cache hit bought none), as the spent line counts them.
        expected_tokens = sum((r.prompt_tokens or 0) + (r.completion_tokens or 0) for r in results if r.attempts != 0)
        expected_calls = sum(r.attempts or 0 for r in results)
    finally:
        store.close()
    assert expected_tokens > 0 and expected_calls > 0
    listed = next(x for x in json.loads(invoke("runs", "list", "--json", "-n", "50").stdout) if x["id"] == run)
    assert listed["usage"]["tokens"] == expected_tokens and listed["usage"]["calls"] == expected_calls
    assert listed["usage"]["cost_usd"] == 0.0  # the simulator's price is $0, as the plan and the spent line say
    shown = json.loads(invoke("runs", "show", run[7:19], "--json").stdout)
    assert shown["usage"] == listed["usage"]
    text = invoke("runs", "show", run[7:19]).stdout
    assert "provider calls" in text and "cost $0.0000" in text
    # A model litellm does not price: priced answers are summed; one unpriced answer makes the total
    # unknown rather than too low.
    store = Store.open(f"sqlite:///{py_project / 'experiments' / 'tuner.db'}")
    try:
        from tuner.store.schema import RunRow

        with store.session() as s:
            s.get(RunRow, run).model = "openai/unpriced-model"
        paid = [r for r in results if r.attempts != 0]
        priced = [r.model_copy(update={"cost_usd": 0.001}) for r in paid]
        store.record_results(run, priced)
        assert json.loads(invoke("runs", "show", run, "--json").stdout)["usage"]["cost_usd"] == pytest.approx(
            0.001 * len(paid)
        )
        store.record_results(run, [priced[0].model_copy(update={"cost_usd": None})])
        assert json.loads(invoke("runs", "show", run, "--json").stdout)["usage"]["cost_usd"] is None
        assert ">= $" in invoke("runs", "show", run).stdout
    finally:
        store.close()
