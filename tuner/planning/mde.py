"""The smallest effect a design decides with 80% power, from its own looks, zone and multiplicity.

A design is described by what its decision rule sees at each planned look: the standard error and
degrees of freedom of one question's estimate, the share of the error budget spent there
(``Zone.spend_planned`` over the planned shares, or one look at the whole level for a fixed test),
and how many questions share the look's Benjamini–Hochberg step.

``power`` simulates exactly that rule, vectorised (numpy, a fixed seed): the estimate's path over
the looks is a Gaussian random walk with the planned information (cumulative data: the estimate at
look k is N(effect, se_k²), and look j's and look k's covary as se_max(j,k)²); at each look a
question still open is

- decided ("helps") when its flag p-value (against ``±delta0``, Student's t, doubled), times the
  questions still open at that look (BH with one real effect among nulls: its q is its p times the
  open count), is below the look's alpha share;
- closed as "no meaningful effect" when TOST against ``±delta`` rejects at the look's beta share
  (then it is never decided "helps"), and otherwise left open.

The open count at each look is the expected one: every other question is taken to be a null (effect
0) and closes as the same simulation says a null does. ``mde`` is the smallest effect whose power
reaches 80% (bisection with common random numbers, so power is monotone in the effect).

What this is not: a promise about any effect when many questions matter at once (BH is then less
strict, so the MDE printed is the conservative one), or at pass rates other than the one assumed
(``RATE``: 50%, the noisiest; rates nearer 0 or 1 decide smaller effects). The calibration tests
(``tests/stats/test_calibration_mde.py``) plant an effect at the printed MDE in the real engine,
tune's confirmation and compare and check it is decided 80% ± 7% of the time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

__all__ = ["POWER", "RATE", "Design", "power", "mde"]

POWER = 0.8  # the power an MDE is quoted at
RATE = 0.5  # the pass rate assumed: the largest binomial variance, so the MDE is not optimistic
_SIMS = 2000
_SEED = 20261127


@dataclass(frozen=True)
class Design:
    """One question's view of a design. Per planned look (same length): ``se`` of its estimate,
    ``df`` of its t reference (``math.inf``: normal), ``alpha``/``beta`` the look's error shares,
    ``tested`` whether the question is tested there at all (the engine waits for enough data).
    ``questions``: how many share the BH step (1: none). ``sided``: 2 for the zone's two-sided flag;
    1 for a one-sided test (the gate's drop test), where ``beta`` is unused."""

    se: tuple[float, ...]
    df: tuple[float, ...]
    alpha: tuple[float, ...]
    beta: tuple[float, ...]
    tested: tuple[bool, ...]
    questions: int = 1
    delta0: float = 0.0
    delta: float = math.inf
    sided: int = 2
    # The question's weight in a weighted BH step (``Plan.priority``: mean 1 over the questions); its
    # q is its p times the open count over this weight. 1: plain BH.
    weight: float = 1.0

    @property
    def looks(self) -> int:
        return len(self.se)


def _noise(design: Design, sims: int, seed: int):
    """(sims x looks) standard-normal paths scaled to each look's estimate error: the cumulative
    mean of independent increments of information."""
    import numpy as np

    rng = np.random.default_rng(seed)
    info = np.array([1.0 / s**2 for s in design.se])
    gain = np.diff(np.concatenate([[0.0], info]))
    gain = np.maximum(gain, 0.0)
    walk = np.cumsum(rng.standard_normal((sims, design.looks)) * np.sqrt(gain), axis=1)
    return walk / info


def _run(design: Design, effect: float, noise, open_count) -> tuple:
    """(decided helps, closed futile, open before each look) per simulated path."""
    import numpy as np
    from scipy.special import stdtr

    sims = noise.shape[0]
    alive = np.ones(sims, dtype=bool)
    helps = np.zeros(sims, dtype=bool)
    futile = np.zeros(sims, dtype=bool)
    open_frac = np.zeros(design.looks)
    for k in range(design.looks):
        open_frac[k] = alive.mean()
        if not design.tested[k]:
            continue
        est = effect + noise[:, k]
        se, df = design.se[k], design.df[k]
        if design.sided == 2:
            p = np.minimum(
                1.0, 2 * np.minimum(stdtr(df, -(est - design.delta0) / se), stdtr(df, (est + design.delta0) / se))
            )
        else:
            p = stdtr(df, -est / se)
        q = np.minimum(1.0, p * open_count[k] / design.weight)
        flag = alive & (q < design.alpha[k]) & (est > 0)
        helps |= flag
        alive &= ~(q < design.alpha[k])
        if design.sided == 2 and math.isfinite(design.delta):
            tost = np.maximum(stdtr(df, (est - design.delta) / se), stdtr(df, -(est + design.delta) / se))
            stop = alive & (tost < design.beta[k])
            futile |= stop
            alive &= ~stop
    return helps, futile, open_frac


def _open_counts(design: Design, noise) -> list[float]:
    """Questions open at each look, the others taken as nulls that close as a null does (at the
    weight of an average question: the mean weight is 1)."""
    if design.questions <= 1:
        return [1.0] * design.looks
    full = [float(design.questions)] * design.looks
    _, _, frac = _run(replace(design, weight=1.0), 0.0, noise, full)
    return [1.0 + (design.questions - 1) * f for f in frac]


def power(design: Design, effect: float, *, sims: int = _SIMS, seed: int = _SEED) -> float:
    """The chance the design decides "helps" for a question whose true effect is ``effect``."""
    noise = _noise(design, sims, seed)
    helps, _, _ = _run(design, effect, noise, _open_counts(design, noise))
    return float(helps.mean())


def mde(
    design: Design, *, target: float = POWER, sims: int = _SIMS, seed: int = _SEED, most: float = 1.0
) -> float | None:
    """The smallest effect decided with power ``target``, to 0.1 point; None when even ``most``
    (an effect of 100 points) is not (a design with no tested look, or far too few calls)."""
    if not any(design.tested):
        return None
    noise = _noise(design, sims, seed)
    counts = _open_counts(design, noise)

    def pw(d: float) -> float:
        return float(_run(design, d, noise, counts)[0].mean())

    if pw(most) < target:
        return None
    lo, hi = 0.0, most
    while hi - lo > 0.002:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if pw(mid) < target else (lo, mid)
    return round(hi, 3)
