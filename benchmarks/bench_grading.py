"""Grading throughput: every reference answer batched vs one at a time (cache off), and the
bubblewrap jail's overhead per tool run (`node -e 0` jailed vs TUNER_SANDBOX=none).

Run: .venv/bin/python benchmarks/bench_grading.py [--limit N] [--overhead-only]
     .venv/bin/python benchmarks/bench_grading.py --distinct 64 [--rules all-active] [--unjailed] [--tests-alone]
``--distinct N``: N distinct answers (sim/careful with TUNER_SIM_VARIETY's comment lines, no
guidance: planted mistakes as a real model makes them, no two alike), graded in one call with the
cache off; reports answers per second per core (wall) and, ``--unjailed``, per CPU-second of the
tools (in the jail their CPU time is not reported back to this process), and the time per tool.
Target on 2 cores: batched <= 1 s per eval and >= 4x faster than one at a time; the jail adds
well under 0.1 s per tool run (a batch runs about five tools).
Measured (2 cores shared, load ~7): the jail adds 15-18 ms per tool run (node -e 0: ~110 ms
unjailed); 24 reference answers batched took 9.9-10.2 s jailed vs 9.8-11.9 s before the jail.
``--tests-alone`` (2026-11-27, jailed, --rules all-active, load 4-6, 52 of 64 answers tested): 88.9 and
91.8 s vs 42.0 and 33.7 s batched; vitest 71.5/70.5 s vs 18.1/14.9 s (~1.0 s more per answer tested).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import threading
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
    print(
        f"node -e 0: {timings['none'] * 1000:.0f} ms unjailed, {timings['jail'] * 1000:.0f} ms jailed: "
        f"{extra * 1000:+.0f} ms per tool run"
    )


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
    return {
        "evals": len(requests),
        "batched_s": batched,
        "single_s": single,
        "passed_batched": ok_b,
        "passed_single": ok_s,
    }


def distinct_requests(project: Project, n: int, profile: str = "careful", rule_set: str = "") -> list[GradeRequest]:
    """N distinct simulated answers, round robin over the suite's evals and samples; ``rule_set``:
    the system prompt the simulated model answers (none: the most planted mistakes)."""
    from tuner.models import parse_files
    from tuner.models.sim.answers import simulate
    from tuner.models.sim.profiles import load_sim_data
    from tuner.models.sim.suite import load_suite as load_sim_suite

    suite = load_suite(project)
    evals = {e.id: e for e in suite.evals}
    data = load_sim_data(project.suite_root, None)
    sims = load_sim_suite(project.suite_root)
    system = ""
    if rule_set:
        from tuner.guidelines import load_guidelines

        guidelines = load_guidelines(project)
        system = guidelines.compose(guidelines.load_set(rule_set)).text
    requests = []
    for k in range(n):
        ev = sims[k % len(sims)]
        answer = simulate(profile, data.profile(profile), data, ev, system, k // len(sims), variety=True)
        requests.append(GradeRequest(eval=evals[ev.id], files=parse_files(answer.text).files))
    return requests


def measure_distinct(project: Project, n: int, rule_set: str = "") -> dict:
    """Grade N distinct answers in one call (cache off): wall, CPU of the tools, per-tool time."""
    import resource

    from tuner.grading import sandbox as sb

    requests = distinct_requests(project, n, rule_set=rule_set)
    tools: dict[str, list[float]] = {}
    tool_cpu: dict[str, float] = {}
    real_run, real_popen = sb.run, sb.subprocess.Popen
    where = threading.local()

    class CpuPopen(real_popen):
        """Reaps with wait4 to learn each tool process's own CPU time (tools run concurrently, so
        the children's total alone cannot be split by tool)."""

        def _try_wait(self, wait_flags):
            return self._wait4(self.pid, wait_flags)

        def _internal_poll(self, _deadstate=None, **_):
            return super()._internal_poll(_deadstate, _waitpid=self._wait4)

        def _wait4(self, pid, flags):
            pid, status, usage = os.wait4(pid, flags)
            if pid:
                name = getattr(where, "tool", "?")
                tool_cpu[name] = tool_cpu.get(name, 0.0) + usage.ru_utime + usage.ru_stime
            return pid, status

    def timed_run(argv, **kw):
        name = next((Path(a).name for a in argv[1:2]), "?")
        where.tool = name
        start = time.monotonic()
        done = real_run(argv, **kw)
        tools.setdefault(name, []).append(time.monotonic() - start)
        return done

    _timed(project, requests[:1])  # a first use may install the toolchain: installation, not grading
    sb.run, sb.subprocess.Popen = timed_run, CpuPopen
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        load = os.getloadavg()[0]
        start = time.monotonic()
        results = grade(project, requests, suite=load_suite(project), use_cache=False)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        sb.run, sb.subprocess.Popen = real_run, real_popen
    cores = len(os.sched_getaffinity(0))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "answers": n,
        "rules": rule_set or "none",
        "distinct": len({json.dumps(r.files, sort_keys=True) for r in requests}),
        "passed": sum(r.passed for r in results),
        "infra": sum(r.infra_error is not None for r in results),
        "wall_s": round(wall, 1),
        "cores": cores,
        "load_before": round(load, 1),
        "load_after": round(os.getloadavg()[0], 1),
        "answers_per_s_per_core": round(n / wall / cores, 3),
        "tool_cpu_s": round(cpu, 1) if not sb.enabled() else None,
        "answers_per_cpu_s": round(n / cpu, 3) if not sb.enabled() and cpu else None,
        "tool_wall_s": {k: round(sum(v), 1) for k, v in tools.items()},
        "tool_cpu_each_s": {k: round(v, 1) for k, v in tool_cpu.items()} if not sb.enabled() else None,
        "tool_runs": {k: len(v) for k, v in tools.items()},
    }


def _tests_alone() -> None:
    """Run each answer's tests in a tool run of its own (what a jail per answer would need: the
    batch's vitest run shows every answer the whole batch folder)."""
    import tuner.suites.convex.pipeline as pipeline

    batched = pipeline._run_tests

    def alone(ws, subs, timeout_s):
        outcomes = {}
        for sub in subs:
            outcomes.update(batched(ws, [sub], timeout_s))
        return outcomes

    pipeline._run_tests = alone


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=0, help="only the first N evals")
    parser.add_argument("--overhead-only", action="store_true", help="only the jail's overhead per tool run")
    parser.add_argument("--distinct", type=int, default=0, help="grade N distinct simulated answers: answers/s/core")
    parser.add_argument(
        "--rules",
        default="",
        help="with --distinct: the rule set the simulated model is given (all-active: fewer mistakes)",
    )
    parser.add_argument(
        "--tests-alone",
        action="store_true",
        help="with --distinct: each answer's tests in a vitest run (and jail) of its own, the cost of a jail "
        "that shows each answer only its own folder",
    )
    parser.add_argument(
        "--unjailed",
        action="store_true",
        help="with --distinct: TUNER_SANDBOX=none (the tools' CPU time is measurable)",
    )
    args = parser.parse_args()
    if args.distinct:
        if args.unjailed:
            os.environ["TUNER_SANDBOX"] = "none"
        if args.tests_alone:
            _tests_alone()
        print(json.dumps(measure_distinct(Project(Path(__file__).resolve().parents[1]), args.distinct, args.rules)))
        return
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
