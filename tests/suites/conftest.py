"""What the tests of every suite kind share: reading a case of a suite's broken corpus."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

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
