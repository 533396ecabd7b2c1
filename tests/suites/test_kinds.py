"""The SuiteKind contract, tested once per kind (the Convex suite and the Python/pytest suite).
Each kind's own tests are in its folder (tests/suites/<kind>/)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tuner.evals import load_suite
from tuner.grading import GradeRequest
from tuner.paths import Project
from tuner.suites import SuiteKind, get_kind, grade, kind_names

ROOT = Path(__file__).resolve().parents[2]
SUITES = {"convex": ROOT / "evals", "pytest": ROOT / "suites" / "python"}

pytestmark = [pytest.mark.slow]


def _project(kind: str) -> Project:
    return Project(ROOT, SUITES[kind])


def _broken_cases(suite_root: Path) -> list[Path]:
    return sorted((suite_root / "broken").glob("**/broken.toml"))


def test_every_shipped_kind_is_a_suite_kind():
    assert kind_names() == ["c", "convex", "pytest"]
    for name in kind_names():
        kind = get_kind(name)
        assert isinstance(kind, SuiteKind) and kind.name == name
        assert kind.steps[0] == "filesystem" and kind.steps[-1] == "tests"
        assert "## " in kind.output_format() and kind.published_name


@pytest.mark.parametrize("kind", ["convex", "pytest"])
def test_kind_contract(kind, tmp_path, monkeypatch, broken_variant):
    if shutil.which("node") is None and kind == "convex":
        pytest.skip("node is not installed")
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    project = _project(kind)
    suite = load_suite(project)
    assert suite.kind.name == kind and suite.manifest.kind == kind
    # Answers live under the kind's roots; the grader file is the kind's.
    ev = suite.evals[0]
    assert all(p.split("/")[0] in suite.kind.answer_roots for p in ev.answer_files())
    assert (ev.path / suite.kind.grader_file).is_file()
    assert suite.kind.grader_id(suite).startswith("sha256:")  # what it covers: tests/suites/*/
    good = GradeRequest(eval=ev, files=ev.answer_files())
    broken_req, spec = broken_variant(suite, _broken_cases(suite.root)[0]) if kind == "pytest" else (
        GradeRequest(eval=ev, files={"convex/schema.ts": "export default 1 +;\n"}), {"expected_step": None})
    empty = GradeRequest(eval=ev, files={})
    requests = [good, broken_req, empty, good]
    results = grade(project, requests, suite=suite)
    assert [r.eval_id for r in results] == [q.eval.id for q in requests]  # one per request, in order
    for r in results:
        assert tuple(s.name for s in r.steps) == suite.kind.steps
        first_bad = r.failed_step
        if first_bad:  # after the first step that does not pass, every step is skipped
            later = [s.status for s in r.steps][suite.kind.steps.index(first_bad) + 1:]
            assert set(later) <= {"skip"}
    assert results[0].passed and results[0].tests_total > 0 and results[0].infra_error is None
    assert not results[1].passed and results[1].infra_error is None
    assert results[2].failed_step == "filesystem"
    assert results[3].model_dump(exclude={"cached"}) == results[0].model_dump(exclude={"cached"})
    [again] = grade(project, [good], suite=suite)
    assert again.cached and again.passed  # graded once, then cached by content
