"""Shared by the compare CLI tests: the real project, a fresh store per module, the compare tests'
session cache (``compare_cache``, tests/conftest.py; tests/compare uses it too)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def env(request, tmp_path_factory, compare_cache):
    """The module's work folder (its store is ``store.db`` there). A module's ``SUITE``, when it has
    one, is the suite its commands run (TUNER_SUITE); else the project's own (evals/)."""
    work = tmp_path_factory.mktemp(request.module.__name__.rpartition(".")[2])
    mp = pytest.MonkeyPatch()
    mp.setenv("TUNER_HOME", str(REPO))
    if getattr(request.module, "SUITE", None):
        mp.setenv("TUNER_SUITE", str(request.module.SUITE))
    mp.setenv("TUNER_CACHE_DIR", str(compare_cache))
    mp.setenv("TUNER_DB", f"sqlite:///{work / 'store.db'}")
    yield work
    mp.undo()
