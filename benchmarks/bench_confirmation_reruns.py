"""Tune's confirmation over reruns with a larger ``--budget-calls``: the figures docs/tune-and-publish.md
("Reruns with a larger cap") and docs/statistics.md state, on both suites' shapes, for the
confirmation as it is (one sequential test per experiment, ``tuner.tuning.confirm_looks``) and as
it was (each invocation planned afresh, all of alpha over its own looks).

A user runs tune at the default cap, then at 2x, 4x and 8x while nothing was accepted (the screening
not simulated: an undecided one spends its share and hands on a change), through the product's
check, confirmation, acceptance and publish gate (``tests/stats/test_calibration_confirmation_reruns.py``'s
``reruns``). Worlds:

- boundary: a different change at each invocation, each worth exactly delta0 (2 points) on the
  target (the worst case for a false "accepted");
- clear win: the same change, +30 points on the target;
- harm: the same change, +30 on the target and -15 (Convex) / -25 (Python) in one other category.

No model is called. Run: .venv/bin/python benchmarks/bench_confirmation_reruns.py [--seeds 200]
(about 15 minutes on 2 busy cores at 200 seeds; the Convex shape is most of it).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "stats"))

from test_calibration_confirmation_reruns import CANDIDATES, TARGET, rates, reruns, world  # noqa: E402

from tuner.stats.zones import Zone  # noqa: E402
from tuner.tuning.simulate import Term, World  # noqa: E402

OTHER = {"suites/python": ("text", 0.25), "evals": ("idioms", 0.15)}


def _former(self, start, looks, spent, anchor):
    """The former confirmation's shares: all of alpha over this invocation's own looks."""
    most, prev, out = looks[-1], start, []
    for n in looks:
        out.append(self.spend_planned(prev / most, n / most))
        prev = n
    return out


def _harm(suite: str, seeds: int) -> dict[str, float]:
    base = world(suite, 0.30)
    other, harm = OTHER[suite]
    w = World(
        shape=base.shape,
        target=TARGET[suite],
        baseline=base.baseline,
        candidates=base.candidates,
        terms=(Term(("c1",), {TARGET[suite]: 0.30, other: -harm}),),
        target_rates=(0.3, 0.6),
    )
    first = within = 0
    for seed in range(seeds):
        runs = reruns(w, seed, suite, ["c1"] * 4)
        first += runs[0]["published"]
        within += any(r["published"] for r in runs)
    return {"published at the first": first / seeds, "published within the reruns": within / seeds}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=200)
    seeds = parser.parse_args().seeds
    real = Zone.continued
    for suite in ("suites/python", "evals"):
        for how in ("sequential", "former"):
            Zone.continued = real if how == "sequential" else _former
            kw = {} if how == "sequential" else {"continued": False}
            t = time.time()
            boundary = rates(suite, 0.02, seeds, list(CANDIDATES), **kw)
            win = rates(suite, 0.30, seeds // 2, ["c1"] * 4, **kw)
            print(
                f"{suite} ({how}): +delta0 on changing selections accepted {boundary['accepted']:.3f} "
                f"(first {boundary['accepted at the first']:.3f}); +30 accepted {win['accepted']:.2f} "
                f"(first {win['accepted at the first']:.2f}), published {win['published']:.2f} "
                f"[{time.time() - t:.0f}s]",
                flush=True,
            )
        Zone.continued = real
        print(f"{suite}: harm elsewhere {_harm(suite, seeds // 2)}", flush=True)


if __name__ == "__main__":
    main()
