"""No trial stays RUNNING after its process died.

A Ctrl-C fails the trials of the batch it interrupts (``study._abandon``); a SIGKILL, an out-of-memory
kill or a machine that loses power cannot. Two mechanisms cover that:

- **Owner tag.** Each trial records who runs it (``owner`` = host and pid). On start a process
  fails, at once, the RUNNING trials whose owner ran on this host and is no longer alive.
- **Heartbeat** (Optuna's own: ``heartbeat_interval``, ``grace_period``, ``fail_stale_trials``). A
  thread records a heartbeat for every trial in flight; a trial of another machine whose heartbeat
  is older than the grace period is failed by whichever process starts next.

Either way a failed trial that was a planned single change (``move``) goes back in the queue, so
the study still measures it. ``TUNER_HEARTBEAT_S`` (whole seconds, default 60) shortens the
interval in tests; the grace period is twice the interval.
"""

from __future__ import annotations

import os
import socket
import threading
from contextlib import contextmanager
from collections.abc import Iterator

__all__ = ["OWNER_ATTR", "heartbeat_interval", "storage_kwargs", "owner_tag", "ask", "claim", "recover", "requeue", "heartbeats"]

OWNER_ATTR = "owner"
_PLANNED = ("move", "baseline")


def heartbeat_interval() -> int:
    """Seconds between heartbeats (Optuna wants a whole, positive number)."""
    raw = os.environ.get("TUNER_HEARTBEAT_S", "60")
    try:
        return max(1, int(float(raw)))
    except ValueError:
        from tuner.errors import InputError

        raise InputError(f"TUNER_HEARTBEAT_S={raw!r}: not a number of seconds") from None


def storage_kwargs() -> dict:
    """What ``optuna.storages.RDBStorage`` needs for heartbeats and stale-trial recovery."""
    interval = heartbeat_interval()
    return {"heartbeat_interval": interval, "grace_period": 2 * interval, "failed_trial_callback": _requeue}


def owner_tag() -> dict:
    return {"host": socket.gethostname(), "pid": os.getpid()}


def ask(study):
    """``study.ask()``, claimed by this process (Optuna warns that heartbeats are meant for
    ``optimize``; ask-and-tell uses them the same way, through ``claim`` and ``heartbeats``)."""
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Heartbeat of storage")
        trial = study.ask()
    claim(trial)
    return trial


def claim(trial) -> None:
    """Tag ``trial`` with this process and record its first heartbeat (a trial with none is never
    found stale by Optuna)."""
    trial.set_user_attr(OWNER_ATTR, owner_tag())
    storage = trial.study._storage
    if hasattr(storage, "record_heartbeat") and storage.get_heartbeat_interval():
        storage.record_heartbeat(trial._trial_id)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, someone else's
        return True
    return True


def _dead_owner(trial) -> bool:
    owner = trial.user_attrs.get(OWNER_ATTR) or {}
    if owner.get("host") != socket.gethostname() or not isinstance(owner.get("pid"), int):
        return False  # another machine's: the heartbeat decides
    return owner["pid"] != os.getpid() and not _alive(owner["pid"])


def _requeue(study, trial) -> None:
    """Put a failed planned trial's configuration back in the queue (Optuna's stale-trial callback)."""
    requeue(study, [trial])


def requeue(study, trials) -> None:
    """Put the planned configurations of failed ``trials`` back at the head of the queue.

    Optuna hands out waiting trials oldest first and appends new ones, so re-queued trials would
    run after the planned ones not yet started: an interrupted study would then measure a
    different set of changes than an uninterrupted one with the same trial count. The waiting
    planned trials are therefore superseded (failed, marked) and queued again after the re-queued
    ones, in their planned order.
    """
    from optuna.trial import TrialState

    failed = [t for t in trials if "move" in t.user_attrs]
    if not failed:
        return
    listed = [t for t in study.get_trials(deepcopy=False, states=(TrialState.WAITING,)) if "move" in t.user_attrs]
    # Only the trials this call superseded are queued again: one another worker took since the
    # listing runs there, and one another re-queuer superseded is queued by that one.
    waiting = [t for t in listed if _supersede(study._storage, t._trial_id)]
    for t in sorted(failed, key=lambda t: t.number) + waiting:
        planned = {k: v for k, v in t.user_attrs.items() if k in _PLANNED}
        params = dict(t.params) or dict(t.system_attrs.get("fixed_params") or {})  # a waiting trial's are fixed_params
        study.enqueue_trial(params, user_attrs=planned)


def _supersede(storage, trial_id: int) -> bool:
    """Fail a WAITING trial and mark it ``superseded``, in one step that does nothing (False) if the
    trial is no longer waiting. Optuna offers no conditional transition to FAIL (its
    ``set_trial_state_values`` fails a RUNNING trial too), so check and act share one statement."""
    from optuna.storages import InMemoryStorage, RDBStorage
    from optuna.trial import TrialState

    backend = getattr(storage, "_backend", storage)  # Optuna wraps RDBStorage in a cache
    if isinstance(backend, RDBStorage):
        return _supersede_rdb(backend, trial_id)
    if isinstance(backend, InMemoryStorage):
        with backend._lock:  # every InMemoryStorage change holds this lock
            if backend.get_trial(trial_id).state != TrialState.WAITING:
                return False
            backend.set_trial_user_attr(trial_id, "superseded", True)
            return backend.set_trial_state_values(trial_id, state=TrialState.FAIL)
    from tuner.errors import InputError

    raise InputError(f"study storage {type(backend).__name__}: use an SQL database URL (--storage)")


def _supersede_rdb(backend, trial_id: int) -> bool:
    import json
    from datetime import datetime

    from optuna.storages._rdb import models  # the table definitions Optuna itself writes with
    from optuna.trial import TrialState
    from sqlalchemy import insert, update

    trials, attrs = models.TrialModel.__table__, models.TrialUserAttributeModel.__table__
    with backend.engine.begin() as conn:
        changed = conn.execute(
            update(trials).where(trials.c.trial_id == trial_id, trials.c.state == TrialState.WAITING)
            .values(state=TrialState.FAIL, datetime_complete=datetime.now())
        ).rowcount
        if changed != 1:
            return False
        conn.execute(insert(attrs).values(trial_id=trial_id, key="superseded", value_json=json.dumps(True)))
    return True


def recover(study) -> list[int]:
    """Fail the RUNNING trials whose process is gone (dead owner on this host, or a stale
    heartbeat anywhere) and re-queue the planned ones; the numbers of the trials failed."""
    import warnings

    import optuna
    from optuna.trial import TrialState

    storage = study._storage
    failed: list = []
    for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        if not _dead_owner(trial):
            continue
        try:
            changed = storage.set_trial_state_values(trial._trial_id, state=TrialState.FAIL)
        except optuna.exceptions.UpdateFinishedTrialError:
            changed = False  # another process recovered it first
        if changed:
            failed.append(trial)
    requeue(study, failed)
    numbers = [t.number for t in failed]
    before = {t.number for t in study.get_trials(deepcopy=False, states=(TrialState.FAIL,))}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # fail_stale_trials is marked experimental
        optuna.storages.fail_stale_trials(study)  # re-queues through _requeue
    after = {t.number for t in study.get_trials(deepcopy=False, states=(TrialState.FAIL,)) if not t.user_attrs.get("superseded")}
    return numbers + sorted(after - before - set(numbers))


@contextmanager
def heartbeats(trials) -> Iterator[None]:
    """Record a heartbeat for each of ``trials`` every interval while the block runs."""
    if not trials:
        yield
        return
    storage = trials[0].study._storage
    interval = storage.get_heartbeat_interval() if hasattr(storage, "get_heartbeat_interval") else None
    if not interval:
        yield
        return
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(interval):
            for trial in trials:
                try:
                    storage.record_heartbeat(trial._trial_id)
                except Exception:  # a missed beat only risks a later recovery; never kill the work
                    pass

    thread = threading.Thread(target=beat, name="tuner-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)
