"""An answer's failure signature: how it failed, finer than its first failing step.

Why. The rule-effect engine reads each answer through its failure modes (``tuner.engine.modes``):
the finer the modes, the more of the noise of other rules' mistakes it can set aside. The grader
stops at the first failing step (later ones are ``skip``), but that step's detail often names what
failed: the failing tests, the compiler's diagnostics, the lint rules. The signature is the first
failing step's distinct error identities, read by the suite's kind (its optional
``failure_signature(step, detail)``, ``tuner.suites.base.SuiteKind``), which knows its tools'
output; a kind without one, or a detail it cannot read, gives the step alone.

Only the first ``DETAIL_LINES`` lines of a detail are kept with a grade, so identities listed after
them are not seen: the signature is then coarser, never wrong. Deterministic and cheap: one stored
detail per answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from tuner.grading.models import GradeResult

__all__ = ["Reader", "signature", "signatures_by_key", "step_alone"]

Reader = Callable[[str, str], tuple[str, ...]]
"""(step name, its detail) -> the step's error identities (a kind's ``failure_signature``)."""


def step_alone(step: str, detail: str) -> tuple[str, ...]:
    """The reader of a kind that names no identities: the failing step alone."""
    return (step,)


def signature(result: GradeResult, reader: Reader | None = None) -> tuple[str, ...]:
    """How ``result`` failed: its first failing step as ``reader`` reads it (default: the step
    alone); empty when it passed or names no failing step."""
    if result.passed:
        return ()
    step = next((s for s in result.steps if s.status in ("fail", "error")), None)
    if step is None:
        return ()
    return (reader or step_alone)(step.name, step.detail) or (step.name,)


def signatures_by_key(keys: Iterable[str], cache_dir: Path, reader: Reader | None = None) -> dict[str, tuple[str, ...]]:
    """{grading cache key: signature} of the cached grades found under ``cache_dir`` (the
    project's ``cache_dir``); a key with no cached grade is left out (its reader falls back to
    the failing step alone)."""
    from tuner.grading.cache import GradeCache

    wanted = sorted({k for k in keys if k})
    if not wanted:
        return {}
    cache = GradeCache(cache_dir / "grading")
    try:
        return {k: signature(hit, reader) for k in wanted if (hit := cache.get(k)) is not None}
    finally:
        cache.close()
