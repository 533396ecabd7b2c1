from __future__ import annotations

from pathlib import Path

import pytest

import counter_variants as variants
from conftest import BROKEN, broken_cases, broken_request
from tuner.evals import STEP_NAMES, load_suite
from tuner.grading import GradeRequest, grade, sandbox

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


@pytest.mark.parametrize("case", broken_cases(), ids=lambda p: str(p.parent.relative_to(BROKEN)))
def test_broken_output_fails_at_expected_step(batch, project, case: Path):
    _, spec = broken_request(project, case)
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


def test_hanging_output_is_isolated_and_recorded_as_infrastructure(batch):
    result = batch["variant:hanging_query"]
    assert not result.passed
    assert _steps(result)["tests"] == "error"
    assert result.infra_error and "hang" in result.infra_error
    assert result.cache_key and not result.cached


def test_cache_hit_runs_no_subprocess(batch, project):
    ev = variants.counter_eval()
    before = sandbox.launch_count()
    [hit] = grade(project, [GradeRequest(eval=ev, files=variants.wrong_behaviour())])
    assert sandbox.launch_count() == before
    assert hit.cached and hit.cache_key == batch["variant:wrong_behaviour"].cache_key
    assert hit.model_dump(exclude={"cached"}) == batch["variant:wrong_behaviour"].model_dump(exclude={"cached"})


def test_infrastructure_errors_are_not_cached(batch, project, monkeypatch):
    import tuner.grading.pipeline as pipeline

    calls = []
    real = pipeline._grade_batch
    monkeypatch.setattr(pipeline, "_grade_batch", lambda tc, reqs, t: calls.append(len(reqs)) or real(tc, reqs, t))
    monkeypatch.setattr(pipeline, "STALL_S", 0.5)
    ev = variants.counter_eval()
    # A hung result was not stored: asking again grades again.
    grade(project, [GradeRequest(eval=ev, files=variants.hanging_query())], timeout_s=5)
    assert calls == [1]


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

    import tuner.grading.pipeline as pipeline

    monkeypatch.setattr(pipeline, "STALL_S", 0.5)
    before = set(_orphaned_graders())
    grade(project, [GradeRequest(eval=variants.counter_eval(), files=variants.hanging_query())], timeout_s=5, use_cache=False)
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
    n = len(load_suite(project).select(category="fundamentals"))
    assert f"{n}/{n} reference answers pass" in out.output
