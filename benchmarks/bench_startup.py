"""How long `tuner --help` takes, and that it imports none of litellm, dspy, optuna.

Run: .venv/bin/python benchmarks/bench_startup.py
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time

HEAVY = ("litellm", "dspy", "optuna")


def measure(runs: int = 7) -> dict:
    """Median and minimum wall time of `tuner --help`, and which heavy modules it imports."""
    exe = shutil.which("tuner") or str(__import__("pathlib").Path(sys.executable).with_name("tuner"))
    subprocess.run([exe, "--help"], capture_output=True, check=True)  # warm the file cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([exe, "--help"], capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    imported = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "from tuner.cli.main import app"], capture_output=True, text=True
    ).stderr
    heavy = sorted({m for m in HEAVY if f" {m}\n" in imported or f" {m}." in imported})
    return {"median_s": statistics.median(times), "min_s": min(times), "runs": runs, "heavy_imports": heavy}


def main(runs: int = 7) -> None:
    exe = shutil.which("tuner") or str(__import__("pathlib").Path(sys.executable).with_name("tuner"))
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([exe, "--help"], capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    imported = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "from tuner.cli.main import app"], capture_output=True, text=True
    ).stderr
    heavy = sorted({m for m in HEAVY if f" {m}\n" in imported or f" {m}." in imported})
    print(
        f"tuner --help: median {statistics.median(times) * 1000:.0f} ms, min {min(times) * 1000:.0f} ms over {runs} runs"
    )
    print(f"heavy modules imported: {', '.join(heavy) or 'none'}")


if __name__ == "__main__":
    main()
