"""As root the jail runs as nobody: a project in a folder nobody cannot enter (a 0700
``mktemp -d``) is refused before anything is graded, with one line that says why and what to
do; a toolchain the jail can reach (the suite links it) still grades."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tuner.errors import JailAccessError
from tuner.evals import load_suite
from tuner.grading import GradeRequest, sandbox
from tuner.paths import Project
from tuner.suites import grade

ROOT = Path(__file__).resolve().parents[3]
EVAL = "001-fundamentals/001-hello-query"

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or not sandbox.enabled() or shutil.which("bwrap") is None,
                                reason="the jail drops to nobody only when tuner runs as root")


@pytest.fixture
def private_suite(tmp_path, monkeypatch):
    """A copy of the suite (its toolchain's package files, no node_modules) in a 0700 folder."""
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    private = Path(tempfile.mkdtemp(prefix="tuner-private-"))  # mode 0700, as mktemp -d makes it
    try:
        suite = private / "evals"
        shutil.copytree(ROOT / "evals", suite, ignore=shutil.ignore_patterns("node_modules"))
        yield private, suite
    finally:
        shutil.rmtree(private, ignore_errors=True)


def test_a_toolchain_the_jail_cannot_reach_is_refused_up_front(private_suite, cli):
    private, suite = private_suite
    project = Project(ROOT, suite)
    ev = load_suite(project).get(EVAL)
    with pytest.raises(JailAccessError, match=f"cannot enter {private} .*chmod o\\+x {private}"):
        grade(project, [GradeRequest(eval=ev, files=ev.answer_files())], suite=load_suite(project))
    output = private / "out"
    shutil.copytree(ev.path / "answer", output)
    r = cli("grade", str(output), "--eval", EVAL, "--suite", str(suite))
    assert r.exit_code == 3, r.output
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "cannot enter" in lines[0] and "TUNER_SANDBOX=none" in lines[0], r.output


@pytest.mark.node
def test_a_private_project_whose_toolchain_the_jail_reaches_still_grades(private_suite):
    private, suite = private_suite
    shutil.rmtree(suite / "toolchain")
    (suite / "toolchain").symlink_to(ROOT / "evals" / "toolchain")
    project = Project(ROOT, suite)
    ev = load_suite(project).get(EVAL)
    [result] = grade(project, [GradeRequest(eval=ev, files=ev.answer_files())], suite=load_suite(project))
    assert result.passed and result.infra_error is None, result.steps
