"""Trials of a killed process never stay RUNNING: dead owners on this host at once, other hosts by heartbeat."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import optuna
from optuna.trial import TrialState

from tuner.tuning import liveness
from tuner.tuning.study import _storage

CLAIM_AND_HANG = textwrap.dedent("""
    import sys, time, optuna
    from tuner.tuning import liveness
    from tuner.tuning.study import _storage
    study = optuna.load_study(study_name="s", storage=_storage(sys.argv[1]))
    trial = liveness.ask(study)
    trial.suggest_int("x", 0, 9)
    print(trial.number, flush=True)
    time.sleep(60)
""")


def _study(url: str):
    study = optuna.create_study(study_name="s", storage=_storage(url))
    for i in range(4):
        study.enqueue_trial({"x": i}, user_attrs={"move": {"i": i}})
    return study


def _waiting_order(study) -> list[int]:
    return [t.system_attrs["fixed_params"]["x"] for t in study.get_trials(states=(TrialState.WAITING,))]


def test_trial_of_a_killed_process_is_failed_and_requeued_first(tmp_path, monkeypatch):
    monkeypatch.setenv("TUNER_HEARTBEAT_S", "60")  # recovery here must not wait for a heartbeat
    url = f"sqlite:///{tmp_path / 's.db'}"
    study = _study(url)
    proc = subprocess.Popen([sys.executable, "-c", CLAIM_AND_HANG, url], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "0"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    [running] = study.get_trials(states=(TrialState.RUNNING,))
    assert running.user_attrs["owner"]["pid"] == proc.pid
    assert liveness.recover(study) == [0]
    assert not study.get_trials(states=(TrialState.RUNNING,))
    assert _waiting_order(study) == [0, 1, 2, 3]  # the interrupted change first, then the planned order
    assert liveness.recover(study) == []  # idempotent


def test_trial_of_another_host_is_failed_once_its_heartbeat_is_stale(tmp_path, monkeypatch):
    monkeypatch.setenv("TUNER_HEARTBEAT_S", "1")
    url = f"sqlite:///{tmp_path / 's.db'}"
    study = _study(url)
    trial = liveness.ask(study)
    trial.suggest_int("x", 0, 9)
    study._storage.set_trial_user_attr(trial._trial_id, "owner", {"host": "another-machine", "pid": 1})
    assert liveness.recover(study) == []  # alive as far as anyone here can tell
    time.sleep(3.2)  # grace period: two intervals
    assert liveness.recover(study) == [trial.number]
    assert _waiting_order(study) == [0, 1, 2, 3]


def test_heartbeats_keep_a_live_trial_fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("TUNER_HEARTBEAT_S", "1")
    url = f"sqlite:///{tmp_path / 's.db'}"
    study = _study(url)
    trial = liveness.ask(study)
    trial.suggest_int("x", 0, 9)
    study._storage.set_trial_user_attr(trial._trial_id, "owner", {"host": "another-machine", "pid": 1})
    with liveness.heartbeats([trial]):
        time.sleep(3.2)
        assert liveness.recover(study) == []
    assert study.get_trials(states=(TrialState.RUNNING,))
