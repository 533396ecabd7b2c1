"""How long one rule-effect engine design takes at tune's screening shape (94 questions, 9 evals,
1,237 calls, 4 looks), with the engine's former helpers and with the current ones, with and without
OpenBLAS's threads.

The former helpers (a sha256 of the whole key per question per point, the design matrix tested
factor by factor, the by-eval reading looped per cell and eval, a scipy call per cell) are the
reference of ``tests/engine/test_same_decisions.py``, which checks both decide alike, float for float.
What the calibration at this shape costs is designs x this (``tests/stats/test_calibration_mde_screen.py``
runs 300).

Run: .venv/bin/python benchmarks/bench_engine.py [--designs 10]
Each configuration runs in its own process (the BLAS thread count is fixed when numpy loads).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _child(designs: int, former: bool) -> None:
    import time

    sys.path.insert(0, str(REPO / "tests" / "engine"))
    import test_same_decisions as ref

    import tuner.engine.engine as engine_module
    import tuner.engine.fit as fit_module

    if former:
        engine_module._points = ref._points_before
        engine_module._describe_cells = ref._describe_cells_before
        engine_module.zone_tests = ref._zone_tests_before
        fit_module._fit = ref._fit_before
    ref._run(ref.SCREEN, 999)  # imports and first-call costs out of the timing
    start = time.perf_counter()
    for seed in range(designs):
        ref._run(ref.SCREEN, seed)
    print(json.dumps({"seconds_per_design": round((time.perf_counter() - start) / designs, 3)}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--designs", type=int, default=10)
    parser.add_argument("--child", choices=["former", "current"])
    args = parser.parse_args()
    if args.child:
        return _child(args.designs, args.child == "former")
    for helpers in ("former", "current"):
        for threads in ("1", "default"):
            env = dict(os.environ)
            env["OPENBLAS_NUM_THREADS"] = "1" if threads == "1" else str(os.cpu_count() or 1)
            out = subprocess.run(
                [sys.executable, __file__, "--child", helpers, "--designs", str(args.designs)],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            row = {"helpers": helpers, "openblas_threads": env["OPENBLAS_NUM_THREADS"], **json.loads(out.stdout)}
            print(json.dumps(row), flush=True)
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
