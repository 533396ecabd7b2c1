"""The SuiteKind contract, tested once per kind this project ships, each on its own suite (the
Convex suite, suites/python, suites/c). The kinds come from their entry points and the suites from
the manifests on disk: a new kind's registration and suite are all this test needs. Each kind's
own tests are in its folder (tests/suites/<kind>/)."""

from __future__ import annotations

import pytest

from kindkit import ROOT, registered_in_pyproject, shipped_kinds, shipped_suites
from tuner.evals import load_suite
from tuner.grading import GradeRequest
from tuner.paths import Project
from tuner.suites import SuiteKind, get_kind, grade, kind_names

pytestmark = [pytest.mark.slow]


def test_every_shipped_kind_is_registered_installed_and_a_suite_kind():
    """What pyproject.toml registers is what is installed (a stale install is said here, not as an
    unknown kind later), and every kind it names follows the protocol and has a suite of ours."""
    assert shipped_kinds() == sorted(registered_in_pyproject()), "reinstall tuner (`./dev` does it) after editing its entry points"
    assert len(shipped_kinds()) >= 3 and set(shipped_kinds()) <= set(kind_names())
    for name in shipped_kinds():
        kind = get_kind(name)
        assert isinstance(kind, SuiteKind) and kind.name == name
        assert kind.steps[0] == "filesystem" and kind.steps[-1] == "tests"
        assert "## " in kind.output_format() and kind.published_name
        assert kind.answer_roots and kind.answer_extensions and kind.grader_file
        assert shipped_suites().get(name), f"kind '{name}' ships without a suite of ours (evals/ or suites/*/) to prove it"


@pytest.mark.parametrize("kind", shipped_kinds())
def test_kind_contract(kind, tmp_path, monkeypatch):
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    project = Project(ROOT, shipped_suites()[kind][0])
    suite = load_suite(project)
    assert suite.kind.name == kind and suite.manifest.kind == kind
    # Answers live under the kind's roots; the grader file is the kind's.
    ev, other = suite.evals[0], suite.evals[-1]
    assert ev.category != other.category
    assert all(p.split("/")[0] in suite.kind.answer_roots for p in ev.answer_files())
    assert (ev.path / suite.kind.grader_file).is_file()
    assert suite.kind.grader_id(suite).startswith("sha256:")  # what it covers: tests/suites/*/
    good = GradeRequest(eval=ev, files=ev.answer_files())
    # Another task's correct answer is a wrong answer to this one, whatever the kind: it fails a
    # step of its own (not the grader: no infrastructure error).
    wrong = GradeRequest(eval=ev, files=other.answer_files())
    empty = GradeRequest(eval=ev, files={})
    requests = [good, wrong, empty, good]
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
