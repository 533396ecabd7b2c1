"""Shared by the compare tests: the real project, a session response/grading cache, temp stores."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def session_cache(tmp_path_factory) -> Path:
    """One cache for every compare test of the session (tests/cli uses the same folder)."""
    path = tmp_path_factory.getbasetemp() / "compare-cache"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture(scope="module")
def sim_harness(tmp_path_factory):
    """A harness on the real suite with a fresh store per module and the session cache."""
    from tuner.paths import Project
    from tuner.runs import Harness

    mp = pytest.MonkeyPatch()
    mp.setenv("TUNER_CACHE_DIR", str(session_cache(tmp_path_factory)))
    mp.setenv("TUNER_HOME", str(REPO))
    db = tmp_path_factory.mktemp("store") / "compare.db"
    h = Harness(project=Project(REPO), db=f"sqlite:///{db}")
    yield h
    h.close()
    mp.undo()
