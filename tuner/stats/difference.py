"""The interval of a paired before/after difference in pass rate, paired by (eval, sample index).

Two questions, two estimands (``over``):

- ``over="evals"`` (the headline, the default): the change in the category's pass rate over the
  population of tasks its evals were drawn from. Tasks are the unit: a cluster-robust (CR1)
  standard error over tasks with a Student t(G-1) reference, floored at the binomial error of the
  smoothed discordance rate (three tasks can agree by chance and show no spread at all), and
  never narrower than the ``"samples"`` interval (the population interval contains the
  uncertainty about these evals) nor than MOVER on the two pooled rates with Clopper-Pearson
  components. That last floor is empirical: when a change moves a few tasks a lot and the rest
  not at all, the task differences are skewed and a t interval over 12-24 tasks covered 85-91%;
  with the floor, >= 95% at 12 and 24 evals x 3 samples. At 12 x 12 and high intra-task
  correlation no floor short of uselessly wide reached 93% (docs/statistics.md gives the figures).
- ``over="samples"``: the change on *these* evals, samples being the random unit (what McNemar
  tests). Given the tasks, each pair's difference d is -1, 0 or +1 and its variance is at most
  the chance q that the pair is discordant, whatever ties the two sides (same prompt, shared
  cache, the task's difficulty): Var(mean d) <= q / n. The interval is mean d +- z * sqrt(q_U / n)
  with q_U the 80% upper Clopper-Pearson bound of the discordant share. It uses the pairing
  (identical outputs give a narrow interval, where an interval from the two pass rates alone
  would stay wide) and the small-sample bound on q keeps it calibrated at 3 pairs.

The percentile bootstraps these replace covered 72% (over tasks, 3 tasks) and 6-40% in the worst
worlds (over pairs, 3-9 pairs; [0, 0] when no pair differed). Coverage on the calibration grid is
in tests/stats and docs/statistics.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel

from tuner.errors import InputError
from tuner.stats.intervals import CONFIDENCE, clopper_pearson

__all__ = [
    "Difference",
    "OVER",
    "DISCORDANCE_BOUND",
    "difference_interval",
    "difference_bounds",
    "discordance_se",
    "paired_counts",
]

OVER = ("evals", "samples")


class Difference(BaseModel):
    """after - before, with its interval; ``lo``/``hi`` each leave ``tail`` probability outside."""

    delta: float | None
    lo: float | None
    hi: float | None
    before: float | None
    after: float | None
    pairs: int
    tasks: int
    over: str
    tail: float
    method: str


def paired_counts(before: Mapping[str, Sequence[bool | None]], after: Mapping[str, Sequence[bool | None]]):
    """Per task in both: (before passes, after passes, signed sum of after - before, discordant
    pairs, pairs). Samples pair by index; a pair with an infrastructure failure (None) on either
    side is left out, never re-paired with another sample."""
    rows = []
    for task in sorted(before.keys() & after.keys()):
        pairs = [(bool(b), bool(a)) for b, a in zip(before[task], after[task]) if b is not None and a is not None]
        if pairs:
            kb = sum(b for b, _ in pairs)
            ka = sum(a for _, a in pairs)
            rows.append((task, kb, ka, ka - kb, sum(b != a for b, a in pairs), len(pairs)))
    return rows


DISCORDANCE_BOUND = 0.2  # q_U is the upper (1 - DISCORDANCE_BOUND) bound of the discordant share


def discordance_se(disc, n):
    """sqrt(q_U / n): the standard error bound of the mean paired difference on these evals."""
    import numpy as np

    disc, n = np.asarray(disc, dtype=float), np.asarray(n, dtype=float)
    _, q_upper = clopper_pearson(disc, n, DISCORDANCE_BOUND)
    return np.sqrt(q_upper / np.maximum(n, 1))


def _mover(kb, ka, n, tail: float):
    """MOVER (Newcombe) for the difference of two pooled rates, Clopper-Pearson components."""
    import numpy as np

    pb, pa = kb / n, ka / n
    lb, ub = clopper_pearson(kb, n, tail)
    la, ua = clopper_pearson(ka, n, tail)
    d = pa - pb
    return d - np.sqrt((pa - la) ** 2 + (ub - pb) ** 2), d + np.sqrt((ua - pa) ** 2 + (pb - lb) ** 2)


def difference_bounds(kb, ka, disc, m, tail: float = (1 - CONFIDENCE) / 2, over: str = "evals"):
    """(delta, lo, hi) per row of (..., G) arrays of per-task before passes, after passes,
    discordant pairs and pairs: the array form of ``difference_interval`` (for simulations).
    Each bound leaves ``tail`` outside (two-sided level 1 - 2 * tail)."""
    import numpy as np
    from scipy.special import ndtri, stdtrit  # normal and Student t quantiles

    if over not in OVER:
        raise InputError(f"over={over!r}: must be one of {', '.join(OVER)}")
    kb, ka, disc, m = (np.asarray(x, dtype=float) for x in (kb, ka, disc, m))
    n = m.sum(axis=-1)
    safe = np.maximum(n, 1)
    sb, sa = kb.sum(axis=-1), ka.sum(axis=-1)
    delta = (sa - sb) / safe
    half = ndtri(1 - tail) * discordance_se(disc.sum(axis=-1), safe)
    lo, hi = delta - half, delta + half
    if over == "evals":
        g = (m > 0).sum(axis=-1).astype(float)
        resid = (ka - kb) - delta[..., None] * m
        with np.errstate(invalid="ignore", divide="ignore"):
            se = np.sqrt(g / (g - 1) * (resid**2).sum(axis=-1)) / safe
            q = (disc.sum(axis=-1) + 1) / (n + 2)
            se = np.maximum(se, np.sqrt(q / safe))
            half = stdtrit(np.maximum(g - 1, 1), 1 - tail) * se
        mlo, mhi = _mover(sb, sa, safe, tail)
        # One task says nothing about other tasks: the whole range.
        lo = np.where(g < 2, -1.0, np.minimum(np.minimum(lo, mlo), delta - half))
        hi = np.where(g < 2, 1.0, np.maximum(np.maximum(hi, mhi), delta + half))
    return delta, np.clip(np.minimum(lo, delta), -1, 1), np.clip(np.maximum(hi, delta), -1, 1)


def difference_interval(
    before: Mapping[str, Sequence[bool | None]],
    after: Mapping[str, Sequence[bool | None]],
    *,
    over: str = "evals",
    confidence: float = CONFIDENCE,
    tail: float | None = None,
) -> Difference:
    """after - before over the tasks both have, with a two-sided ``confidence`` interval (or, when
    ``tail`` is given, bounds that each leave ``tail`` outside: one-sided tests use that)."""
    if over not in OVER:
        raise InputError(f"over={over!r}: must be one of {', '.join(OVER)}")
    tail = (1 - confidence) / 2 if tail is None else tail
    rows = paired_counts(before, after)
    method = "cluster-t/MOVER/discordance" if over == "evals" else "discordance-bound"
    if not rows:
        return Difference(
            delta=None, lo=None, hi=None, before=None, after=None, pairs=0, tasks=0, over=over, tail=tail, method=method
        )
    kb, ka, _, disc, m = ([r[i] for r in rows] for i in range(1, 6))
    delta, lo, hi = difference_bounds([kb], [ka], [disc], [m], tail, over)
    n = sum(m)
    return Difference(
        delta=float(delta[0]),
        lo=float(lo[0]),
        hi=float(hi[0]),
        before=sum(kb) / n,
        after=sum(ka) / n,
        pairs=n,
        tasks=len(rows),
        over=over,
        tail=tail,
        method=method,
    )
