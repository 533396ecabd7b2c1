"""The viewer benchmark runs (a later `tuner bench` calls its measure()) and times every page."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tuner.evals import load_suite
from tuner.paths import Project

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_measure_quick_times_every_page(tmp_path):
    spec = importlib.util.spec_from_file_location("bench_viewer", REPO / "benchmarks" / "bench_viewer.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = bench.measure(quick=True, store_path=tmp_path / "bench.db")
    # Whole runs over every eval of the suite, as close to 10,000 results as that allows.
    per_run = len(load_suite(Project(REPO)).evals) * bench.SAMPLES
    assert out["results"] == out["runs"] * per_run and abs(out["results"] - 10_000) <= per_run / 2
    assert out["labelled"] > 2_000
    assert len(out["pages"]) == 25 and all(ms > 0 for ms in out["pages"].values())
    assert out["median_ms"] > 0 and out["max_ms"] >= out["median_ms"]
    assert out["bytes"]["api export text (1000)"] > 100_000  # a real export came back
