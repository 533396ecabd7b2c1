"""The README's first command, measured: `tuner tune --category actions` with defaults, empty caches.

What it reports (issue 22's "done when"): wall time (the Node toolchain installed beforehand, as
after `./dev`'s first use), provider calls made, and the plan printed before the first call, both its
"at most" and the calls of the phases that ran (the baseline and the screening always run; the
regression check only if the screening finds a change, its second candidate only if the first is
refused, the confirmation only if a change passes the check). The store and every cache (answers,
grades) are fresh temporary ones; the report goes there too, so the checkout is left as it was.

Run: .venv/bin/python benchmarks/bench_quickstart.py [--category actions] [--repeat 1] [--variety]
``--variety``: the simulator's answers all distinct (TUNER_SIM_VARIETY=1), as a real model's are, so
the grading cache no longer flatters the figure (``distinct_gradings`` counts what was graded).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TUNER = str(ROOT / ".venv" / "bin" / "tuner")


def _ran(plan: dict, data: dict) -> int:
    """Calls of the plan's phases that ran: the ones that always do, the check's phases for the
    trials the check measured (the baseline and the winner are the first phase), the confirmation
    when it ran."""
    phases = plan["phases"]
    checks = [p["calls"] for p in phases if p["name"].startswith("regression check")]
    checked = (data.get("screening") or {}).get("checked", 0)
    confirmed = (data.get("confirmation") or {}).get("design", "none") != "none"
    return plan["calls_always"] + sum(checks[: max(0, checked - 1)]) + (phases[-1]["calls"] if confirmed else 0)


def once(category: str, tmp: Path, variety: bool = False) -> dict:
    env = {**os.environ, "TUNER_CACHE_DIR": str(tmp / "cache"), "TUNER_DB": f"sqlite:///{tmp / 'tuner.db'}"}
    if variety:
        env["TUNER_SIM_VARIETY"] = "1"
    planned = subprocess.run(
        [TUNER, "tune", "--category", category, "--plan", "--json"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    plan = json.loads(planned.stdout)
    load = round(os.getloadavg()[0], 1)
    start = time.perf_counter()
    with _cpu_meter() as meter:
        done = subprocess.run(
            [TUNER, "tune", "--category", category, "--json", "--report", str(tmp / "report.md")],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            preexec_fn=meter.join,
        )
    wall = time.perf_counter() - start
    if done.returncode not in (0, 4):
        sys.exit(f"tune failed (exit {done.returncode}): {done.stderr.strip().splitlines()[-1:]}")
    data = json.loads(done.stdout)
    made = data["spent"]["calls"]
    ran = _ran(plan, data)
    return {
        "wall_s": round(wall, 1),
        "calls": made,
        "plan_at_most": plan["calls_at_most"],
        "plan_always": plan["calls_always"],
        "plan_of_phases_run": ran,
        "made_over_plan_run": round(made / ran, 3),
        "made_over_at_most": round(made / plan["calls_at_most"], 3),
        "decision": data["decision"],
        "chosen_by": (data.get("screening") or {}).get("chosen_by"),
        "changes": (data.get("screening") or {}).get("changes"),
        "checked": (data.get("screening") or {}).get("checked"),
        "confirmation": (data.get("confirmation") or {}).get("stopped"),
        "variety": variety,
        "distinct_gradings": _gradings(tmp / "cache"),
        "cpu_s": meter.seconds,
        "load_before": load,
        "load_after": round(os.getloadavg()[0], 1),
    }


class _CpuMeter:
    """CPU seconds of the command and every process it starts, the jailed graders included (a
    process in bubblewrap's pid namespace is never waited for by this one, so its time is missing
    from getrusage): a cgroup v1 ``cpuacct`` group of its own, when this user may make one (root);
    otherwise None."""

    def __init__(self):
        self.group: Path | None = None
        self.seconds: float | None = None
        base = Path("/sys/fs/cgroup/cpuacct")
        if os.geteuid() == 0 and (base / "cpuacct.usage").is_file():
            try:
                self.group = base / f"tuner-bench-{os.getpid()}"
                self.group.mkdir()
            except OSError:
                self.group = None

    def join(self) -> None:  # in the child, before it runs the command
        if self.group is not None:
            (self.group / "cgroup.procs").write_text(str(os.getpid()))


@contextmanager
def _cpu_meter():
    meter = _CpuMeter()
    try:
        yield meter
        if meter.group is not None:
            meter.seconds = round(int((meter.group / "cpuacct.usage").read_text()) / 1e9, 1)
    finally:
        for _ in range(50):  # the kernel releases the group a moment after its last process exits
            try:
                if meter.group is not None:
                    meter.group.rmdir()
                break
            except OSError:
                time.sleep(0.1)


def _gradings(cache: Path) -> int:
    """Distinct answers graded: the entries of the (fresh) grading cache."""
    from diskcache import Cache

    if not (cache / "grading").is_dir():
        return 0
    with Cache(str(cache / "grading")) as entries:
        return len(entries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--category", default="actions")
    parser.add_argument("--repeat", type=int, default=1, help="fresh runs (each with empty caches)")
    parser.add_argument("--variety", action="store_true", help="distinct simulated answers (TUNER_SIM_VARIETY=1)")
    args = parser.parse_args()
    # Install the grader toolchain first: the figure is the command's time after installation.
    from tuner.suites.convex.toolchain import ensure_toolchain

    ensure_toolchain(ROOT / "evals" / "toolchain")
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="bench-quickstart-") as tmp:
            print(json.dumps(once(args.category, Path(tmp), args.variety)), flush=True)


if __name__ == "__main__":
    main()
