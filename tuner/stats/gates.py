"""Gates: "is the new side not worse than the old one by more than a margin?" with three answers.

A gate that says "passed" whenever it found no significant drop passes every change on a small
suite (the former publish gate had power 0.04 against a 10-point drop). These are
non-inferiority tests instead; "not enough evidence" is an answer, not a pass.

``noninferiority(before, after, margin, alpha)`` on the paired difference d = after - before
(``tuner.stats.difference``), with one-sided bounds ``lo``/``hi`` that each leave ``alpha`` outside:

- ``NON_INFERIOR`` when ``lo > -margin``: a drop of ``margin`` or more is ruled out. Its size
  (the chance of saying so when the true drop is exactly ``margin``) is at most ``alpha``.
- ``REGRESSED`` when not non-inferior and ``hi < 0``: a drop is established (size <= ``alpha``
  in an A/A).
- ``NOT_ENOUGH`` otherwise, and whenever fewer pairs were measured than planned (an
  infrastructure failure is not a pass).

``noninferiority_sequential(..., look=k)``: the same test at the k-th look (1-based) at the data
accumulated so far, spending ``alpha * 6 / (pi^2 k^2)`` at look k (``spend``); these shares sum to
``alpha`` over any number of looks, so a caller may look after every round and stop at the first
decision without inflating either error: the lead passes look=1 after the first round, 2 after the
second, ... (counting every look made, decided or not), always with all data so far.

``no_regression(before, after, tolerance)`` is tune's constraint: feasible when the lower end of
the two-sided 95% paired interval is at or above ``-tolerance`` (what the option's help says),
with ``violation = -lo - tolerance`` (Optuna's convention: feasible when <= 0). It is the same
non-inferiority test at margin ``tolerance`` and alpha 0.025.

``over`` picks the estimand (``tuner.stats.difference``): "samples" (default here: the claim is
about these evals, which is what tune's search and a gate on a fixed held-out set can check) or
"evals" (the category's task population: with 3 evals it will rarely be NON_INFERIOR).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from pydantic import BaseModel

from tuner.errors import InputError
from tuner.stats.difference import difference_interval
from tuner.stats.intervals import CONFIDENCE

__all__ = [
    "NON_INFERIOR", "REGRESSED", "NOT_ENOUGH", "GateResult", "NoRegression",
    "noninferiority", "noninferiority_sequential", "no_regression", "spend", "decide",
]

NON_INFERIOR, REGRESSED, NOT_ENOUGH = "non-inferior", "regressed", "not enough evidence"

Outcomes = Mapping[str, Sequence[bool | None]]


class GateResult(BaseModel):
    verdict: str
    delta: float | None
    lo: float | None  # one-sided lower bound at level 1 - alpha_used
    hi: float | None  # one-sided upper bound at level 1 - alpha_used
    margin: float
    alpha: float  # the gate's overall alpha
    alpha_used: float  # what this look spent (alpha at a fixed-sample test)
    look: int
    pairs: int
    tasks: int
    over: str
    reason: str


class NoRegression(BaseModel):
    feasible: bool
    violation: float  # -lo - tolerance; > 0 is infeasible
    delta: float | None
    lo: float | None
    hi: float | None
    tolerance: float
    pairs: int
    reason: str


def spend(alpha: float, look: int) -> float:
    """The share of ``alpha`` look ``look`` (1-based) may spend; the shares sum to ``alpha``."""
    if look < 1:
        raise InputError(f"look {look}: looks count from 1")
    return alpha * 6 / (math.pi**2 * look**2)


def decide(delta, lo, hi, margin: float):
    """The verdict from one-sided bounds (array-friendly: the calibration suite vectorises it)."""
    import numpy as np

    lo, hi = np.asarray(lo), np.asarray(hi)
    return np.where(lo > -margin, NON_INFERIOR, np.where(hi < 0, REGRESSED, NOT_ENOUGH))


def _check(margin: float, alpha: float) -> None:
    if not 0 <= margin < 1:
        raise InputError(f"margin {margin}: must be in [0, 1)")
    if not 0 < alpha < 0.5:
        raise InputError(f"alpha {alpha}: must be in (0, 0.5)")


def noninferiority_sequential(before: Outcomes, after: Outcomes, margin: float, look: int, alpha: float = 0.05, *,
                              over: str = "samples", planned: int | None = None) -> GateResult:
    """The non-inferiority test at look ``look`` (1-based) on all data so far (see module doc)."""
    _check(margin, alpha)
    return _test(before, after, margin, alpha, spend(alpha, look), look, over, planned)


def _test(before: Outcomes, after: Outcomes, margin: float, alpha: float, used: float, look: int, over: str,
          planned: int | None) -> GateResult:
    d = difference_interval(before, after, over=over, tail=used)
    common = dict(margin=margin, alpha=alpha, alpha_used=used, look=look, pairs=d.pairs, tasks=d.tasks, over=over)
    if d.delta is None or (planned is not None and d.pairs < planned):
        reason = f"{d.pairs} of {planned} planned pairs measured" if planned is not None else "no pairs measured"
        return GateResult(verdict=NOT_ENOUGH, delta=d.delta, lo=d.lo, hi=d.hi, reason=reason, **common)
    verdict = str(decide(d.delta, d.lo, d.hi, margin))
    reason = {NON_INFERIOR: f"a drop of {margin:.0%} or more is ruled out (lower bound {d.lo:+.1%})",
              REGRESSED: f"a drop is established (upper bound {d.hi:+.1%})",
              NOT_ENOUGH: f"interval [{d.lo:+.1%}, {d.hi:+.1%}] neither rules out a {margin:.0%} drop nor shows one"}[verdict]
    return GateResult(verdict=verdict, delta=d.delta, lo=d.lo, hi=d.hi, reason=reason, **common)


def noninferiority(before: Outcomes, after: Outcomes, margin: float, alpha: float = 0.05, *,
                   over: str = "samples", planned: int | None = None) -> GateResult:
    """The fixed-sample test: one look spending all of ``alpha``."""
    _check(margin, alpha)
    return _test(before, after, margin, alpha, alpha, 1, over, planned)


def no_regression(before: Outcomes, after: Outcomes, tolerance: float, confidence: float = CONFIDENCE, *,
                  over: str = "samples", planned: int | None = None) -> NoRegression:
    """Tune's constraint (see module doc); not measured (no pairs, or fewer than planned) is infeasible."""
    if not 0 <= tolerance < 1:
        raise InputError(f"tolerance {tolerance}: must be in [0, 1)")
    d = difference_interval(before, after, over=over, confidence=confidence)
    if d.delta is None or (planned is not None and d.pairs < planned):
        reason = f"{d.pairs} of {planned} planned pairs measured" if planned is not None else "no pairs measured"
        return NoRegression(feasible=False, violation=1.0, delta=d.delta, lo=d.lo, hi=d.hi, tolerance=tolerance, pairs=d.pairs, reason=reason)
    violation = -d.lo - tolerance
    reason = (f"lower bound {d.lo:+.1%} is within the tolerated -{tolerance:.0%}" if violation <= 0
              else f"lower bound {d.lo:+.1%} reaches below the tolerated -{tolerance:.0%}")
    return NoRegression(feasible=violation <= 0, violation=violation, delta=d.delta, lo=d.lo, hi=d.hi, tolerance=tolerance,
                        pairs=d.pairs, reason=reason)
