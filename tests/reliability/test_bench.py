"""`tuner bench --quick --json` on a subset: real figures, in the shape scripts read."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow]


def test_bench_quick_json_subset():
    exe = str(Path(sys.executable).with_name("tuner"))
    r = subprocess.run(
        [exe, "bench", "--quick", "--json", "--only", "startup,cache,viewer"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["machine"]["cpus"] >= 1 and out["machine"]["quick"] is True
    rows = {row["name"]: row for row in out["rows"]}
    startup = rows["CLI start-up (tuner --help)"]
    assert 0 < startup["figures"]["median_s"] < 10 and startup["figures"]["heavy_imports"] == []
    cache = rows["response cache replay"]["figures"]
    assert cache["cold_provider_calls"] == cache["calls"] and cache["warm_provider_calls"] == 0
    assert cache["cached"] == cache["calls"]
    viewer = rows["viewer page time"]
    assert ("median_ms" in viewer["figures"]) == (
        Path(__file__).resolve().parents[2] / "benchmarks" / "bench_viewer.py"
    ).is_file()


def test_bench_unknown_row_is_bad_input(cli):
    r = cli("bench", "--only", "nosuch")
    assert r.exit_code == 2 and "nosuch" in r.stderr
