"""Gates: is the new side worse than the old one? Two questions, each with its error controlled.

**Did anything drop?** (``drop_tests``: tune's trial constraint, its acceptance and the publish
gate all ask it, over a *family* of cells: every model x category the change was not aimed at.)
Per cell, the exact one-sided McNemar test of "no change" against "after is worse": of the pairs
that differ, how many went pass -> fail, against a fair coin (``scipy``'s binomial tail). The
family's p-values are Benjamini-Hochberg adjusted (``tuner.stats.bh_adjust``), and a cell is
"regressed" when its adjusted p is below ``alpha``. What a decision needs is the rate of stopping a
change that drops nowhere, and when no cell truly drops BH's false discovery rate *is* the chance
that any cell is flagged: at most ``alpha``, whether the family holds 2 cells (the Python suite) or
16 (the Convex suite with two models). (When some cell does drop, stopping is right, and BH keeps
the share of wrongly named cells below ``alpha`` while finding more of the true ones than Holm.)
The former rule (a point estimate beyond the tolerance, or an uncorrected significant drop, per
cell) stopped a neutral change in 8-25% of the cells, and 44-73% of the time over Convex's seven
other categories. A point estimate alone can never trip this one: it answers "is a drop
established on these evals?", and says nothing about drops it cannot see (its power at the
product's sizes is in docs/statistics.md).

The test conditions on the evals (samples are the random unit), like compare's McNemar; pairs
come from ``tuner.runs.pair_outcomes`` (same eval, same sample position; an infrastructure
failure on either side drops the pair). It is exact at every size, so no small-sample bound is
needed, and one-sided because only a drop stops anything.

**Is a drop of ``margin`` ruled out?** (``noninferiority``: the publish gate's "non-inferior".)
On the paired difference d = after - before (``tuner.stats.difference``), with one-sided bounds
``lo``/``hi`` that each leave ``alpha`` outside:

- ``NON_INFERIOR`` when ``lo > -margin``: a drop of ``margin`` or more is ruled out. Its size
  (the chance of saying so when the true drop is exactly ``margin``) is at most ``alpha``. Calling
  a *family* non-inferior needs every cell to be: an intersection-union test, whose size is that of
  one cell, so no correction is needed.
- ``REGRESSED`` when not non-inferior and ``hi < 0`` (size <= ``alpha`` per cell in an A/A; the
  gate decides "regressed" over its family with ``drop_tests`` instead).
- ``NOT_ENOUGH`` otherwise, and whenever fewer pairs were measured than planned (an
  infrastructure failure is not a pass).

``over`` picks the estimand (``tuner.stats.difference``): "samples" (default here: the claim is
about these evals, which is what a gate on a fixed held-out set can check) or "evals" (the
category's task population: with 3 evals it will rarely be NON_INFERIOR).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel

from tuner.errors import InputError
from tuner.stats.difference import difference_interval
from tuner.stats.paired import ALPHA, bh_adjust

__all__ = [
    "NON_INFERIOR",
    "REGRESSED",
    "NOT_ENOUGH",
    "DropTest",
    "GateResult",
    "decide",
    "drop_counts",
    "drop_p",
    "drop_tests",
    "noninferiority",
]

NON_INFERIOR, REGRESSED, NOT_ENOUGH = "non-inferior", "regressed", "not enough evidence"

Outcomes = Mapping[str, Sequence[bool | None]]


class DropTest(BaseModel):
    """One cell of a family tested for a drop."""

    pass_to_fail: int  # pairs that passed before and failed after
    fail_to_pass: int
    p_value: float  # exact one-sided McNemar: P(Binomial(discordant, 1/2) >= pass_to_fail)
    p_adjusted: float  # Benjamini-Hochberg across the family
    regressed: bool  # p_adjusted < alpha
    alpha: float


class GateResult(BaseModel):
    verdict: str
    delta: float | None
    lo: float | None  # one-sided lower bound at level 1 - alpha
    hi: float | None  # one-sided upper bound at level 1 - alpha
    margin: float
    alpha: float
    pairs: int
    tasks: int
    over: str
    reason: str


def drop_counts(before: Outcomes, after: Outcomes) -> tuple[int, int]:
    """(pass -> fail, fail -> pass) pairs of two tables paired by (eval, sample position); a pair with
    an infrastructure failure (None) on either side is left out."""
    down = up = 0
    for task in before.keys() & after.keys():
        for b, a in zip(before[task], after[task]):
            if b is None or a is None:
                continue
            down += bool(b) and not a
            up += bool(a) and not b
    return down, up


def drop_p(pass_to_fail, fail_to_pass):
    """The exact one-sided McNemar p-value of a drop (array-friendly: simulations vectorise it)."""
    import numpy as np
    from scipy.stats import binom

    down, up = np.asarray(pass_to_fail), np.asarray(fail_to_pass)
    return np.where(down > 0, binom.sf(down - 1, down + up, 0.5), 1.0)


def drop_tests(counts: Sequence[tuple[int, int]], alpha: float = ALPHA) -> list[DropTest]:
    """Test every cell of a family for a drop (module doc). ``counts``: per cell (pass -> fail,
    fail -> pass), e.g. from ``drop_counts``; a cell without pairs has p = 1 (it cannot be shown
    to drop: whether it was measured is the caller's question)."""
    if not 0 < alpha < 0.5:
        raise InputError(f"alpha {alpha}: must be in (0, 0.5)")
    if not counts:
        return []
    ps = [float(p) for p in drop_p([c[0] for c in counts], [c[1] for c in counts])]
    adjusted = bh_adjust(ps)
    return [
        DropTest(
            pass_to_fail=int(d),
            fail_to_pass=int(u),
            p_value=p,
            p_adjusted=float(q),
            regressed=bool(q < alpha),
            alpha=alpha,
        )
        for (d, u), p, q in zip(counts, ps, adjusted)
    ]


def decide(delta, lo, hi, margin: float):
    """The non-inferiority verdict from one-sided bounds (array-friendly)."""
    import numpy as np

    lo, hi = np.asarray(lo), np.asarray(hi)
    return np.where(lo > -margin, NON_INFERIOR, np.where(hi < 0, REGRESSED, NOT_ENOUGH))


def noninferiority(
    before: Outcomes,
    after: Outcomes,
    margin: float,
    alpha: float = ALPHA,
    *,
    over: str = "samples",
    planned: int | None = None,
) -> GateResult:
    """Is a drop of ``margin`` ruled out? (module doc)."""
    if not 0 <= margin < 1:
        raise InputError(f"margin {margin}: must be in [0, 1)")
    if not 0 < alpha < 0.5:
        raise InputError(f"alpha {alpha}: must be in (0, 0.5)")
    d = difference_interval(before, after, over=over, tail=alpha)
    common = dict(margin=margin, alpha=alpha, pairs=d.pairs, tasks=d.tasks, over=over)
    if d.delta is None or (planned is not None and d.pairs < planned):
        reason = f"{d.pairs} of {planned} planned pairs measured" if planned is not None else "no pairs measured"
        return GateResult(verdict=NOT_ENOUGH, delta=d.delta, lo=d.lo, hi=d.hi, reason=reason, **common)
    verdict = str(decide(d.delta, d.lo, d.hi, margin))
    reason = {
        NON_INFERIOR: f"a drop of {margin:.0%} or more is ruled out (lower bound {d.lo:+.1%})",
        REGRESSED: f"a drop is established (upper bound {d.hi:+.1%})",
        NOT_ENOUGH: f"interval [{d.lo:+.1%}, {d.hi:+.1%}] neither rules out a {margin:.0%} drop nor shows one",
    }[verdict]
    return GateResult(verdict=verdict, delta=d.delta, lo=d.lo, hi=d.hi, reason=reason, **common)
