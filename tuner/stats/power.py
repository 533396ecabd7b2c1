"""Power of a paired comparison: how many samples per task it takes to see an effect.

Simulates exactly the test ``compare`` runs on one cell: K paired samples on each of n tasks, an
exact two-sided McNemar test on the discordant pairs, significant when p < alpha and the observed
change has the expected sign. Power is the share of simulated comparisons that succeed.

The world simulated, stated so results are read correctly:

- Tasks differ: a task's pass rate before is drawn from a Beta with mean ``baseline`` and
  intra-task correlation ``icc`` (Beta(a, b) with a + b = (1 - icc) / icc). ICC 0 means every task
  has the baseline rate; near 1 means tasks either always or never pass. The direction matters less
  than one might think: McNemar conditions on the tasks, so always-passing tasks add no noise, but a
  change must then come from the few tasks in between. Default ``DEFAULT_ICC`` = 0.3 (a moderate
  spread, like the simulator's per-eval rates); estimated from stored runs when there are any
  (``estimate_icc``).
- The change shifts every task by the same amount on the logit scale, calibrated so the mean rate
  moves from ``baseline`` to ``baseline + effect`` (a fixed additive shift would leave the rate
  range at always-passing tasks).
- Before and after samples are independent given the task's rates (a different prompt is a
  different draw, for a real model and for the simulator alike).
- One cell at level ``alpha``: ``compare`` also adjusts across its table (Benjamini–Hochberg), so
  with many cells a real comparison needs somewhat more than this says.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from tuner.errors import InputError

__all__ = [
    "DEFAULT_ICC",
    "DEFAULT_BASELINE",
    "K_GRID",
    "TARGET_POWER",
    "PowerPoint",
    "PowerResult",
    "power_curve",
    "estimate_icc",
]

DEFAULT_ICC = 0.3
DEFAULT_BASELINE = 0.6
K_GRID = (1, 2, 3, 5, 8, 13, 20)
TARGET_POWER = 0.8
_EPS = 1e-6


class PowerPoint(BaseModel):
    samples: int
    power: float


class PowerResult(BaseModel):
    tasks: int
    baseline: float
    effect: float
    icc: float
    alpha: float
    simulations: int
    points: list[PowerPoint]
    smallest_k: int | None  # smallest K in the grid reaching TARGET_POWER, None if none does
    source: str = "default"  # where baseline/icc came from: "default", "option", "stored runs"


def _beta_params(mean: float, icc: float) -> tuple[float, float]:
    total = (1.0 - icc) / icc
    return mean * total, (1.0 - mean) * total


def _logit_shift(rates, target: float) -> float:
    """The logit shift s with mean(expit(logit(rates) + s)) == target (bisection, vectorised)."""
    import numpy as np
    from scipy.special import expit, logit

    base = logit(np.clip(rates, _EPS, 1 - _EPS))
    lo, hi = -40.0, 40.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if expit(base + mid).mean() < target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _mcnemar_exact(b, c):
    """Two-sided exact McNemar p-values for arrays of discordant counts (b: fail→pass, c: pass→fail)."""
    import numpy as np
    from scipy.stats import binom

    n = b + c
    p = np.minimum(1.0, 2.0 * binom.cdf(np.minimum(b, c), n, 0.5))
    return np.where(n == 0, 1.0, p)


def power_curve(
    tasks: int,
    effect: float = 0.15,
    baseline: float = DEFAULT_BASELINE,
    icc: float = DEFAULT_ICC,
    alpha: float = 0.05,
    ks: Sequence[int] = K_GRID,
    simulations: int = 4000,
    seed: int = 0,
    source: str = "default",
) -> PowerResult:
    """Power of ``compare``'s test for each K in ``ks`` on ``tasks`` tasks."""
    import numpy as np
    from scipy.special import expit, logit

    if tasks < 1:
        raise InputError("power needs at least one task")
    if not 0.0 < baseline < 1.0:
        raise InputError(f"--baseline {baseline}: must be strictly between 0 and 1")
    if effect == 0 or not 0.0 < baseline + effect < 1.0:
        raise InputError(
            f"--effect {effect}: baseline + effect must stay strictly between 0 and 1, and effect must not be 0"
        )
    if not 0.0 < icc < 1.0:
        raise InputError(f"icc {icc}: must be strictly between 0 and 1")
    rng = np.random.default_rng(seed)
    a, b = _beta_params(baseline, icc)
    shift = _logit_shift(rng.beta(a, b, size=50_000), baseline + effect)
    points = []
    for k in ks:
        before_rate = np.clip(rng.beta(a, b, size=(simulations, tasks, 1)), _EPS, 1 - _EPS)
        after_rate = expit(logit(before_rate) + shift)
        before = rng.random((simulations, tasks, k)) < before_rate
        after = rng.random((simulations, tasks, k)) < after_rate
        f2p = (~before & after).sum(axis=(1, 2))
        p2f = (before & ~after).sum(axis=(1, 2))
        right_sign = (f2p > p2f) if effect > 0 else (p2f > f2p)
        hits = (_mcnemar_exact(f2p, p2f) < alpha) & right_sign
        points.append(PowerPoint(samples=int(k), power=float(hits.mean())))
    smallest = next((p.samples for p in points if p.power >= TARGET_POWER), None)
    return PowerResult(
        tasks=tasks,
        baseline=baseline,
        effect=effect,
        icc=icc,
        alpha=alpha,
        simulations=simulations,
        points=points,
        smallest_k=smallest,
        source=source,
    )


def estimate_icc(clusters: Sequence[tuple[int, int]]) -> tuple[float, float] | None:
    """(pooled rate, intra-task correlation) from (passes, samples) per task-run cluster.

    One-way ANOVA estimator for binary outcomes. Only clusters with at least two samples say
    anything about within-task spread; None when there are fewer than two such clusters or the
    rate is 0 or 1 (no spread to measure). Clipped to [0.01, 0.95].
    """
    import numpy as np

    data = np.array([(k, n) for k, n in clusters if n >= 2], dtype=float)
    if len(data) < 2:
        return None
    k, n = data[:, 0], data[:, 1]
    total, m = n.sum(), len(n)
    rate = k.sum() / total
    if rate in (0.0, 1.0):
        return None
    p = k / n
    msb = (n * (p - rate) ** 2).sum() / (m - 1)
    msw = (n * p * (1 - p)).sum() / (total - m)
    n0 = (total - (n**2).sum() / total) / (m - 1)
    denom = msb + (n0 - 1) * msw
    icc = (msb - msw) / denom if denom > 0 else 0.0
    return float(rate), float(min(0.95, max(0.01, icc)))
