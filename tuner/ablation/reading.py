"""How the engine reads each design point's answer: passed, and if not, the failure modes it shows
(``tuner.engine.Graded``).

``READING``: "signature" (the default) reads the answer's failure signature
(``tuner.grading.signature``: the first failing step and that step's distinct error identities,
failing test names, tsc codes, eslint rule ids), found through the point's ``grade_key`` in the
grading cache; "step" reads the first failing step alone (``failed_step``, what the store keeps).
A point whose grade is not in the cache (another machine graded it, the cache was cleared) is read
by its step alone: coarser, never a crash. A replayed point (recorded earlier in the experiment)
carries the same ``grade_key`` as when it was made, so it is read the same way.
"""

from __future__ import annotations

from pathlib import Path

from tuner.engine import Graded

__all__ = ["READING", "READINGS", "graded_points"]

READINGS = ("step", "signature")
READING = "signature"


def graded_points(found: list[dict], cache_dir: Path, reading: str | None = None, reader=None) -> list[dict]:
    """``found`` (per point ``{model key: its PointRecord}``, ``execute_points``' answer) as the
    engine observes it: per point ``{model key: Graded, or None for an infrastructure failure}``.
    ``reader``: the suite kind's ``failure_signature`` (None: a kind without one, read by the step)."""
    reading = reading or READING
    if reading not in READINGS:
        raise ValueError(f"unknown reading {reading!r} (known: {', '.join(READINGS)})")
    sigs: dict[str, tuple[str, ...]] = {}
    if reading == "signature":
        from tuner.grading.signature import signatures_by_key

        # A record without a grade key (an answer that failed before grading, a test's stand-in)
        # is read by its step.
        keys = [getattr(r, "grade_key", None) for by_model in found for r in by_model.values() if r.outcome == "fail"]
        sigs = signatures_by_key([k for k in keys if k], cache_dir, reader)

    def graded(r) -> Graded | None:
        if r is None or r.outcome == "infra":
            return None
        if r.outcome == "pass":
            return Graded(True)
        step = getattr(r, "failed_step", None)
        return Graded(False, sigs.get(getattr(r, "grade_key", None) or "") or ((step,) if step else ()))

    return [{key: graded(r) for key, r in by_model.items()} for by_model in found]
