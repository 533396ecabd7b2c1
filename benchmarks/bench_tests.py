"""Where the test suite's time goes: CPU seconds per test file (the test process and the children
it waited for), wall seconds, the grades each paid for (the jailed grader's CPU is not counted:
see ``graded``), and the full-suite estimate.

Wall time on a machine shared with other work says little; CPU time does not depend on the load.
The suite's wall time on N workers is about the sum of CPU over N cores, plus waits.

As a pytest plugin (a JSON line per test appended to $TUNER_TEST_TIMES, from every xdist worker):
    TUNER_TEST_TIMES=/tmp/times.jsonl ./dev test -p benchmarks.bench_tests tests/stats
Then the table and the estimate for W workers:
    .venv/bin/python benchmarks/bench_tests.py /tmp/times.jsonl [--workers 2] [--top 25]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from collections import defaultdict
from pathlib import Path

_FILE = os.environ.get("TUNER_TEST_TIMES")


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


_graded = [0]  # results the grader computed (cache misses), counted where they are stored


def pytest_configure(config):
    # Grading's Node and pytest processes run in a bubblewrap jail, whose CPU time never reaches this
    # process's rusage: the number of grades each test paid for stands in for it.
    from tuner.grading.cache import GradeCache

    put = GradeCache.put

    def counted(self, result):
        _graded[0] += 1
        return put(self, result)

    GradeCache.put = counted


def pytest_runtest_protocol(item, nextitem):
    # Set-up, call and tear-down together: a module fixture's cost lands on the file's first test.
    item._bench_start = (_cpu(), time.monotonic(), _graded[0])


def pytest_runtest_makereport(item, call):
    if call.when != "teardown" or not _FILE or not hasattr(item, "_bench_start"):
        return
    cpu0, wall0, graded0 = item._bench_start
    row = {
        "test": item.nodeid,
        "cpu_s": round(_cpu() - cpu0, 2),
        "wall_s": round(time.monotonic() - wall0, 2),
        "graded": _graded[0] - graded0,
        "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
    }
    with open(_FILE, "a", encoding="utf-8") as out:  # a line per test: a run cut short still tells
        out.write(json.dumps(row) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("times", type=Path, help="the JSON lines the plugin wrote")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    rows: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0, 0])
    for line in args.times.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        row = rows[r["test"].split("::")[0]]
        row[0] += r["cpu_s"]
        row[1] += r["wall_s"]
        row[2] += 1
        row[3] += r.get("graded", 0)
    total_cpu = sum(r[0] for r in rows.values())
    total_wall = sum(r[1] for r in rows.values())
    print(f"{'cpu s':>8} {'wall s':>8} {'tests':>5} {'graded':>6}  file")
    for path, (cpu, wall, n, graded) in sorted(rows.items(), key=lambda kv: -kv[1][0])[: args.top]:
        print(f"{cpu:8.1f} {wall:8.1f} {n:5d} {graded:6d}  {path}")
    print(
        f"{total_cpu:8.1f} {total_wall:8.1f} {sum(r[2] for r in rows.values()):5d} "
        f"{sum(r[3] for r in rows.values()):6d}  all {len(rows)} files"
    )
    print(
        f"estimate on {args.workers} workers: {total_cpu / args.workers / 60:.1f} min of CPU per core, plus the jailed "
        f"grading (the 'graded' column; about 1 CPU-s per Convex answer, measured unjailed) and waits"
    )


if __name__ == "__main__":
    main()
