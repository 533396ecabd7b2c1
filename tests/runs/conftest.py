"""A project whose model is the local OpenAI-compatible server (tests/models/fake_openai.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def scripted_suite(tmp_path, monkeypatch, server) -> Path:
    """A private copy of suites/python as the project's suite, with a `local` panel whose one model
    (``openai/scripted``) is the local server: the test sets ``server.script`` to answer. Returns the suite."""
    root = tmp_path / "proj"
    suite = root / "suites" / "python"
    shutil.copytree(REPO / "suites" / "python", suite, ignore=shutil.ignore_patterns("broken", "__pycache__"))
    for d in ("guidelines", "evals", "experiments"):
        (root / d).mkdir()
    (root / "experiments" / "local.toml").write_text(
        f'[[models]]\nmodel = "openai/scripted"\napi_base = "{server.api_base}"\nmax_retries = 0\ntimeout_s = 20\n'
    )
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-local-000000")
    monkeypatch.setenv("TUNER_HOME", str(root))
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TUNER_DB", f"sqlite:///{root / 'experiments' / 'tuner.db'}")
    monkeypatch.setenv("TUNER_SUITE", str(suite))
    monkeypatch.chdir(root)
    return suite
