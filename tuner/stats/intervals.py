"""Pass rates with 95% intervals that treat tasks (evals) as the unit.

Several samples of one task are not independent evidence about the model: they share the task.
The interval therefore comes from a cluster bootstrap: resample tasks with replacement and
recompute the pooled rate (scipy.stats.bootstrap with the per-task pass counts and sample counts
as paired data, percentile method). With one sample per task it is the ordinary bootstrap.
When every task has the same rate the bootstrap is degenerate and we report the Wilson interval on
the pooled counts instead, so an all-pass run still shows honest uncertainty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel

__all__ = ["Estimate", "rate_interval", "CONFIDENCE", "N_RESAMPLES"]

CONFIDENCE = 0.95
N_RESAMPLES = 2000


class Estimate(BaseModel):
    """A pass rate over some tasks, with its interval."""

    rate: float | None
    lo: float | None
    hi: float | None
    passes: int
    n: int
    tasks: int
    method: str


def _wilson(passes: int, n: int) -> tuple[float, float]:
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(passes, n, alpha=1 - CONFIDENCE, method="wilson")
    return float(lo), float(hi)


def rate_interval(per_task: Mapping[str, Sequence[bool]], seed: int = 0) -> Estimate:
    """``per_task`` maps a task id to its sample outcomes (True = pass); infra failures excluded."""
    import numpy as np

    tasks = [list(v) for v in per_task.values() if len(v)]
    passes = np.array([sum(v) for v in tasks], dtype=float)
    counts = np.array([len(v) for v in tasks], dtype=float)
    n, p = int(counts.sum()), int(passes.sum())
    if n == 0:
        return Estimate(rate=None, lo=None, hi=None, passes=0, n=0, tasks=0, method="none")
    rate = p / n
    rates = passes / counts
    if len(tasks) < 2 or np.ptp(rates) == 0:
        lo, hi = _wilson(p, n)
        return Estimate(rate=rate, lo=min(lo, rate), hi=max(hi, rate), passes=p, n=n, tasks=len(tasks), method="wilson")
    from scipy.stats import bootstrap

    res = bootstrap(
        (passes, counts),
        lambda a, b, axis=-1: a.sum(axis=axis) / b.sum(axis=axis),
        paired=True, vectorized=True, confidence_level=CONFIDENCE, n_resamples=N_RESAMPLES,
        method="percentile", random_state=np.random.default_rng(seed),
    )
    lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return Estimate(rate=rate, lo=min(lo, rate), hi=max(hi, rate), passes=p, n=n, tasks=len(tasks), method="cluster-bootstrap")
