"""Suite kinds: how a kind of suite lays out, asks for and grades answers (``SuiteKind``).

The kinds that ship with tuner (``convex``, ``pytest``, ``c``) each live in a folder of their own
(``tuner/suites/<kind>/``) and are registered like any other: through the ``tuner.suite_kinds``
entry-point group, where any installed package can add one. ``grade`` is the one entry point the rest of tuner uses: it grades with
whatever kind the suite is. Kinds build on ``tuner.grading`` (what every kind shares) and never
import the suite loader (``tuner.evals``), which sits above them and asks them.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from tuner.errors import InputError, NotFoundError
from tuner.suites.base import Progress, SuiteKind, SuiteView

if TYPE_CHECKING:
    from tuner.grading import GradeRequest, GradeResult
    from tuner.paths import Project

__all__ = ["SuiteKind", "SuiteView", "get_kind", "kind_names", "grade"]


ENTRY_POINT_GROUP = "tuner.suite_kinds"


@cache
def _kinds() -> dict[str, SuiteKind]:
    kinds: dict[str, SuiteKind] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            kind = ep.load()()
        except Exception as exc:  # a broken plug-in names itself instead of breaking every command
            raise InputError(f"suite kind '{ep.name}' ({ep.value}) cannot be loaded: {exc}") from exc
        if not isinstance(kind, SuiteKind):
            raise InputError(f"suite kind '{ep.name}' ({ep.value}) does not implement tuner.suites.SuiteKind")
        if kind.name != ep.name:
            raise InputError(f"suite kind entry point '{ep.name}' ({ep.value}) names itself '{kind.name}'")
        kinds[kind.name] = kind
    if not kinds:
        raise InputError(f"no suite kinds are registered (entry-point group '{ENTRY_POINT_GROUP}'): "
                         "reinstall tuner (`./dev` does it)")
    return kinds


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
    suite: SuiteView,
    use_cache: bool = True,
    progress: Progress | None = None,
    timeout_s: float | None = None,
) -> list[GradeResult]:
    """Grade ``requests`` against ``suite`` (``tuner.evals.load_suite(project)``) with its kind,
    cached under the project's cache folder; results in request order."""
    return suite.kind.grade(suite, requests, cache_dir=project.cache_dir, use_cache=use_cache,
                            progress=progress, timeout_s=timeout_s)
