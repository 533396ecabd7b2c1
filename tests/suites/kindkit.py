"""What the tests of every suite kind import besides fixtures: the kinds this project ships and the
suite of its own that exercises each, found from their registration and the suites on disk (a new
kind's entry point and suite are all these tests need, no list here to extend), and the cases of a
suite's broken corpus.

A module of its own, not a conftest: every test folder's conftest is called ``conftest``, so
importing from one depends on which was loaded last.
"""

from __future__ import annotations

import tomllib
from importlib.metadata import entry_points
from pathlib import Path

from tuner.suites import ENTRY_POINT_GROUP

__all__ = ["ROOT", "registered_in_pyproject", "shipped_kinds", "shipped_suites", "broken_cases"]

ROOT = Path(__file__).resolve().parents[2]


def _distribution() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"]


def registered_in_pyproject() -> dict[str, str]:
    """``{kind: "module:Class"}`` as this project's pyproject.toml registers them."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return dict(project.get("entry-points", {}).get(ENTRY_POINT_GROUP, {}))


def shipped_kinds() -> list[str]:
    """The kinds tuner's own distribution registers in the entry-point group, as installed (kinds
    of other installed packages are theirs to test)."""
    name = _distribution()
    return sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.dist is not None and ep.dist.name == name)


def shipped_suites() -> dict[str, list[Path]]:
    """``{kind: [suite folder, ...]}`` over the project's suites: ``evals/`` and ``suites/*/``."""
    found: dict[str, list[Path]] = {}
    for manifest in [ROOT / "evals" / "suite.toml", *sorted((ROOT / "suites").glob("*/suite.toml"))]:
        kind = tomllib.loads(manifest.read_text(encoding="utf-8")).get("kind")
        found.setdefault(str(kind), []).append(manifest.parent)
    return found


def broken_cases(corpus: Path) -> list[Path]:
    """The ``broken.toml`` of every case of a broken corpus (``<suite>/broken``), sorted; read one
    with the ``broken_variant`` fixture."""
    return sorted(corpus.glob("**/broken.toml"))
