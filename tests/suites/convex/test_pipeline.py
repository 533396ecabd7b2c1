from __future__ import annotations

from pathlib import Path

import pytest

import counter_variants as variants
from convexkit import BROKEN, broken_cases
from tuner.evals import load_suite
from tuner.grading import GradeRequest, sandbox
from tuner.suites import grade
from tuner.suites.convex import STEP_NAMES

pytestmark = pytest.mark.node


def _steps(result) -> dict[str, str]:
    return {s.name: s.status for s in result.steps}


def _fails_exactly_at(result, step: str) -> None:
    statuses = _steps(result)
    index = STEP_NAMES.index(step)
    assert not result.passed
    assert [statuses[n] for n in STEP_NAMES[:index]] == ["pass"] * index, result.steps
    assert statuses[step] == "fail", result.steps
    assert all(statuses[n] == "skip" for n in STEP_NAMES[index + 1:]), result.steps
    assert result.infra_error is None


def test_every_reference_answer_passes(batch):
    answers = {k: r for k, r in batch.items() if k.startswith("answer:")}
    assert answers
    failing = {k: [(s.name, s.status, s.detail) for s in r.steps if s.status != "pass"]
               for k, r in answers.items() if not r.passed}
    assert not failing
    assert all(r.tests_total > 0 and r.tests_passed == r.tests_total for r in answers.values())


def test_every_alternative_correct_answer_passes(batch, project):
    """No false negatives on valid code: answers written in another idiom pass too."""
    alternatives = {k: r for k, r in batch.items() if k.startswith("alternative:")}
    suite = load_suite(project)
    assert {e.category for e in suite.evals if e.alternatives()} == {e.category for e in suite.evals}, \
        "every category has at least one alternative-correct answer"
    failing = {k: [(s.name, s.detail) for s in r.steps if s.status != "pass"] for k, r in alternatives.items() if not r.passed}
    assert not failing


@pytest.mark.parametrize("case", broken_cases(), ids=lambda p: str(p.parent.relative_to(BROKEN)))
def test_broken_output_fails_at_expected_step(batch, project, case: Path, broken_variant):
    _, spec = broken_variant(load_suite(project), case)
    result = batch[f"broken:{case.parent.relative_to(BROKEN)}"]
    _fails_exactly_at(result, spec["expected_step"])
    failed = result.step(spec["expected_step"])
    assert failed.detail.strip(), "a failing step says why"


@pytest.mark.parametrize(
    "variant, step",
    [
        ("node_builtin_without_use_node", "bundle"),
        ("query_in_use_node_file", "bundle"),
        ("syntax_error", "bundle"),
        ("use_node_in_crons", "bundle"),
        ("type_error", "tsc"),
        ("filter_in_query", "eslint"),
        ("wrong_behaviour", "tests"),
    ],
)
def test_batch_attributes_each_failure(batch, variant, step):
    _fails_exactly_at(batch[f"variant:{variant}"], step)


def test_batch_passing_outputs_of_the_same_eval(batch):
    for name in ("answer", "use_node_action"):
        result = batch[f"variant:{name}"]
        assert result.passed, result.steps
        assert (result.tests_passed, result.tests_total) == (2, 2)
    wrong = batch["variant:wrong_behaviour"]
    assert (wrong.tests_passed, wrong.tests_total) == (1, 2)
    assert "get is 0 for an unknown counter" in wrong.step("tests").detail


def test_detail_paths_are_relative_to_the_project(batch):
    assert batch["variant:type_error"].step("tsc").detail.startswith("convex/counters.ts(")
    assert batch["variant:filter_in_query"].step("eslint").detail.startswith("convex/counters.ts:")
    assert "/tmp" not in batch["variant:node_builtin_without_use_node"].step("bundle").detail


def test_hanging_output_is_isolated_and_recorded_as_a_model_failure(batch, project):
    """A hang that recurs when the output is graded alone is the model's: a failed step with a
    timeout reason, counted and cached (the other outputs of the batch still get their results)."""
    result = batch["variant:hanging_query"]
    _fails_exactly_at(result, "tests")
    detail = result.step("tests").detail
    assert "timed out after" in detail and "hangs" in detail, detail
    assert result.cache_key and not result.cached
    [again] = grade(project, [GradeRequest(eval=variants.counter_eval(), files=variants.hanging_query())], suite=load_suite(project))
    assert again.cached


def test_infrastructure_errors_are_not_cached(batch, project, monkeypatch):
    """A tool that crashes with no result, batched and alone, is an infrastructure error: not
    counted against the model and graded again next time."""
    import tuner.suites.convex.pipeline as pipeline

    calls = []
    real = pipeline._checked_batch
    monkeypatch.setattr(pipeline, "_checked_batch", lambda tc, rules, reqs, t, *a: calls.append(len(reqs)) or real(tc, rules, reqs, t, *a))
    monkeypatch.setattr(pipeline.checks, "run_tests", lambda ws, subs, t, **kw: ({}, set()))
    files = variants.wrong_behaviour()
    files["convex/counters.ts"] += "\n// not graded before\n"
    request = GradeRequest(eval=variants.counter_eval(), files=files)
    for _ in range(2):
        [result] = grade(project, [request], suite=load_suite(project))
    assert calls == [1, 1]  # the error was not cached: the second call graded again
    assert result.infra_error and "crashed" in result.infra_error and result.step("tests").status == "error"


def _orphaned_graders() -> list[int]:
    """Processes still running inside a grading directory that has already been removed."""
    import os

    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if "tuner-grade-" in cwd and cwd.endswith("(deleted)"):
            found.append(int(pid))
    return found


def test_a_hang_leaves_no_process_behind(batch, project, monkeypatch):
    import time

    import tuner.suites.convex.pipeline as pipeline

    monkeypatch.setattr(pipeline, "STALL_S", 0.5)
    before = set(_orphaned_graders())
    grade(project, [GradeRequest(eval=variants.counter_eval(), files=variants.hanging_query())], suite=load_suite(project),
          timeout_s=5, use_cache=False)
    time.sleep(0.5)
    assert set(_orphaned_graders()) - before == set()


def test_cli_grade_reports_steps(batch, project, tmp_path, monkeypatch):
    import typer
    from typer.testing import CliRunner

    import tuner.paths
    from tuner.cli.grade import register

    monkeypatch.setattr(tuner.paths, "find_project", lambda start=None: project)
    (tmp_path / "convex").mkdir()
    for rel, text in variants.wrong_behaviour().items():
        (tmp_path / rel).write_text(text)
    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)  # more than one command: `grade` stays a subcommand
    out = CliRunner().invoke(app, ["grade", str(tmp_path), "--eval", str(variants.FIXTURE)])
    assert out.exit_code == 1, out.output
    assert "tests 1/2" in out.output and "fail" in out.output and "get is 0" in out.output


def test_validate_reports_all_pass_from_cache(batch, project, monkeypatch):
    import typer
    from typer.testing import CliRunner

    import tuner.paths
    from tuner.cli.evals import register

    monkeypatch.setattr(tuner.paths, "find_project", lambda start=None: project)
    app = typer.Typer()
    register(app)
    before = sandbox.launch_count()
    out = CliRunner().invoke(app, ["evals", "validate", "--category", "fundamentals"])
    assert out.exit_code == 0, out.output
    assert sandbox.launch_count() == before  # every answer was cached by the batch
    evals = load_suite(project).select(category="fundamentals")
    alternatives = sum(len(e.alternatives()) for e in evals)
    n = len(evals) + alternatives
    assert f"{n}/{n} answers pass every step ({len(evals)} reference, {alternatives} alternative)" in out.output


@pytest.mark.parametrize("spare", [False, True])
def test_tests_wait_for_tsc_unless_a_core_is_spare_with_the_same_verdicts(project, monkeypatch, spare):
    """The tests of an answer that fails tsc are not run (its verdict is decided), except on a
    machine with a core to spare, where the lint's passes are tested beside tsc: the same results."""
    import tuner.suites.convex.pipeline as pipeline

    names = ["answer", "type_error", "wrong_behaviour", "filter_in_query"]
    requests = [GradeRequest(eval=variants.counter_eval(), files=getattr(variants, n)()) for n in names]
    tested: list[str] = []
    real = pipeline.checks.run_tests

    def run_tests(ws, subs, timeout_s, **kw):
        tested.extend(names[s.index] for s in subs)
        return real(ws, subs, timeout_s, **kw)

    monkeypatch.setattr(pipeline, "_spare_core", lambda: spare)
    monkeypatch.setattr(pipeline.checks, "run_tests", run_tests)
    results = dict(zip(names, grade(project, requests, suite=load_suite(project), use_cache=False)))
    assert results["answer"].passed
    _fails_exactly_at(results["type_error"], "tsc")
    _fails_exactly_at(results["wrong_behaviour"], "tests")
    _fails_exactly_at(results["filter_in_query"], "eslint")
    assert sorted(tested) == sorted(["answer", "wrong_behaviour"] + (["type_error"] if spare else []))
