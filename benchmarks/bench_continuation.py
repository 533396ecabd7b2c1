"""What continuing an engine experiment costs and buys, from the planner (``tuner.planning``: the
minimum detectable effect a plan decides with 80% power, from its own looks and error spending).

On the calibration shape (2 categories x 3 evals, 7 rules: ``tests/stats/test_calibration_continuation.py``)
and on `careful`-sized pools, for reserves of 0 (no continuation possible: the first plan spends all
of alpha), 1/4, 1/3 (``tuner.stats.zones.RESERVE``) and 1/2:

- the first invocation's MDE at its cap (what the reserve costs it);
- the MDE after one continuation to 2x, 4x and 8x the cap, next to a fresh plan at that cap with all
  of alpha (what a continuation gives up for keeping the experiment's error within alpha).

No model is called; it runs in seconds. Run: .venv/bin/python benchmarks/bench_continuation.py
"""

from __future__ import annotations

import time

from tuner.engine import Plan, planned_looks, planned_spending
from tuner.planning.families import engine_family
from tuner.stats import zones
from tuner.stats.zones import Zone


def _plan(rules: int, evals: int, cap: int, anchor=None, made=()) -> Plan:
    cats = {c: tuple(f"{c}/{i}" for i in range(evals)) for c in ("a", "b")}
    return Plan(
        rules=tuple(f"r{i}" for i in range(rules)),
        evals=cats,
        models=("m",),
        budget_calls=cap,
        zone=Zone(),
        anchor=anchor,
        made=tuple(made),
    )


def _mde(plan: Plan) -> float | None:
    return engine_family(plan, "x").mde


def _continued(rules: int, evals: int, cap: int, factor: int) -> Plan:
    first = _plan(rules, evals, cap)
    looks, spending = planned_looks(first), planned_spending(first)
    made = [(n, a, b) for n, (a, b) in zip(looks, spending)]
    return _plan(rules, evals, cap * factor, looks[-1], made)


def main() -> None:
    started = time.process_time()
    shapes = [
        ("calibration shape: 7 rules, 2 x 3 evals", 7, 3, 600),
        ("a careful-sized pool: 30 rules, 2 x 9 evals", 30, 9, 2400),
    ]
    real = zones.RESERVE
    for label, rules, evals, cap in shapes:
        print(f"\n{label}, first cap {cap} calls: MDE in points (80% power)")
        print("reserve | first | 2x cont. / fresh | 4x cont. / fresh | 8x cont. / fresh")
        for reserve in (0.0, 0.25, real, 0.5):
            zones.RESERVE = reserve
            row = [f"{reserve:.2f}", f"{_mde(_plan(rules, evals, cap)) * 100:.1f}"]
            for factor in (2, 4, 8):
                cont = _mde(_continued(rules, evals, cap, factor))
                zones.RESERVE = 0.0
                fresh = _mde(_plan(rules, evals, cap * factor))
                zones.RESERVE = reserve
                row.append(f"{'none' if cont is None else f'{cont * 100:.1f}'} / {fresh * 100:.1f}")
            print(" | ".join(row))
    zones.RESERVE = real
    print(f"\nCPU {time.process_time() - started:.1f} s")


if __name__ == "__main__":
    main()
