"""The pytest kind's verdict comes from the host's pipe, never from a file or an exit code the
answer controls (tests/fixtures/hostile/python)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tuner.evals import load_suite
from tuner.grading import GradeRequest
from tuner.paths import Project
from tuner.suites import grade

ROOT = Path(__file__).resolve().parents[3]
CASES = ROOT / "tests" / "fixtures" / "hostile" / "python"

pytestmark = [pytest.mark.slow]


def test_a_forged_report_and_a_clean_exit_do_not_pass(tmp_path, monkeypatch, broken_variant):
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    project = Project(ROOT, ROOT / "suites" / "python")
    suite = load_suite(project)
    cases = sorted(CASES.glob("*/hostile.toml"))
    # A hostile case is laid out as a broken one (the reference answer, the case's files over it).
    requests, specs = zip(*(broken_variant(suite, case) for case in cases))
    reference = suite.get("001-text/001-slugify")
    results = grade(project, [*requests, GradeRequest(eval=reference, files=reference.answer_files())], suite=suite)
    for case, spec, result in zip(cases, specs, results):
        step = result.step(spec["expected_step"])
        assert not result.passed and result.infra_error is None, (case, result.steps)
        assert step.status == "fail" and spec["reason"] in step.detail, (case, step)
        assert result.tests_passed == 0
    control = results[-1]
    assert control.passed and control.tests_passed == control.tests_total > 0, control.steps
