"""Fixtures: a throw-away project on the small Python suite and the local server answering its tasks."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability_helpers import SUITE, FakeOpenAI, make_project, reference_answers, suite_answer_for


@pytest.fixture(scope="session")
def references() -> dict[str, str]:
    return reference_answers()


@pytest.fixture
def provider(references):
    """A fresh local server answering the Python suite's tasks."""
    server = FakeOpenAI()
    server.answer_for = suite_answer_for(references)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def py_project(tmp_path: Path, monkeypatch) -> Path:
    """A project whose commands run the Python suite, with its own store and caches under the
    project (so scans and integrity checks see everything)."""
    root = make_project(tmp_path / "proj")
    monkeypatch.setenv("TUNER_HOME", str(root))
    monkeypatch.setenv("TUNER_SUITE", str(SUITE))
    monkeypatch.setenv("TUNER_CACHE_DIR", str(root / "experiments" / "cache"))
    monkeypatch.delenv("TUNER_DB", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-local-000000")
    monkeypatch.chdir(root)
    return root
