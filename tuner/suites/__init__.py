"""Suite kinds: how a kind of suite lays out, asks for and grades answers (``SuiteKind``).

``kind = "convex"`` (the default) and ``kind = "pytest"`` ship with tuner. ``grade`` is the one
entry point the rest of tuner uses: it grades with whatever kind the project's suite is.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from tuner.errors import NotFoundError
from tuner.suites.base import Progress, SuiteKind

if TYPE_CHECKING:
    from tuner.grading.models import GradeRequest, GradeResult
    from tuner.paths import Project

__all__ = ["SuiteKind", "get_kind", "kind_names", "grade"]


@cache
def _kinds() -> dict[str, SuiteKind]:
    from tuner.suites.convex import ConvexKind
    from tuner.suites.pytest import PytestKind

    return {k.name: k for k in (ConvexKind(), PytestKind())}


def kind_names() -> list[str]:
    return sorted(_kinds())


def get_kind(name: str) -> SuiteKind:
    kinds = _kinds()
    if name not in kinds:
        raise NotFoundError(f"unknown suite kind '{name}' (known: {', '.join(sorted(kinds))})")
    return kinds[name]


def grade(
    project: Project,
    requests: list[GradeRequest],
    *,
    use_cache: bool = True,
    progress: Progress | None = None,
    timeout_s: float | None = None,
    suite=None,
) -> list[GradeResult]:
    """Grade ``requests`` with the project's suite (or ``suite``); results in request order."""
    if suite is None:
        from tuner.evals import load_suite

        suite = load_suite(project)
    return suite.kind.grade(suite, requests, cache_dir=project.cache_dir, use_cache=use_cache,
                            progress=progress, timeout_s=timeout_s)
