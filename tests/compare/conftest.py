"""Shared by the compare tests: the real project, the session's compare cache (tests/conftest.py), temp stores."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sim_harness(tmp_path_factory, compare_cache):
    """A harness on the real suite with a fresh store per module and the session cache."""
    from tuner.paths import Project
    from tuner.runs import Harness

    mp = pytest.MonkeyPatch()
    mp.setenv("TUNER_CACHE_DIR", str(compare_cache))
    mp.setenv("TUNER_HOME", str(REPO))
    db = tmp_path_factory.mktemp("store") / "compare.db"
    h = Harness(project=Project(REPO), db=f"sqlite:///{db}")
    yield h
    h.close()
    mp.undo()
