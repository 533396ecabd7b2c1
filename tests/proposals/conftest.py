"""A project with the Python suite (small, pytest-graded) and a simulated run with failures."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "models"))


@pytest.fixture
def py_project(tmp_path: Path, monkeypatch, shared_cache) -> Path:
    """A project whose suite is a private copy of suites/python (so a test may delete a rule)."""
    root = tmp_path / "proj"
    shutil.copytree(REPO / "guidelines", root / "guidelines")
    (root / "evals").symlink_to(REPO / "evals", target_is_directory=True)
    (root / "experiments").mkdir()
    shutil.copytree(REPO / "suites" / "python", root / "py", ignore=shutil.ignore_patterns("__pycache__", "broken"))
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))  # nothing may be written there (DSPy's default cache is ~/.dspy_cache)
    monkeypatch.setenv("TUNER_HOME", str(root))
    monkeypatch.setenv("TUNER_SUITE", str(root / "py"))
    monkeypatch.setenv("TUNER_CACHE_DIR", str(shared_cache))
    monkeypatch.setenv("TUNER_DB", f"sqlite:///{root / 'experiments' / 'tuner.db'}")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-analyst-key-0000")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def sim_run(cli):
    """Run a rule set on sim/careful; returns the run id."""

    def run(*args: str) -> str:
        r = cli("run", "--model", "sim/careful", *args, "--json")
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)[0]["run"]

    return run
