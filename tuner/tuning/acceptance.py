"""Whether tune may offer its winner: the decision rule applied to the confirmation's evidence.

The trials chose the winner on the samples they saw; the confirmation measured it again on fresh
samples of the tuning evals and on the held-out evals. The winner is offered (a publish hint, a
passing ``--json``) only when that evidence says all of:

- the target category improved on fresh samples for some model (the sequential zone test of
  ``confirmation``) and regressed for none;
- no other cell points down: a cell *points down* when its sequential verdict is "regressed", when
  its paired interval lies wholly below zero, or when its point estimate is more than ``tolerance``
  below the baseline. That is the trials' own constraint (``study._violation``) read on the
  confirmation's data, and the held-out target is held to it as well;
- every cell was measured (no answer lost to a provider or grader failure).

Otherwise the report says which cells stopped it. The rule's error rates at the product's smallest
sizes are measured by ``tests/stats/test_calibration_tune_rules.py``.
"""

from __future__ import annotations

from pydantic import BaseModel

from tuner.tuning.evidence import CategoryRow

__all__ = ["Acceptance", "CellCheck", "accept", "points_down"]

ACCEPTED, NO_CHANGE, WITHHELD, NOT_MEASURED = "accepted", "no change", "withheld", "not measured"


class CellCheck(BaseModel):
    """One confirmation row as the decision read it."""

    model: str
    split: str  # "fresh" (tuning evals, fresh samples) | "held-out"
    category: str
    delta: float | None
    lo: float | None
    hi: float | None
    verdict: str | None
    check: str  # "improved" | "no gain" | "regressed" | "within tolerance" | "not measured"


class Acceptance(BaseModel):
    decision: str  # accepted | no change | withheld | not measured
    reasons: list[str]
    cells: list[CellCheck]

    @property
    def accepted(self) -> bool:
        return self.decision == ACCEPTED


def points_down(delta: float | None, hi: float | None, verdict: str | None, tolerance: float) -> bool:
    """The evidence of one paired cell says "worse": a significant drop, or a drop beyond ``tolerance``."""
    if verdict == "regressed":
        return True
    if delta is None:
        return False
    return (hi is not None and hi < 0) or delta < -tolerance


def _check(row: CategoryRow, split: str, target: str, tolerance: float) -> CellCheck:
    p = row.paired
    if not row.measured:
        check = NOT_MEASURED
    elif points_down(p.delta, p.hi, p.verdict, tolerance):
        check = "regressed"
    elif row.category == target and split == "fresh":
        check = "improved" if p.verdict == "improved" else "no gain"
    else:
        check = "within tolerance"
    return CellCheck(model=row.model, split=split, category=row.category, delta=p.delta, lo=p.lo, hi=p.hi,
                     verdict=p.verdict, check=check)


def accept(target: str, fresh: list[CategoryRow], held_out: list[CategoryRow], tolerance: float,
           *, changed: bool) -> Acceptance:
    """The decision on a winner that differs from the baseline (``changed``) given its confirmation rows."""
    if not changed:
        return Acceptance(decision=NO_CHANGE, reasons=["no selection beat the baseline: nothing to publish"], cells=[])
    cells = [_check(r, "fresh", target, tolerance) for r in fresh] + [_check(r, "held-out", target, tolerance) for r in held_out]
    name = lambda c: f"{c.model} · {c.category} ({c.split})"  # noqa: E731
    missing = [c for c in cells if c.check == NOT_MEASURED]
    if missing:
        return Acceptance(decision=NOT_MEASURED, cells=cells,
                          reasons=[f"not measured: {', '.join(name(c) for c in missing)} (answers lost to provider or "
                                   "grader failures); run the same command again to retry them"])
    reasons = []
    down = [c for c in cells if c.check == "regressed"]
    if down:
        reasons.append("evidence points down in " + ", ".join(
            f"{name(c)}: {c.delta:+.0%} [{c.lo:+.0%}, {c.hi:+.0%}]" for c in down))
    target_cells = [c for c in cells if c.split == "fresh" and c.category == target]
    if not any(c.check == "improved" for c in target_cells):
        reasons.append(f"{target} did not confirmably improve on fresh samples")
    return Acceptance(decision=WITHHELD if reasons else ACCEPTED, reasons=reasons, cells=cells)
