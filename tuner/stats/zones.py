"""Verdicts with an indifference zone, decided at repeated looks without inflating false alarms.

The question about a rule is not "is its effect exactly zero?" (with enough calls every rule's
few tokens of dilution would be "significant") but "is it big enough to act on?". Two thresholds:

- ``delta0`` (default 2 points): effects this small do not matter. Flagging a rule whose true
  effect is within ±delta0 is a false alarm.
- ``delta`` (default 8 points): effects this large must be found. Calling such a rule "no
  meaningful effect" is a miss.

Between the two lies the indifference zone: either verdict is acceptable there, which is what lets
every cell be decided in a bounded number of calls (a test that had to separate 7.9 from 8.1
points never ends). At each look a cell is

- ``helps``/``hurts`` when the one-sided test of "effect within ±delta0" rejects (its lower bound
  clears +delta0, or its upper bound clears -delta0), Benjamini–Hochberg across the cells still
  open;
- ``no meaningful effect`` when both one-sided tests of "effect beyond ±delta" reject (TOST: the
  interval sits inside ±delta);
- otherwise still open, and ``undecided`` if the budget runs out.

Optional stopping, two ways of spending the error budget over the looks (under the global null,
an A/A where every cell is a false alarm waiting to happen, the chance of any flag over all looks
is at most ``alpha`` by the union bound, because the shares sum to at most ``alpha``):

- ``Zone.spend(look)``: look k spends ``alpha * 6 / (pi^2 k^2)``. The number of looks need not be
  known in advance (tune's confirmation, whose budget can grow), but the shares fall fast: the
  fourth look tests at 4% of ``alpha``.
- ``Zone.spend_planned(t0, t1)``: when the calls a design may make are known before it starts (the
  ablation engine's budget), look k spends ``a(t_k) - a(t_{k-1})``, t the planned share of the
  budget at the look, with the Lan-DeMets O'Brien-Fleming-type function
  ``a(t) = 2 (1 - Phi(z_{alpha/2} / sqrt(t)))``: little at the first, small looks (where an effect
  must be large to be seen anyway), most at the last. On the simulator this doubled the rules a
  2,376-call design finds on `careful` / `actions` against the harmonic shares (0.15 -> 0.33,
  the same calls, no false alarm in either). The shares depend only on the look's planned share,
  never on the data, which is what keeps the union bound valid.

- ``Zone.continued(...)``: one experiment over several invocations (``ablate``/``tune`` rerun with a
  larger ``--budget-calls``). Each invocation plans its looks as above, but may spend only a
  portion of ``alpha``: ``alpha * G(n)`` minus what the experiment's looks already spent, with ``n``
  the replicates per eval at its last planned look and ``G`` fixed when the experiment starts,
  anchored at the first invocation's last planned look ``n1``:
  ``G(n) = 1 - RESERVE`` for ``n <= n1``, ``1 - RESERVE * n1 / n`` beyond. The first invocation
  spends ``(1 - RESERVE) alpha`` over its looks; a continuation to twice the data spends half of
  the reserve, to four times three quarters, and so on: ``G < 1`` however many continuations come,
  so the union bound keeps the whole experiment's false alarms at most ``alpha``. Inside an
  invocation the portion is spread over its new looks by the same O'Brien-Fleming-type function at
  each look's share of the invocation's planned data, rescaled to what is left: a resumed (same
  cap) invocation spends exactly what the uninterrupted one would have. Why a reserve: without
  one the first plan spends all of ``alpha`` at its last look and a continuation could decide
  nothing (or, spending ``alpha`` afresh as a new plan did, r reruns spend up to r x alpha). Why
  ``RESERVE`` = 1/3 and ``n1 / n``: the answer at the default budget is usually "undecided", so most
  decisions are made by a continuation, typically to 2-8x the first budget (the cap the report's
  "continue" command names); ``n1 / n`` gives it most of the reserve there. Measured by the
  planner (``benchmarks/bench_continuation.py``): one third costs the first invocation 3% of its
  minimum detectable effect (28.3 -> 29.1 points at 600 calls on 7 rules x 2 x 3 evals; 16.6 ->
  17.2 at 2,400 on 30 rules x 2 x 9), and a continuation to 4x the cap decides 16.2 (8.8) where a
  fresh plan at that cap, spending alpha again, would 14.8 (8.0); a half reserve: 29.7 first,
  15.8 at 4x; a quarter: 28.9, 16.6.
  Which looks come, and the cap, depend on the data (a user continues an undecided experiment),
  but each look's share is bounded by ``G`` at a cap the user picks, never by the estimate, and
  ``tests/stats/test_calibration_continuation.py`` measures the A/A over three continuations.

A confidence sequence (betting martingales) would be tighter at many looks; no maintained Python
package ships one as a wheel (``confseq`` builds from C++ source), and at the handful of looks a
budget allows the union bound costs little.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tuner.stats.paired import bh_adjust

__all__ = [
    "Zone",
    "ZoneTest",
    "zone_tests",
    "HELPS",
    "HURTS",
    "NO_EFFECT",
    "OPEN",
    "UNDECIDED",
    "RESERVE",
    "continued_level",
]

HELPS, HURTS, NO_EFFECT, OPEN, UNDECIDED = "helps", "hurts", "no meaningful effect", "open", "undecided"


@dataclass(frozen=True)
class Zone:
    delta0: float = 0.02
    delta: float = 0.08
    alpha: float = 0.05  # false alarms (flagging a rule inside ±delta0), over all looks
    beta: float = 0.10  # misses (calling a rule beyond ±delta "no meaningful effect"), over all looks

    def __post_init__(self):
        if not 0 <= self.delta0 < self.delta:
            raise ValueError(f"need 0 <= delta0 < delta (got {self.delta0}, {self.delta})")

    def spend(self, look: int) -> tuple[float, float]:
        """(alpha, beta) for look ``look`` (1-based): shares of the budgets that sum to them."""
        share = 6 / (math.pi**2 * look**2)
        return self.alpha * share, self.beta * share

    def spend_planned(self, t0: float, t1: float) -> tuple[float, float]:
        """(alpha, beta) for a look at planned budget share ``t1`` whose previous look was at ``t0``
        (0 for the first): the O'Brien-Fleming-type spending function's increment."""
        return _obf(t1, self.alpha) - _obf(t0, self.alpha), _obf(t1, self.beta) - _obf(t0, self.beta)

    def continued(
        self, start: int, looks: Sequence[int], spent: tuple[float, float], anchor: int
    ) -> list[tuple[float, float]]:
        """(alpha, beta) for each of an invocation's new ``looks`` (cumulative replicates per eval; the
        last is its planned end), the experiment's earlier looks having gone to ``start`` and spent
        ``spent``, its first invocation's last planned look at ``anchor`` (module doc: the reserve)."""
        if not looks:
            return []
        most = looks[-1]
        columns = []
        for level, used in ((self.alpha, spent[0]), (self.beta, spent[1])):
            left = max(0.0, level * _share(most, anchor) - used)
            room = level - _obf(start / most, level)
            scale = left / room if room > 0 else 0.0
            prev, shares = start, []
            for n in looks:
                shares.append(scale * (_obf(n / most, level) - _obf(prev / most, level)))
                prev = n
            columns.append(shares)
        return list(zip(columns[0], columns[1]))

    def replayed_then_continued(
        self,
        looks: Sequence[int],
        replayed: Sequence[tuple[float, float]],
        spent: tuple[float, float],
        anchor: int | None,
    ) -> list[tuple[float, float]]:
        """(alpha, beta) for each of an invocation's planned ``looks``: the first ones replay looks an
        earlier invocation made (``replayed``: what each spent then), the rest share what is left
        (``continued``); ``spent``: every look the experiment made, replayed or not; ``anchor``: the
        first invocation's last planned look (None: this is the first, its last look)."""
        replayed = list(replayed[: len(looks)])
        start = looks[len(replayed) - 1] if replayed else 0
        anchor = anchor if anchor is not None else (looks[-1] if looks else 0)
        return replayed + self.continued(start, looks[len(replayed) :], spent, anchor)


RESERVE = 1 / 3  # the share of the error budgets kept for continuations (module doc)


def continued_level(level: float, size: int, made: Sequence[tuple[int, float]], anchor: int | None) -> float:
    """A one-look test's share of ``level`` in a sequence of retries (the publish gate's
    non-inferiority, rerun with more samples): the share a look at ``size`` already made spent
    (a replay), else what the sequence has left by ``size``, ``level x G(size) - spent`` (at least
    0), ``G`` anchored at the first look's size (``anchor``; None: this is the first). ``made``:
    (size, share) of the looks made."""
    for n, share in made:
        if n == size:
            return share
    anchor = size if anchor is None else anchor
    return max(0.0, level * _share(size, anchor) - sum(share for _, share in made))


def _share(most: int, anchor: int) -> float:
    """G: the share of the error budgets an experiment may have spent by a look at ``most`` replicates
    per eval, its first invocation's last planned look at ``anchor``."""
    if most <= anchor:
        return 1.0 - RESERVE
    return 1.0 - RESERVE * anchor / most


def _obf(t: float, level: float) -> float:
    """Lan-DeMets O'Brien-Fleming-type spending: the error spent by budget share ``t`` (0..1)."""
    from scipy.stats import norm

    t = min(1.0, max(0.0, t))
    if t == 0.0 or level <= 0.0:
        return 0.0
    return float(2 * norm.sf(norm.isf(level / 2) / math.sqrt(t)))


@dataclass(frozen=True)
class ZoneTest:
    verdict: str
    p_flag: float  # p-value against "within ±delta0" (the smaller one-sided side, doubled)
    q_flag: float  # after Benjamini-Hochberg over the cells tested at this look
    p_futile: float  # TOST p-value against "beyond ±delta"
    lo: float  # interval at this look's level (1 - 2 * alpha_look)
    hi: float
    level: float = 0.90  # that level: printed beside the interval, so it is read at the level that decided


def _one_sided_all(est, se, df, null: float, greater: bool):
    """p-values of H0: effect <= null (greater=True) or >= null (greater=False), Student's t, for
    every cell of a look at once (arrays: one scipy call per look, where a call per cell was a fifth
    of tune's screening time; the values are the per-cell ones, bit for bit)."""
    import numpy as np
    from scipy.stats import t

    safe = np.where(se > 0, se, 1.0)
    z = (est - null) / safe
    p = t.sf(z, df) if greater else t.cdf(z, df)
    beyond = est > null if greater else est < null
    return np.where(se > 0, p, np.where(beyond, 0.0, 1.0))


def zone_tests(
    estimates: Sequence[tuple[float, float, float]],
    zone: Zone,
    look: int,
    spent: tuple[float, float] | None = None,
    weights: Sequence[float] | None = None,
) -> list[ZoneTest]:
    """Decide every open cell at look ``look`` (1-based). ``estimates``: (effect, standard error,
    degrees of freedom) per open cell. ``spent``: this look's (alpha, beta) when the caller plans
    its looks (``Zone.spend_planned``); otherwise ``Zone.spend(look)``. ``weights``: the weighted
    Benjamini-Hochberg step (Genovese, Roeder & Wasserman 2006: BH on p / w), one positive weight per
    cell, fixed before the data and of mean 1 over the cells tested (the condition under which it
    keeps BH's error; the caller's to meet: ``tuner.engine.design.look_weights``); None: plain BH."""
    import numpy as np
    from scipy.stats import t

    a_look, b_look = spent if spent is not None else zone.spend(look)
    if not estimates:
        return []
    est, se, df = (np.array(col, dtype=float) for col in zip(*estimates))
    up, down = _one_sided_all(est, se, df, zone.delta0, True), _one_sided_all(est, se, df, -zone.delta0, False)
    flags = [float(x) for x in np.minimum(1.0, 2 * np.minimum(up, down))]
    if weights is not None:
        qs = bh_adjust([min(1.0, p / w) for p, w in zip(flags, weights)])
    else:
        qs = bh_adjust(flags)
    futiles = np.maximum(_one_sided_all(est, se, df, zone.delta, False), _one_sided_all(est, se, df, -zone.delta, True))
    crit = t.isf(a_look, df)
    out = []
    for e, s, z, p, q, futile in zip(est.tolist(), se.tolist(), crit.tolist(), flags, qs, futiles.tolist()):
        if q < a_look:
            verdict = HELPS if e > 0 else HURTS
        elif futile < b_look:
            verdict = NO_EFFECT
        else:
            verdict = OPEN
        out.append(
            ZoneTest(
                verdict=verdict, p_flag=p, q_flag=q, p_futile=futile, lo=e - z * s, hi=e + z * s, level=1 - 2 * a_look
            )
        )
    return out
