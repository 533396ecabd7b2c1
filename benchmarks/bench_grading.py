"""Grading throughput: every reference answer batched vs one at a time (cache off), and the
bubblewrap jail's overhead per tool run (`node -e 0` jailed vs TUNER_SANDBOX=none).

Run: .venv/bin/python benchmarks/bench_grading.py [--limit N] [--overhead-only]
Target on 2 cores: batched <= 1 s per eval and >= 4x faster than one at a time; the jail adds
well under 0.1 s per tool run (a batch runs about five tools).
Measured (2 cores shared, load ~7): the jail adds 15-18 ms per tool run (node -e 0: ~110 ms
unjailed); 24 reference answers batched took 9.9-10.2 s jailed vs 9.8-11.9 s before the jail.
"""

from __future__ import annotations

import argparse
import os
import shutil
import time
from pathlib import Path

from tuner.evals import load_suite
from tuner.grading import GradeRequest, sandbox
from tuner.paths import Project
from tuner.suites import grade


def _timed(project: Project, requests: list[GradeRequest]) -> tuple[float, int]:
    start = time.monotonic()
    results = grade(project, requests, suite=load_suite(project), use_cache=False)
    return time.monotonic() - start, sum(r.passed for r in results)


def _jail_overhead(runs: int = 20) -> None:
    node = shutil.which("node") or "node"
    timings = {}
    for mode in ("none", ""):
        os.environ["TUNER_SANDBOX"] = mode
        with sandbox.temp_dir() as home:
            sandbox.run([node, "-e", "0"], cwd=home, home=home, timeout_s=30)  # warm up
            start = time.monotonic()
            for _ in range(runs):
                sandbox.run([node, "-e", "0"], cwd=home, home=home, timeout_s=30)
            timings[mode or "jail"] = (time.monotonic() - start) / runs
    os.environ.pop("TUNER_SANDBOX")
    extra = timings["jail"] - timings["none"]
    print(f"node -e 0: {timings['none'] * 1000:.0f} ms unjailed, {timings['jail'] * 1000:.0f} ms jailed: "
          f"{extra * 1000:+.0f} ms per tool run")


def measure(project: Project, limit: int = 0) -> dict:
    """Seconds to grade the suite's reference answers batched and one at a time (cache off)."""
    suite = load_suite(project)
    evals = suite.evals[:limit] if limit else suite.evals
    requests = [GradeRequest(eval=e, files=e.answer_files()) for e in evals]
    _timed(project, requests[:1])  # a kind's first use may install its toolchain: installation, not grading
    batched, ok_b = _timed(project, requests)
    single, ok_s = 0.0, 0
    for request in requests:
        seconds, ok = _timed(project, [request])
        single += seconds
        ok_s += ok
    return {"evals": len(requests), "batched_s": batched, "single_s": single, "passed_batched": ok_b, "passed_single": ok_s}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=0, help="only the first N evals")
    parser.add_argument("--overhead-only", action="store_true", help="only the jail's overhead per tool run")
    args = parser.parse_args()
    _jail_overhead()
    if args.overhead_only:
        return
    project = Project(Path(__file__).resolve().parents[1])
    evals = load_suite(project).evals
    evals = evals[: args.limit] if args.limit else evals
    requests = [GradeRequest(eval=e, files=e.answer_files()) for e in evals]
    n = len(requests)
    print(f"{n} evals, {os.cpu_count()} CPUs, load before: {os.getloadavg()[0]:.2f}")

    batched, ok_b = _timed(project, requests)
    print(f"batched:    {batched:7.1f} s  {batched / n:5.2f} s/eval  ({ok_b}/{n} pass)  load {os.getloadavg()[0]:.2f}")
    single, ok_s = 0.0, 0
    for request in requests:
        seconds, ok = _timed(project, [request])
        single += seconds
        ok_s += ok
    print(f"one by one: {single:7.1f} s  {single / n:5.2f} s/eval  ({ok_s}/{n} pass)  load {os.getloadavg()[0]:.2f}")
    print(f"ratio: batched is {single / batched:.1f}x faster")


if __name__ == "__main__":
    main()
