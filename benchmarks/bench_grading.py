"""Grading throughput: every reference answer batched vs one at a time (cache off).

Run: .venv/bin/python benchmarks/bench_grading.py [--limit N]
Target on 2 cores: batched <= 1 s per eval and >= 4x faster than one at a time.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from tuner.evals import load_suite
from tuner.grading import GradeRequest, grade
from tuner.paths import Project


def _timed(project: Project, requests: list[GradeRequest]) -> tuple[float, int]:
    start = time.monotonic()
    results = grade(project, requests, use_cache=False)
    return time.monotonic() - start, sum(r.passed for r in results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=0, help="only the first N evals")
    args = parser.parse_args()
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
