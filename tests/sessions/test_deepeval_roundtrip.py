"""Our DeepEval export loads with DeepEval's own loader, field for field.

DeepEval pins click/typer versions that conflict with ours, so it lives in a throwaway venv built
with the project's uv from the package index, cached outside the clone (``TUNER_TEST_VENVS``, by
default ~/.cache/tuner/test-venvs) so CI pays the install once per machine.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sessionkit import add_tool_session

SPEC = "deepeval>=4.3,<4.4"
NETWORK = (
    "failed to fetch",
    "error sending request",
    "dns error",
    "connection refused",
    "network is unreachable",
    "timed out",
    "could not connect",
    "tcp connect error",
)

LOADER = r"""
import json, sys
from deepeval.dataset import EvaluationDataset
ds = EvaluationDataset()
ds.add_test_cases_from_json_file(file_path=sys.argv[1], input_key_name="input", actual_output_key_name="actual_output",
    expected_output_key_name="expected_output", context_key_name="context", retrieval_context_key_name="retrieval_context")
print(json.dumps([{"input": t.input, "actual_output": t.actual_output, "expected_output": t.expected_output,
                   "context": t.context, "retrieval_context": t.retrieval_context} for t in ds.test_cases]))
"""


def _deepeval_python() -> Path:
    base = Path(os.environ.get("TUNER_TEST_VENVS") or Path.home() / ".cache" / "tuner" / "test-venvs")
    base.mkdir(parents=True, exist_ok=True)
    venv = base / "deepeval-4.3"
    python = venv / "bin" / "python"
    with open(base / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        ready = venv / ".ready"
        if ready.is_file() and ready.read_text(encoding="utf-8") == SPEC:
            return python
        uv = Path(sys.executable).parent / "uv"
        building = base / "deepeval-4.3.building"
        shutil.rmtree(building, ignore_errors=True)
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run(
            [str(uv), "venv", "-q", str(building), "--python", sys.executable],
            check=True,
            capture_output=True,
            timeout=120,
        )
        done = subprocess.run(
            [str(uv), "pip", "install", "-q", "--python", str(building / "bin" / "python"), SPEC],
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0:
            shutil.rmtree(building, ignore_errors=True)
            if any(word in done.stderr.lower() for word in NETWORK):
                pytest.skip(
                    f"the package index is unreachable, cannot install {SPEC}: {done.stderr.strip().splitlines()[-1]}"
                )
            pytest.fail(f"installing {SPEC} failed: {done.stderr}")
        (building / ".ready").write_text(SPEC, encoding="utf-8")
        building.rename(venv)
    return python


@pytest.mark.slow
def test_deepeval_loads_our_export_unchanged(store, tmp_path):
    from tuner.sessions import apply_labels, export_sessions, label_change, list_sessions, session_filter

    python = _deepeval_python()
    sessions = list_sessions(store, session_filter(model="sim/overeager"), limit=3).items
    apply_labels(
        store, [s.key for s in sessions[:2]], label_change(status="golden", expected_output="as the reference")
    )
    apply_labels(store, [sessions[2].key], label_change(status="incorrect"))
    key = add_tool_session(store, sessions[0].run_id)
    apply_labels(store, [key], label_change(status="correct", expected_output="About 21 °C."))
    exported = export_sessions(store, "deepeval")
    path = tmp_path / "cases.json"
    path.write_text(exported.text, encoding="utf-8")
    work = tmp_path / "cwd"
    work.mkdir()
    done = subprocess.run(
        [str(python), "-c", LOADER, str(path)],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=300,
        env={
            "PATH": os.environ["PATH"],
            "HOME": str(tmp_path),
            "DEEPEVAL_TELEMETRY_OPT_OUT": "YES",
            "DEEPEVAL_DISABLE_DOTENV": "1",
        },
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    ours = json.loads(exported.text)
    assert len(loaded) == len(ours) == 5  # 3 one-turn sessions + one with two turns
    for theirs, mine in zip(loaded, ours):
        assert theirs == {"expected_output": None, **mine}
    assert sum(c["expected_output"] == "as the reference" for c in loaded) == 2
    assert not list(work.iterdir())  # DeepEval wrote nothing where it ran (telemetry off)
