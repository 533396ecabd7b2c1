"""Re-queueing is atomic: superseding a waiting planned trial must not fail a trial another worker
took a moment ago, and two processes re-queueing at once must not queue a planned change twice."""

from __future__ import annotations

import threading
from collections import Counter

import optuna
from optuna.trial import TrialState

from tuner.tuning import liveness
from tuner.tuning.study import _storage


def _study(url: str, name: str = "s"):
    study = optuna.create_study(study_name=name, storage=_storage(url))
    for i in range(5):
        study.enqueue_trial({"x": i}, user_attrs={"move": {"i": i}})
    return study


def _fail_first(study):
    """A planned trial a (dead) worker took: failed, to be re-queued."""
    trial = liveness.ask(study)
    trial.suggest_int("x", 0, 9)
    study._storage.set_trial_state_values(trial._trial_id, state=TrialState.FAIL)
    return study._storage.get_trial(trial._trial_id)


def _waiting(study) -> list[int]:
    return [t.system_attrs["fixed_params"]["x"] for t in study.get_trials(states=(TrialState.WAITING,))]


def _after_listing(study, action):
    """Run ``action`` right after ``requeue`` lists the waiting trials (between its check and act)."""
    listed = study.get_trials

    def get_trials(*args, **kwargs):
        out = listed(*args, **kwargs)
        if kwargs.get("states") == (TrialState.WAITING,):
            action()
        return out

    study.get_trials = get_trials


def test_requeue_does_not_fail_a_trial_a_worker_just_took(tmp_path):
    url = f"sqlite:///{tmp_path / 's.db'}"
    study = _study(url)
    failed = _fail_first(study)  # x=0
    other = optuna.load_study(study_name="s", storage=_storage(url))
    taken = []
    _after_listing(study, lambda: taken.append(liveness.ask(other)))  # another worker takes x=1
    liveness.requeue(study, [failed])
    [took] = taken
    now = study._storage.get_trial(took._trial_id)
    assert now.state == TrialState.RUNNING and not now.user_attrs.get("superseded")
    # x=1 runs there and is not queued again; the rest in planned order after the re-queued one.
    assert _waiting(study) == [0, 2, 3, 4]


def test_two_requeuers_at_once_queue_each_planned_change_once(tmp_path):
    url = f"sqlite:///{tmp_path / 's.db'}"
    study = _study(url)
    first, second = _fail_first(study), _fail_first(study)  # x=0 and x=1 failed (two dead workers)
    a, b = (optuna.load_study(study_name="s", storage=_storage(url)) for _ in range(2))
    both_listed = threading.Barrier(2, timeout=20)
    for s in (a, b):
        _after_listing(s, both_listed.wait)  # both see the same waiting trials before either acts
    errors: list[BaseException] = []

    def run(study, trial):
        try:
            liveness.requeue(study, [trial])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(a, first)), threading.Thread(target=run, args=(b, second))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    counts = Counter(_waiting(study))
    assert counts == Counter({0: 1, 1: 1, 2: 1, 3: 1, 4: 1}), counts


def test_in_memory_studies_requeue_the_same_way():
    study = optuna.create_study()
    for i in range(3):
        study.enqueue_trial({"x": i}, user_attrs={"move": {"i": i}})
    failed = _fail_first(study)
    taken = []
    _after_listing(study, lambda: taken.append(study.ask()))  # x=1 taken meanwhile
    liveness.requeue(study, [failed])
    assert study._storage.get_trial(taken[0]._trial_id).state == TrialState.RUNNING
    assert _waiting(study) == [0, 2]
