"""Calibration of the acceptance's non-inferiority over reruns (``tuner.tuning.noninferior``), through
the product's path (``tuner.publish.simulate.run_path``: the screening's engine continued, the
check, ``confirm`` with the experiment's looks kept between invocations, ``accept``, the publish
gate at its first look; ``benchmarks/bench_drop_reruns.py``'s ``user``).

A user runs ``tune`` at the default cap, then at 2x, 4x and 8x (the "continue" command's way) until
an invocation accepts; what they publish is what they are told is "better at the target without
making the others worse". Shape: the Python suite (2 categories x 3 tuning + 1 held-out evals, the
smallest the product ships; its one other category is where the intersection-union test is at its
size: one cell, nothing else to stop it). Worlds:

- **at the margin**: +30 points on the target and -15 (the default ``--tolerance``) on every eval of
  the other category. Published over the four invocations: at most alpha (the NI test's error, over
  any number of reruns: its levels are the confirmation's alpha shares, which the experiment's
  looks never spend twice).
- **a clear win**: +30 on the target, nothing elsewhere: published without ``--force``, the happy
  path, and its price against the former rule (no drop established elsewhere, no margin).

The mutant is the former rule (non-inferiority not required: ``accept`` told every cell is shown):
at the margin it publishes half the time.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bench_drop_reruns import rates, worlds  # noqa: E402

from tuner.stats import ALPHA  # noqa: E402

pytestmark = [pytest.mark.slow]

SUITE = "suites/python"


def _band(p: float, n: int) -> float:
    """Two binomial standard errors at rate ``p`` over ``n`` users."""
    return 2 * math.sqrt(p * (1 - p) / n)


def test_a_drop_of_the_margin_is_published_within_alpha_over_three_reruns():
    """Measured (200 users): published 0.025 over the four invocations (0.015 at the first); the
    former rule 0.41 at the first, 0.47 within the reruns (100). On Convex (7 other categories,
    ``bench_drop_reruns.py --suite evals``, 100 users): 0.00, the former 0.47 / 0.49."""
    r = rates(worlds(SUITE)["harm -15"], 200, SUITE)
    print("python, +30 on the target, -15 elsewhere, over reruns:", r)
    assert r["published"] <= ALPHA + _band(ALPHA, 200) / 2, r
    assert r["accepted"] <= ALPHA + _band(ALPHA, 200) / 2, r


def test_a_clear_win_is_published_without_force_over_reruns():
    """+30 on the target, nothing elsewhere. Measured (100): published 0.45 at the default cap, 0.73
    by 2x, 0.96 by 4x, 0.98 by 8x (the former rule: 0.68, 0.95, 0.99, 0.99): the price of ruling a
    15-point drop out on 4 evals x 16 samples at the first cap."""
    r = rates(worlds(SUITE)["win +30"], 100, SUITE)
    print("python, +30 on the target, over reruns:", r)
    assert r["published first"] >= 0.30, r
    assert r["published"] >= 0.90, r


def test_the_check_fails_without_the_margin(monkeypatch):
    """Mutant: the former rule, every other category taken as shown (only "no drop established"
    stops). Measured (100): published at the margin 0.41 at the first cap, 0.47 within the reruns."""
    import tuner.tuning.acceptance as acceptance

    real = acceptance.accept

    def former(*args, noninferiority=None, **kw):
        kept = [n.model_copy(update={"verdict": "non-inferior"}) for n in noninferiority or []]
        return real(*args, noninferiority=kept, **kw)

    monkeypatch.setattr(acceptance, "accept", former)
    r = rates(worlds(SUITE)["harm -15"], 100, SUITE)
    print("mutant (no margin), python, -15 elsewhere:", r)
    assert r["published"] > ALPHA + _band(ALPHA, 100), r


def test_a_clear_win_on_convex_is_published_within_the_reruns():
    """Convex: 7 other categories must each rule out 15 points. Measured (100): published 0.10 at the
    default cap (2,475 calls; the former rule 0.91), 0.60 by 2x, 0.89 by 4x, 0.97 by 8x (0.99 by 2x
    before): the price of the margin is paid in reruns. At the margin (-15 on idioms) 0.00 over the
    reruns (the former rule 0.47 at the first cap, 0.49 within)."""
    r = rates(worlds("evals")["win +30"], 100, "evals")
    print("convex, +30 on the target, over reruns:", r)
    assert r["published"] >= 0.90 and r["published by 2x"] > r["published first"], r
