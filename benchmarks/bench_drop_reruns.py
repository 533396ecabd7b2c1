"""The acceptance over reruns with a larger cap: what a user who reruns tune (the printed "continue"
command: the default cap, then 2x, 4x, 8x) until it accepts is told, through the product's path
(``tuner.publish.simulate.run_path``: screening, check, ``confirm`` with the experiment's looks kept
between invocations, ``accept``, the publish gate at its first look). A user stops at the first
invocation that accepts (and publishes unless the gate refuses).

Worlds (planted on one model; target evals at 30-60%, others 30-90%):

- harm: +30 on the target, -15 (the default --tolerance: the margin) in one other category;
- win: +30 on the target, nothing elsewhere;
- boundary: +delta0 (2 points) on the target, nothing elsewhere.

Shapes: Convex (8 categories, 9-12 + 3 evals; the screening's first look counted, not simulated,
as ``test_calibration_tune_path``) and the Python suite (2 categories, 3 + 1 evals; the engine
screens, its looks continued).

Run: .venv/bin/python benchmarks/bench_drop_reruns.py [--seeds 100] [--suite evals|suites/python]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "stats"))

from test_calibration_tune_path import CONVEX, world  # noqa: E402

from tuner.publish.simulate import run_path  # noqa: E402
from tuner.tuning.confirm_looks import MemoryLooks  # noqa: E402

SHAPES = {
    "evals": dict(target="actions", other="idioms", cap=2475, kw=dict(changes=CONVEX["changes"], screening_calls=126)),
    "suites/python": dict(target="data", other="text", cap=600, kw={}),
}
TIMES = (1, 2, 4, 8)


def user(w, seed: int, suite: str, times=TIMES) -> list:
    """One user's invocations until one accepts: the results, in order."""
    s = SHAPES[suite]
    store, looks, out = MemoryLooks(), (None, []), []
    for t in times:
        r = run_path(w, seed, cap=s["cap"] * t, looks=looks, confirm_store=store, **s["kw"])
        looks = r.looks
        out.append(r)
        if r.decision == "accepted":
            break
    return out


def rates(w, seeds: int, suite: str, times=TIMES) -> dict:
    c: Counter = Counter()
    for seed in range(seeds):
        runs = user(w, seed, suite, times)
        c["published first"] += runs[0].published
        c["accepted first"] += runs[0].decision == "accepted"
        c["published"] += any(r.published for r in runs)
        c["accepted"] += any(r.decision == "accepted" for r in runs)
        for j, r in enumerate(runs):
            c[f"published by {times[j]}x"] += 0
            if r.published:
                for k in range(j, len(times)):
                    c[f"published by {times[k]}x"] += 1
    return {k: round(v / seeds, 3) for k, v in sorted(c.items())}


def worlds(suite: str) -> dict:
    s = SHAPES[suite]
    return {
        "harm -15": world(suite, s["target"], 0.30, (s["other"], 0.15)),
        "win +30": world(suite, s["target"], 0.30),
        "boundary +delta0": world(suite, s["target"], 0.02),
    }


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--seeds", type=int, default=100)
    p.add_argument("--suite", default="evals")
    p.add_argument("--world", action="append")
    a = p.parse_args()
    for name, w in worlds(a.suite).items():
        if a.world and name not in a.world:
            continue
        t = time.time()
        print(f"{a.suite} {name}: {rates(w, a.seeds, a.suite)} [{time.time() - t:.0f}s]", flush=True)
        if name == "harm -15":
            one = rates(w, a.seeds, a.suite, times=(8,))
            print(f"{a.suite} {name}, one run at 8x: published {one['published']}", flush=True)


if __name__ == "__main__":
    main()
