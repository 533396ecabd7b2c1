"""What the tests of every suite kind share: reading a case of a suite's broken corpus, and a
project holding a copy of one of our suites for the tests that run the whole loop by the CLI."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from kindkit import ROOT
from tuner.grading import GradeRequest, read_output_dir


def _broken_variant(suite, case: Path) -> tuple[GradeRequest, dict]:
    """A broken output (``<suite>/broken/.../broken.toml``): a ``[files]`` table given whole, or the
    eval's reference answer with the case folder's files laid over it and the ``removed`` paths left
    out (a case keeps only the files its mistake changes). Returns the request and the case's spec."""
    spec = tomllib.loads(case.read_text())
    ev = suite.get(spec["eval"])
    if "files" in spec:  # the whole output, given as a table (path mistakes)
        return GradeRequest(eval=ev, files=spec["files"]), spec
    changed, symlinks = read_output_dir(case.parent, suite.kind.answer_roots)
    files = {p: t for p, t in ev.answer_files().items() if p not in set(spec.get("removed", []))}
    return GradeRequest(eval=ev, files={**files, **changed}, symlinks=symlinks), spec


@pytest.fixture(scope="session")
def broken_variant():
    """``broken_variant(suite, case) -> (GradeRequest, spec)`` for one case of a broken corpus."""
    return _broken_variant


@pytest.fixture
def suite_copy(tmp_path, monkeypatch):
    """``suite_copy("suites/c") -> Path``: a project of its own (empty guidelines/, evals/,
    experiments/, its own store and a cold cache) holding an editable copy of that suite, which
    commands must still be told with ``--suite``; the current folder is the project."""

    def make(relative: str) -> Path:
        root = tmp_path / "proj"
        shutil.copytree(ROOT / relative, root / relative)
        for folder in ("guidelines", "evals", "experiments"):
            (root / folder).mkdir(exist_ok=True)
        monkeypatch.setenv("TUNER_HOME", str(root))
        monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
        monkeypatch.setenv("TUNER_DB", f"sqlite:///{root / 'experiments' / 'tuner.db'}")
        monkeypatch.delenv("TUNER_SUITE", raising=False)
        monkeypatch.chdir(root)
        return root / relative

    return make
