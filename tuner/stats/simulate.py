"""The simulated worlds the calibration suite (tests/stats) and ``benchmarks/bench_stats.py`` run.

A world, stated so every figure is read correctly:

- A category's tasks have pass rates drawn from a Beta with mean ``mu`` and intra-task correlation
  ``rho`` (``rho`` = 0: every task has rate ``mu``; near 1: tasks always or never pass).
- A change moves every task by ``shift`` on the logit scale, plus a task-specific part
  ``spread * N(0, 1)`` (a rule that helps some tasks and hurts others).
- Samples are independent Bernoulli draws given their task's rate, before and after alike.

Two truths per simulated suite: the population one (the category's mean over all its tasks, what
the ``over="evals"`` intervals and ``rate_interval`` target) and the conditional one (the mean over
the drawn tasks, what ``over="samples"`` targets).

``RATE_GRID`` x ``SHIFT_GRID`` is the calibration grid; docs/statistics.md's coverage and size claims hold on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

__all__ = ["World", "RATE_GRID", "SHIFT_GRID", "task_rates", "draw_rates", "draw_pairs", "population_delta"]

RATE_GRID = tuple((mu, rho) for mu in (0.1, 0.3, 0.5, 0.7, 0.9) for rho in (0.0, 0.1, 0.3, 0.6, 0.9))
# (shift, spread): none, small, large down, mixed, up with spread, a large gain
SHIFT_GRID = ((0.0, 0.0), (0.7, 0.0), (-1.5, 0.0), (0.0, 1.0), (1.0, 1.0), (3.0, 0.0))
_EPS = 1e-9


@dataclass(frozen=True)
class World:
    mu: float
    rho: float
    shift: float = 0.0
    spread: float = 0.0


def task_rates(rng, mu: float, rho: float, shape):
    import numpy as np

    if rho <= 0:
        return np.full(shape, mu)
    total = (1 - rho) / rho
    return np.clip(rng.beta(mu * total, (1 - mu) * total, size=shape), _EPS, 1 - _EPS)


def _after_rates(rng, rates, world: World):
    from scipy.special import expit, logit

    return expit(logit(rates) + world.shift + world.spread * rng.standard_normal(rates.shape))


@lru_cache(maxsize=256)
def population_delta(world: World) -> float:
    """The category-level truth of a change: E[after rate] - E[before rate] over tasks."""
    import numpy as np

    rng = np.random.default_rng(12345)
    rates = task_rates(rng, world.mu, world.rho, 400_000)
    return float(_after_rates(rng, rates, world).mean() - rates.mean())


def draw_rates(rng, world: World, sims: int, tasks: int, samples: int):
    """Per-task pass counts (sims, tasks) of ``samples`` samples each, at the world's before rates."""
    rates = task_rates(rng, world.mu, world.rho, (sims, tasks))
    return rng.binomial(samples, rates)


def draw_pairs(rng, world: World, sims: int, tasks: int, samples: int):
    """(before, after) outcomes (sims, tasks, samples) and the conditional truth per simulation."""
    rates = task_rates(rng, world.mu, world.rho, (sims, tasks, 1))
    after_rates = _after_rates(rng, rates, world)
    before = rng.random((sims, tasks, samples)) < rates
    after = rng.random((sims, tasks, samples)) < after_rates
    return before, after, (after_rates - rates).mean(axis=(1, 2))
