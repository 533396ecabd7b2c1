"""Scale-out: three `tuner worker` processes share one study through PostgreSQL."""

import subprocess
import sys

import optuna
import pytest

from tuner.models import ModelSpec
from tuner.runs import Harness
from tuner.store import Store
from tuner.tuning import build_config, open_study

pytestmark = [pytest.mark.node, pytest.mark.postgres, pytest.mark.slow]


def test_three_workers_no_trial_lost_or_run_twice(live_project, pg_url):
    h = Harness(db=pg_url)
    config = build_config(h, "queries", [ModelSpec(model="sim/careful")], samples=1, tolerance=0.15, baseline=None)
    h.close()
    open_study(pg_url, "shared", config)
    cmd = [sys.executable, "-m", "tuner.cli.main", "worker", "--study", "shared", "--storage", pg_url, "--db", pg_url,
           "--trials", "6", "--batch", "1", "--json"]
    procs = [subprocess.Popen(cmd, cwd=live_project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=900) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err[-2000:] for _, err in outs]

    study = optuna.load_study(study_name="shared", storage=pg_url)
    states = [t.state for t in study.trials]
    assert optuna.trial.TrialState.RUNNING not in states  # nothing left hanging
    complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    assert len(complete) >= 6
    numbers = [t.number for t in study.trials]
    assert len(numbers) == len(set(numbers))
    # Every complete trial's runs are in the shared store, each recorded once.
    store = Store.open(pg_url)
    for t in complete:
        for run_id in t.user_attrs["run_ids"]:
            run = store.run(run_id)
            results = store.results(run.id)
            keys = [(r.eval_id, r.sample_index) for r in results]
            assert len(keys) == len(set(keys)) == len(run.eval_ids) * run.samples
    store.close()
