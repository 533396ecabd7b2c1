"""Ray or Dask distributed for tuner's cluster: the figures the choice was made on.

Run it with a Python that has one engine installed (a scratch venv each; tuner itself is not
needed, the tasks have the shapes of tuner's work, not its code):

    python3 -m venv /tmp/dask && /tmp/dask/bin/pip install distributed
    python3 -m venv /tmp/ray && /tmp/ray/bin/pip install ray
    /tmp/dask/bin/python benchmarks/bench_cluster_engines.py --engine dask
    /tmp/ray/bin/python benchmarks/bench_cluster_engines.py --engine ray

What it measures, each on a scheduler and two one-slot workers started as separate processes on
127.0.0.1 (as a user would start them on other machines):

- import: the client library's import time in a fresh interpreter (median of 5);
- start-up: from launching the scheduler and workers to a client that sees both workers;
- overhead per task: tasks that do no work, with tuner's payloads: a provider call (8 KB of
  messages out, a 3 KB answer back), submitted 400 at once, then one at a time (round trip);
  and a grading chunk (8 answers of 4 KB out, 8 results of 1 KB back), 50 at once;
- resident memory of the scheduler and workers once started (not the client);
- a worker killed (SIGKILL) while 24 half-second tasks run: whether every result still arrives,
  how many tasks ran twice (each run appends a line to a file), and the wall time.

It prints one JSON object. The install size is measured outside (``du -sh`` of the venv minus an
empty venv's).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CALL_OUT = "x" * 8_000
ANSWER = "y" * 3_000
FILES = {f"src/f{i}.py": "z" * 4_000 for i in range(8)}


def provider_call(messages: str) -> str:
    return ANSWER


def grade_chunk(answers: list[dict]) -> list[str]:
    return ["r" * 1_000 for _ in answers]


def slow_task(i: int, log: str) -> int:
    with open(log, "a") as f:
        f.write(f"{i}\n")
    time.sleep(0.5)
    return i


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def import_time(engine: str) -> float:
    module = "distributed" if engine == "dask" else "ray"
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        for _ in range(5)
    ]
    return statistics.median(runs)


class Dask:
    def __init__(self, tmp: Path):
        self.tmp, self.procs, self.workers = tmp, [], []

    def start(self) -> float:
        bindir = Path(sys.executable).parent
        port = _port()
        self.address = f"tcp://127.0.0.1:{port}"
        t = time.perf_counter()
        self.procs.append(
            subprocess.Popen(
                [bindir / "dask", "scheduler", "--host", "127.0.0.1", "--port", str(port), "--dashboard-address", ":0"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        for _ in range(2):
            w = subprocess.Popen(
                [
                    bindir / "dask",
                    "worker",
                    self.address,
                    "--nthreads",
                    "1",
                    "--nworkers",
                    "1",
                    "--no-nanny",
                    "--local-directory",
                    str(self.tmp),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            self.procs.append(w)
            self.workers.append(w)
        from distributed import Client

        self.client = Client(self.address, timeout=60)
        self.client.wait_for_workers(2, timeout=60)
        return time.perf_counter() - t

    def map(self, fn, args: list) -> list:
        futures = [self.client.submit(fn, *a, pure=False) for a in args]
        return self.client.gather(futures)

    def one(self, fn, *a):
        return self.client.submit(fn, *a, pure=False).result()

    def kill_worker(self) -> None:
        self.workers[0].send_signal(signal.SIGKILL)
        self.killed = 1

    def rss_mb(self) -> float:
        rows = subprocess.run(
            ["ps", "-o", "rss=", "-p", ",".join(str(p.pid) for p in self.procs)], capture_output=True, text=True
        ).stdout.split()
        return sum(int(r) for r in rows) / 1024

    def stop(self) -> None:
        self.client.close()
        for p in reversed(self.procs):
            p.terminate()
            p.wait(10)


class Ray:
    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.remote = {}

    def start(self) -> float:
        bindir = Path(sys.executable).parent
        port = _port()
        self.address = f"127.0.0.1:{port}"
        env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
        self.env = env
        t = time.perf_counter()
        # A head that runs no tasks (num-cpus 0) plus two one-CPU nodes: the shape of a scheduler and two workers.
        subprocess.run(
            [
                bindir / "ray",
                "start",
                "--head",
                "--node-ip-address",
                "127.0.0.1",
                "--port",
                str(port),
                "--num-cpus",
                "0",
                "--include-dashboard",
                "false",
                "--temp-dir",
                str(self.tmp / "ray"),
            ],
            env=env,
            check=True,
            capture_output=True,
        )
        for _ in range(2):
            subprocess.run(
                [
                    bindir / "ray",
                    "start",
                    "--address",
                    self.address,
                    "--node-ip-address",
                    "127.0.0.1",
                    "--num-cpus",
                    "1",
                ],
                env=env,
                check=True,
                capture_output=True,
            )
        import ray

        ray.init(address=self.address, logging_level="ERROR", log_to_driver=False)
        while sum(1 for n in ray.nodes() if n["Alive"] and n["Resources"].get("CPU")) < 2:
            time.sleep(0.1)
        self.ray = ray
        return time.perf_counter() - t

    def _r(self, fn):
        if fn not in self.remote:
            self.remote[fn] = self.ray.remote(num_cpus=1)(fn)
        return self.remote[fn]

    def map(self, fn, args: list) -> list:
        r = self._r(fn)
        return self.ray.get([r.remote(*a) for a in args])

    def one(self, fn, *a):
        return self.ray.get(self._r(fn).remote(*a))

    def kill_worker(self) -> None:
        # The first worker node, as a machine dies: its raylet and every process it started (they
        # name its socket, ``raylet.1``, on their command lines; the raylet's own workers are its children).
        raylet = subprocess.run(
            ["pgrep", "-f", "raylet/raylet --raylet_socket_name=.*sockets/raylet.1$|raylet.1 "],
            capture_output=True,
            text=True,
        ).stdout.split()
        children = [
            c
            for pid in raylet
            for c in subprocess.run(["pgrep", "-P", pid], capture_output=True, text=True).stdout.split()
        ]
        for pid in raylet + children:
            os.kill(int(pid), signal.SIGKILL)
        self.killed = len(raylet + children)

    def rss_mb(self) -> float:
        rows = subprocess.run(["ps", "-eo", "pid,rss,args"], capture_output=True, text=True).stdout.splitlines()[1:]
        return (
            sum(
                int(r.split(None, 2)[1])
                for r in rows
                if int(r.split(None, 2)[0]) != os.getpid() and ("/ray/" in r or "ray::" in r)
            )
            / 1024
        )

    def stop(self) -> None:
        self.ray.shutdown()
        subprocess.run([Path(sys.executable).parent / "ray", "stop", "--force"], env=self.env, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", choices=("dask", "ray"), required=True)
    args = parser.parse_args()
    out: dict = {"engine": args.engine, "import_s": round(import_time(args.engine), 3)}
    tmp = Path(tempfile.mkdtemp(prefix=f"bench-{args.engine}-"))
    eng = Dask(tmp) if args.engine == "dask" else Ray(tmp)
    try:
        out["startup_s"] = round(eng.start(), 2)
        out["cluster_rss_mb"] = round(eng.rss_mb())
        eng.map(provider_call, [(CALL_OUT,)] * 20)  # warm: functions shipped, connections open
        t = time.perf_counter()
        eng.map(provider_call, [(CALL_OUT,)] * 400)
        out["call_batch_ms_per_task"] = round((time.perf_counter() - t) / 400 * 1000, 2)
        t = time.perf_counter()
        for _ in range(50):
            eng.one(provider_call, CALL_OUT)
        out["call_round_trip_ms"] = round((time.perf_counter() - t) / 50 * 1000, 2)
        chunk = [{"eval": "e", "files": FILES}] * 8
        t = time.perf_counter()
        eng.map(grade_chunk, [(chunk,)] * 50)
        out["grade_chunk_ms_per_task"] = round((time.perf_counter() - t) / 50 * 1000, 2)
        log = tmp / "runs.log"
        t = time.perf_counter()
        import threading

        threading.Timer(1.2, eng.kill_worker).start()
        try:
            got = eng.map(slow_task, [(i, str(log)) for i in range(24)])
            out["kill_all_results"] = sorted(got) == list(range(24))
        except Exception as exc:  # what the client sees when the engine gives up
            out["kill_all_results"] = f"raised {type(exc).__name__}: {str(exc)[:200]}"
        out["killed_processes"] = getattr(eng, "killed", 0)
        out["kill_wall_s"] = round(time.perf_counter() - t, 2)
        runs = log.read_text().split()
        out["kill_tasks_run_twice"] = len(runs) - len(set(runs))
    finally:
        eng.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
