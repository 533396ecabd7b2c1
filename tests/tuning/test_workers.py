"""Scale-out: three `tuner worker` processes share one study through PostgreSQL, and together do
exactly the work one process does: every planned change measured once (none lost, none twice), by
more than one worker, each with the same selection and score a single process gives it.

The Python suite (pytest-graded, offline simulator) keeps this fast enough to run everywhere
PostgreSQL answers; the sharing logic does not depend on the suite kind."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import optuna
import pytest
from optuna.trial import TrialState

from tuner.models import ModelSpec
from tuner.runs import Harness
from tuner.store import Store
from tuner.tuning import build_config, open_study
from tuner.tuning.study import local_moves

pytestmark = [pytest.mark.postgres, pytest.mark.slow]



@pytest.fixture
def py_project(py_project, monkeypatch) -> Path:
    """The shared Python-suite project (tests/conftest.py), its workers beating every minute."""
    monkeypatch.setenv("TUNER_HEARTBEAT_S", "60")
    return py_project


def _workers(project: Path, url: str, study: str, trials: int, n: int) -> None:
    cmd = [sys.executable, "-m", "tuner.cli.main", "worker", "--study", study, "--storage", url, "--db", url,
           "--trials", str(trials), "--batch", "1", "--json"]
    procs = [subprocess.Popen(cmd, cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(n)]
    outs = [p.communicate(timeout=900) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err[-2000:] for _, err in outs]


def _planned(url: str, study: str) -> dict[str, list]:
    """{planned change: [(selection, value, owner pid), ...]} over the study's complete trials."""
    out: dict[str, list] = {}
    for t in optuna.load_study(study_name=study, storage=url).trials:
        if t.state == TrialState.COMPLETE and "move" in t.user_attrs:
            out.setdefault(json.dumps(t.user_attrs["move"], sort_keys=True), []).append(
                (t.user_attrs["selection"], t.value, t.user_attrs["owner"]["pid"]))
    return out


def test_three_workers_do_the_work_of_one_exactly_once(py_project, pg_url):
    h = Harness(db=pg_url)
    config = build_config(h, "text", [ModelSpec(model="sim/careful")], samples=1, tolerance=0.15, baseline=None,
                          search="tpe")
    h.close()
    moves = [json.dumps(m, sort_keys=True) for m in local_moves(config)]
    assert len(moves) >= 6  # enough changes for three workers to share
    for name in ("shared", "solo"):
        open_study(pg_url, name, config)
    _workers(py_project, pg_url, "shared", len(moves), 3)
    _workers(py_project, pg_url, "solo", len(moves), 1)

    shared_study = optuna.load_study(study_name="shared", storage=pg_url)
    assert not shared_study.get_trials(states=(TrialState.RUNNING,))  # nothing left hanging
    shared, solo = _planned(pg_url, "shared"), _planned(pg_url, "solo")
    # Every planned change measured exactly once: none lost, none run twice by two workers.
    assert Counter({m: len(v) for m, v in shared.items()}) == Counter(moves)
    assert Counter({m: len(v) for m, v in solo.items()}) == Counter(moves)
    # Distinct work: each change is a different selection of rules.
    assert len({v[0][0] for v in shared.values()}) == len(moves)
    # The work was really shared...
    assert len({v[0][2] for v in shared.values()}) >= 2
    # ...and each change got the selection and score one process gives it.
    assert {m: v[0][:2] for m, v in shared.items()} == {m: v[0][:2] for m, v in solo.items()}

    # Every complete trial's runs are in the shared store, each sample recorded once.
    store = Store.open(pg_url)
    for t in shared_study.get_trials(states=(TrialState.COMPLETE,)):
        for run_id in t.user_attrs["run_ids"]:
            run = store.run(run_id)
            keys = [(r.eval_id, r.sample_index) for r in store.results(run.id)]
            assert len(keys) == len(set(keys)) == len(run.eval_ids) * run.samples
    store.close()
