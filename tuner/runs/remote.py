"""What a cluster worker runs (``tuner cluster worker``), and the scheduler's ledger of claimed calls.

Two kinds of task, both pure data in and out (no key, no secret, no host path of the coordinator):

- ``call_task``: one attempt at one provider call. It first *claims* its grant at the scheduler
  (``Claims``): the coordinator granted exactly one provider call for that token, so an attempt
  Dask runs again (its worker died, or the result it held was lost with it) finds the token
  claimed and comes back ``lost`` without calling. A worker therefore never spends a call the
  coordinator did not grant. Failures are read here, where the exception is, into
  (how to treat it, one scrubbed line, Retry-After): exceptions of provider SDKs do not travel.
- ``grade_task``: a chunk of answers graded with the suite's kind, against this machine's copy of
  the suite, after checking it is the coordinator's (suite hash and grader identity).

Paths travel relative to the project (``@project/...``) and are read against this worker's
project (``TUNER_HOME``, set by ``tuner cluster worker``).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from functools import lru_cache
from pathlib import Path

from distributed.diagnostics.plugin import SchedulerPlugin

from tuner.errors import ClusterError, TunerError
from tuner.hashing import short

__all__ = ["Claims", "PROJECT_MARK", "call_task", "code_identity", "grade_task", "portable", "worker_facts"]

PROJECT_MARK = "@project/"
_local = threading.local()


def portable(path: str | Path, root: Path) -> str:
    """``path`` as it travels: relative to the project when inside it, else as it is."""
    p = Path(path)
    try:
        return PROJECT_MARK + p.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(p)


def _here(value: str) -> str:
    if isinstance(value, str) and value.startswith(PROJECT_MARK):
        return str(_project().root / value.removeprefix(PROJECT_MARK))
    return value


def _project():
    from tuner.paths import find_project

    return find_project()


def _name() -> str:
    try:
        from distributed import get_worker

        return get_worker().name or get_worker().address
    except ValueError:  # not inside a worker (tests call the tasks directly)
        return "this process"


# -- the ledger -------------------------------------------------------------------------------


class Claims(SchedulerPlugin):
    """A scheduler plug-in: which call grants were used. ``claim`` is atomic (the scheduler runs
    its handlers on one event loop), so a grant makes at most one provider call however many
    times Dask runs the task. The coordinator forgets its session's tokens when it closes."""

    name = "tuner-claims"
    idempotent = True  # a second coordinator on the same scheduler keeps the first one's ledger

    def __init__(self) -> None:
        self.claimed: dict[str, float] = {}

    async def start(self, scheduler) -> None:
        scheduler.handlers.update(tuner_claim=self.claim, tuner_claimed=self.was_claimed, tuner_forget=self.forget)

    def claim(self, token: str) -> bool:
        if token in self.claimed:
            return False
        self.claimed[token] = time.time()
        return True

    def was_claimed(self, token: str) -> bool:
        return token in self.claimed

    def forget(self, prefix: str) -> int:
        gone = [t for t in self.claimed if t.startswith(prefix)]
        for t in gone:
            del self.claimed[t]
        return len(gone)


def _claim(token: str) -> bool:
    from distributed import get_worker
    from distributed.utils import sync

    worker = get_worker()
    return bool(sync(worker.loop, worker.scheduler.tuner_claim, token=token))


# -- provider calls -----------------------------------------------------------------------------


def _loop() -> asyncio.AbstractEventLoop:
    """One event loop per worker thread, kept: litellm's async clients belong to a loop."""
    loop = getattr(_local, "loop", None)
    if loop is None or loop.is_closed():
        loop = _local.loop = asyncio.new_event_loop()
    return loop


@lru_cache(maxsize=32)
def _sim_fingerprint(sim_file: str | None, sim_suite: str | None, _env: str | None) -> str:
    from tuner.models.sim.world import fingerprint

    return fingerprint(sim_file, Path(sim_suite) if sim_suite else None)


def call_task(token: str, spec, kwargs: dict, sim_fingerprint: str | None) -> dict:
    """One attempt of one granted call: ``{"fields": ...}`` (the answer), ``{"failure": [kind,
    message, retry_after]}``, ``{"lost": True}`` (the grant was claimed by an earlier run of this
    task, whose answer died with its worker) or ``{"mismatch": message}`` (this machine's
    simulator files are not the coordinator's)."""
    kwargs = {k: _here(v) if k in ("sim_suite", "sim_file") else v for k, v in kwargs.items()}
    if sim_fingerprint is not None:
        mine = _sim_fingerprint(kwargs.get("sim_file"), kwargs.get("sim_suite"), os.environ.get("TUNER_SIM_FILE"))
        if mine != sim_fingerprint:
            return {
                "mismatch": f"worker {_name()}: its simulator files differ from the coordinator's (sim "
                f"fingerprint {short(mine)} here, {short(sim_fingerprint)} there): install the same tuner "
                "version and suite files on every machine"
            }
    if not _claim(token):
        return {"lost": True}
    from tuner.models.client import call_here
    from tuner.models.failures import Permanent, Transient, classify, describe, retry_after
    from tuner.models.runtime import litellm_module
    from tuner.secrets import scrub

    litellm = litellm_module()
    try:
        return {"fields": _loop().run_until_complete(call_here(spec, kwargs, litellm))}
    except Exception as exc:  # read here: a provider SDK's exception does not travel
        message = str(exc) if isinstance(exc, (Transient, Permanent)) else describe(exc, spec, litellm)
        return {"failure": [classify(exc), scrub(message), retry_after(exc)]}


# -- grading ------------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _suite(path: str, suite_hash: str, grader_id: str):
    from tuner.evals import load_suite

    where = Path(_here(path))
    try:
        suite = load_suite(where)
    except TunerError as exc:
        raise ClusterError(f"worker {_name()}: cannot load the suite at {where}: {exc}") from None
    if suite.hash != suite_hash:
        raise ClusterError(
            f"worker {_name()}: the suite at {where} differs from the coordinator's (hash "
            f"{short(suite.hash)} here, {short(suite_hash)} there): copy the same suite files to every machine"
        )
    if suite.grader_id != grader_id:
        raise ClusterError(
            f"worker {_name()}: its grader differs from the coordinator's (grader id {short(suite.grader_id)} "
            f"here, {short(grader_id)} there): the same tuner version and grading tools (Node toolchain "
            "lock, Python and pytest, gcc) are needed on every machine"
        )
    return suite


def grade_task(suite_ref: tuple[str, str, str], items: list[tuple[str, dict, list]], use_cache: bool) -> list:
    """``GradeResult`` per item (eval id, files, symlinks), in order, graded on this machine."""
    from tuner.grading import GradeRequest
    from tuner.paths import Project
    from tuner.suites import grade

    suite = _suite(*suite_ref)
    project = Project(_project().root, suite.root)
    requests = [
        GradeRequest(eval=suite.get(eval_id), files=files, symlinks=symlinks) for eval_id, files, symlinks in items
    ]
    try:
        return grade(project, requests, suite=suite, use_cache=use_cache)
    except TunerError as exc:  # the toolchain or the jail cannot be used here: say which machine
        raise type(exc)(f"worker {_name()}: {exc}") from None


# -- who is who ---------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def code_identity() -> str:
    """A hash of this tuner's code: a worker must run the coordinator's (pickled tasks name its
    functions, and a verdict depends on its grading code)."""
    import tuner
    from tuner.hashing import sha256_bytes, sha256_json

    root = Path(tuner.__file__).parent
    return sha256_json(
        {p.relative_to(root).as_posix(): sha256_bytes(p.read_bytes()) for p in sorted(root.rglob("*.py"))}
    )


def worker_facts() -> dict:
    """What the coordinator checks of each worker when it connects."""
    return {"code": code_identity(), "project": str(_project().root)}
