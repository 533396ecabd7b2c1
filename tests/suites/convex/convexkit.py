"""What the Convex grader tests import besides fixtures (a module of its own: every test folder's
``conftest`` is called ``conftest``, so importing from one depends on which was loaded last)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from tuner.evals import load_suite
from tuner.grading import GradeRequest, read_output_dir
from tuner.paths import Project

__all__ = ["ROOT", "BROKEN", "broken_cases", "broken_request"]

ROOT = Path(__file__).resolve().parents[3]
BROKEN = ROOT / "tests" / "fixtures" / "broken"


def broken_cases() -> list[Path]:
    return sorted(BROKEN.glob("**/broken.toml"))


def broken_request(project: Project, case: Path) -> tuple[GradeRequest, dict]:
    """A broken output: a ``[files]`` table given whole, or the eval's reference answer with the
    variant folder's files laid over it and the ``removed`` paths left out (a variant keeps only
    the files its mistake changes)."""
    spec = tomllib.loads(case.read_text())
    ev = load_suite(project).get(spec["eval"])
    if "files" in spec:
        return GradeRequest(eval=ev, files=spec["files"]), spec
    changed, symlinks = read_output_dir(case.parent, ev.answer_roots)
    files = {p: text for p, text in ev.answer_files().items() if p not in set(spec.get("removed", []))}
    return GradeRequest(eval=ev, files={**files, **changed}, symlinks=symlinks), spec
