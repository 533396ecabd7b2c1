"""Ctrl-C during a tuning batch: nothing is left RUNNING, and the same call resumes the study."""

import optuna
import pytest

from tuner.models import ModelSpec
from tuner.runs import Harness
from tuner.tuning import build_config, open_study, run_trials
from tuner.tuning import study as study_module

pytestmark = [pytest.mark.node, pytest.mark.slow]


def test_interrupted_batch_is_failed_and_resumed(live_project, monkeypatch):
    h = Harness()
    config = build_config(h, "clients", [ModelSpec(model="sim/careful")], samples=1, tolerance=0.15, baseline=None,
                          search="tpe")
    study = open_study(h.db_url, "resume-me", config)
    real = study_module.run_selections
    calls = {"n": 0}

    def flaky(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:  # the baseline, one batch, then Ctrl-C in the second batch
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(study_module, "run_selections", flaky)
    with pytest.raises(KeyboardInterrupt):
        run_trials(h, study, n_trials=6, batch=2)
    states = [t.state for t in study.trials]
    assert optuna.trial.TrialState.RUNNING not in states
    # Waiting planned trials are superseded (failed, marked) and queued again behind the interrupted ones.
    failed = [t for t in study.trials if t.state == optuna.trial.TrialState.FAIL and not t.user_attrs.get("superseded")]
    assert states.count(optuna.trial.TrialState.COMPLETE) == 2 and len(failed) == 2
    interrupted = [t.user_attrs["move"] for t in failed]

    monkeypatch.setattr(study_module, "run_selections", real)
    again = open_study(h.db_url, "resume-me", config)
    run_trials(h, again, n_trials=6, batch=2)
    complete = [t for t in again.trials if t.state == optuna.trial.TrialState.COMPLETE]
    assert len(complete) == 6
    # The planned single-change trials interrupted by Ctrl-C are not lost: back in the queue (or run).
    kept = [t.user_attrs.get("move") for t in again.trials
            if t.state in (optuna.trial.TrialState.WAITING, optuna.trial.TrialState.COMPLETE)]
    assert interrupted and all(move in kept for move in interrupted)
    h.close()
