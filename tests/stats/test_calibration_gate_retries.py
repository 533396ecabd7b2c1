"""Calibration: the publish gate's non-inferiority over retries with more ``--samples``
(``tuner.publish.gate_looks``: each retry is a look of one sequential test, its level from
``tuner.stats.zones.continued_level``).

The gate's samples of a candidate sit at a fixed window of sample indices, so a retry with more
samples re-reads the first ones and adds to them: the looks here are prefixes of one draw. A user
retries whenever the gate did not pass (the worst case for its size). Worlds whose true drop is
exactly the margin, 3 held-out evals per category (the Python suite), the gate's default 12
samples and then 24, 36, 48 (three retries); the margin of the simulation tests (10 points) and
the default tolerance (15).

- size at the margin over the four looks: at most alpha (measured: 0.036 at worst; one look at the
  default 12 samples, a fresh test: 0.04);
- the mutant, a fresh fixed test at alpha at every retry (what the gate did): 0.105 at worst, caught.
"""

import numpy as np
import pytest
from scipy.special import logit

from tuner.stats import ALPHA
from tuner.stats.difference import difference_bounds
from tuner.stats.gates import NON_INFERIOR, decide
from tuner.stats.simulate import World, draw_pairs, population_delta
from tuner.stats.zones import continued_level

TASKS = 3
SIMS = 2000
LOOKS = (12, 24, 36, 48)  # the default, then three retries


def _levels(fresh: bool) -> list[float]:
    """Each look's level, as ``GateLooks`` records them (``fresh``: the mutant, alpha every time)."""
    made: list[tuple[int, float]] = []
    for n in LOOKS:
        level = ALPHA if fresh else continued_level(ALPHA, n, made, made[0][0] if made else None)
        made.append((n, level))
    return [level for _, level in made]


def _passed(before, after, n: int, level: float, margin: float):
    b, a = before[..., :n], after[..., :n]
    arrays = (b.sum(-1), a.sum(-1), (b != a).sum(-1), np.full(b.shape[:2], n))
    delta, lo, hi = difference_bounds(*arrays, tail=level, over="samples")
    return decide(delta, lo, hi, margin) == NON_INFERIOR


def _size_with_retries(fresh: bool) -> float:
    """The largest share, over the worlds at the margin, of sequences that pass at some look."""
    rng = np.random.default_rng(29)
    levels = _levels(fresh)
    worst = 0.0
    for margin in (0.10, 0.15):
        for mu in (0.3, 0.5, 0.8):
            world = World(mu, 0.0, float(logit(mu - margin) - logit(mu)))
            assert population_delta(world) == pytest.approx(-margin, abs=1e-3)
            before, after, _ = draw_pairs(rng, world, SIMS, TASKS, LOOKS[-1])
            passed = np.zeros(SIMS, dtype=bool)
            for n, level in zip(LOOKS, levels):
                passed |= _passed(before, after, n, level, margin)  # a passed gate is not retried: its pass stands
            worst = max(worst, float(passed.mean()))
    return worst


def test_the_levels_of_any_number_of_retries_add_up_to_at_most_alpha():
    levels = _levels(False)
    assert levels[0] == pytest.approx(ALPHA * 2 / 3) and all(x > 0 for x in levels)
    assert sum(levels) <= ALPHA
    many: list[tuple[int, float]] = []
    for n in range(12, 12 * 50, 12):
        many.append((n, continued_level(ALPHA, n, many, 12)))
    assert sum(x for _, x in many) <= ALPHA + 1e-12
    # A retry at a size already looked at replays that look's level: nothing more is spent.
    assert continued_level(ALPHA, 24, [(12, 0.03), (24, 0.01)], 12) == 0.01


def test_size_at_the_margin_with_three_retries_is_at_most_alpha():
    size = _size_with_retries(fresh=False)
    print(f"gate with retries (sequential): non-inferior at a true drop of the margin {size:.3f}")
    assert size <= ALPHA


def test_the_size_check_fails_on_a_fresh_test_at_every_retry():
    size = _size_with_retries(fresh=True)
    print(f"gate with retries (mutant: a fresh fixed test each time): {size:.3f}")
    assert size > ALPHA
