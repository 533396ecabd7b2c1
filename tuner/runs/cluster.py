"""Fanning a command's provider calls and grading out to workers on other machines (Dask distributed).

The process that runs the command stays the *coordinator*: it plans, owns the cap (every attempt
is granted by ``runs.plan.Budget`` here, before it is sent), the response and grading caches, the
store, and the per-model pacing, concurrency and retries of ``tuner.models.client``. Workers
(``tuner cluster worker``) make single attempts and grade chunks (``tuner.runs.remote``); what
comes back is recorded here in the order a one-machine run records it, so run ids, verdicts and
decisions are the same on one machine or N.

The unit of work is one step of one answer: one attempt at a call, or one chunk of answers to
grade. A later step (a repair turn: the model sees its failed grade and answers again) is another
call granted and cached here, so it fits without a new kind of task, and a worker lost mid-step
costs only that step: an attempt whose grant it had claimed is counted (the provider may have
seen it) and retried under the cap; one it had not claimed is sent again on the same grant; a
grading chunk is graded again (free: grading is a pure function of the answer).
"""

from __future__ import annotations

import asyncio
import itertools
import math
import os
import threading
import time
import uuid
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tuner.errors import ClusterError
from tuner.hashing import short

if TYPE_CHECKING:
    from tuner.runs.harness import Harness

__all__ = ["Cluster", "CALLS", "GRADING", "LOST"]

CALLS, GRADING = "calls", "grading"  # the worker resources tasks ask for (``tuner cluster worker``)
LOST = "the cluster worker making this call was lost (the provider may have seen the call)"
_CHUNK_MAX = 16  # answers per grading task: enough to amortise a kind's batch set-up (Convex)


def _wait_s() -> float:
    """How long a command waits for a worker (at the start, or once every worker is gone)."""
    return float(os.environ.get("TUNER_CLUSTER_WAIT_S", "60"))


class Cluster:
    """A connection to a scheduler and the workers behind it."""

    def __init__(self, address: str, project):
        from distributed import Client

        from tuner.runs.remote import Claims

        self.address, self.project = address, project
        try:
            # A scheduler that is up answers in milliseconds; Dask retries within this time.
            self.client = Client(address, timeout=f"{min(_wait_s(), 5):g}s", set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(
                f"--cluster {address}: no scheduler answers there ({type(exc).__name__}); start one with "
                "`tuner cluster scheduler` and give its address"
            ) from None
        self.client.register_plugin(Claims(), name=Claims.name)
        self.session = f"{uuid.uuid4().hex[:12]}-"
        self._tokens = itertools.count()
        self._lock = threading.Lock()
        self._checked_code = False
        self.workers = self._tuner_workers(wait=True)

    # -- workers ------------------------------------------------------------------------------

    def _tuner_workers(self, wait: bool = False) -> list[str]:
        """Addresses of the workers offering both slots; with ``wait``, waits for one (or raises)."""
        deadline = time.monotonic() + (_wait_s() if wait else 0)
        while True:
            info = self.client.scheduler_info(n_workers=-1)["workers"]
            found = sorted(
                a for a, w in info.items() if w.get("resources", {}).get(CALLS) and w["resources"].get(GRADING)
            )
            if found or time.monotonic() >= deadline:
                break
            time.sleep(0.2)
        if wait and not found:
            raise ClusterError(
                f"--cluster {self.address}: no tuner worker joined within {_wait_s():g} s; start "
                f"`tuner cluster worker {self.address}` on each machine (TUNER_CLUSTER_WAIT_S waits longer)"
            )
        return found

    def check(self) -> None:
        """Every worker runs this tuner's code (pickled tasks name its functions)."""
        from tuner.runs.remote import code_identity, worker_facts

        workers = self._tuner_workers(wait=True)
        facts = self.client.run(worker_facts, workers=workers)
        mine = code_identity()
        for address, f in sorted(facts.items()):
            if f["code"] != mine:
                raise ClusterError(
                    f"worker {address}: runs another tuner version than this machine (code "
                    f"{short(f['code'])} there, {short(mine)} here): install the same version on every machine"
                )
        self.workers = workers

    def _stranded(self) -> bool:
        return not self._tuner_workers()

    async def _result(self, future) -> Any:
        """The future's result, awaited from the caller's event loop; gives up (ClusterError) when no
        worker has been there for ``TUNER_CLUSTER_WAIT_S``."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()

        def ready(_f) -> None:
            loop.call_soon_threadsafe(lambda: done.done() or done.set_result(None))

        future.add_done_callback(ready)
        alone_since = None
        while not done.done():
            await asyncio.wait({done}, timeout=5)
            if done.done():
                break
            if await asyncio.to_thread(self._stranded):
                alone_since = alone_since or time.monotonic()
                if time.monotonic() - alone_since > _wait_s():
                    raise ClusterError(f"--cluster {self.address}: no worker left for {_wait_s():g} s")
            else:
                alone_since = None
        return await asyncio.to_thread(future.result)

    # -- provider calls ---------------------------------------------------------------------------

    def _token(self) -> str:
        with self._lock:
            return f"{self.session}{next(self._tokens)}"

    async def call(self, spec, kwargs: dict, litellm) -> dict:
        """One attempt on a worker (``client.Call``): the answer's fields, or ``Reported``."""
        from tuner.models.failures import Reported
        from tuner.runs.remote import call_task, portable

        root = self.project.root
        sent = {k: portable(v, root) if k in ("sim_suite", "sim_file") and v else v for k, v in kwargs.items()}
        expect = _sim_fingerprint(kwargs.get("sim_file"), kwargs.get("sim_suite")) if spec.is_sim else None
        token = self._token()
        for run in itertools.count():
            future = self.client.submit(
                call_task, token, spec, sent, expect, key=f"tuner-call-{token}-{run}", pure=False, resources={CALLS: 1}
            )
            try:
                out = await self._result(future)
            except ClusterError as exc:
                raise Reported("fail", str(exc)) from None
            except Exception:  # the task died with its worker(s): was the grant used?
                if await asyncio.to_thread(self._claimed, token):
                    raise Reported("retry", LOST) from None
                continue  # never claimed: no call was made, the same grant goes out again
            finally:
                future.release()
            if "fields" in out:
                return out["fields"]
            if "lost" in out:
                raise Reported("retry", LOST)
            if "mismatch" in out:  # every call to this model on that worker would be wrong: stop the model
                raise Reported("fatal", out["mismatch"])
            kind, message, after = out["failure"]
            raise Reported(kind, message, after)
        raise AssertionError("unreachable")

    def _claimed(self, token: str) -> bool:
        return bool(self.client.sync(self.client.scheduler.tuner_claimed, token=token))

    def ready(self) -> None:
        """Before a phase: the workers' code is checked once per command (a worker whose simulator
        or suite files differ is found by the task itself, at its first call or chunk)."""
        if not self._checked_code:
            self.check()
            self._checked_code = True

    # -- grading ----------------------------------------------------------------------------------

    def grade(self, h: Harness, requests: list, progress=None) -> list:
        """``GradeResult`` per request, in order: cache hits here, the rest graded on workers in
        chunks (an output's verdict depends on its own files only, so chunking changes none)."""
        from tuner.grading import graded_with_cache
        from tuner.runs.remote import portable

        self.ready()
        suite = h.suite

        ref = (portable(suite.root, h.project.root), suite.hash, suite.grader_id)

        def missing(todo: dict) -> Any:
            return self._grade_missing(ref, todo, h.use_cache)

        # Keyed as the kind keys its own cache (``SuiteKind.grade``): the same answer is a hit here
        # whether this machine or a worker graded it.
        return graded_with_cache(
            requests,
            suite.kind.grader_id(suite),
            h.project.cache_dir,
            missing,
            use_cache=h.use_cache,
            progress=progress,
        )

    def _grade_missing(self, ref: tuple, todo: dict, use_cache: bool):
        from distributed import as_completed

        from tuner.runs.remote import grade_task

        keys = list(todo)
        slots = max(1, len(self.workers))
        size = max(1, min(_CHUNK_MAX, math.ceil(len(keys) / (2 * slots))))
        chunks = [keys[i : i + size] for i in range(0, len(keys), size)]
        tries = {i: 0 for i in range(len(chunks))}

        def submit(i: int):
            items = [(todo[k].eval.id, todo[k].files, list(todo[k].symlinks)) for k in chunks[i]]
            future = self.client.submit(
                grade_task,
                ref,
                items,
                use_cache,
                key=f"tuner-grade-{self._token()}",
                pure=False,
                resources={GRADING: 1},
            )
            which[future.key] = (i, future)
            return future

        which: dict[str, tuple[int, Any]] = {}
        pending = as_completed([submit(i) for i in range(len(chunks))], with_results=False, loop=self.client.loop)
        alone_since = None
        try:
            while not pending.is_empty():
                batch = pending.next_batch(block=False) or []
                if not batch:
                    time.sleep(0.05)
                    if self._stranded():
                        alone_since = alone_since or time.monotonic()
                        if time.monotonic() - alone_since > _wait_s():
                            raise ClusterError(f"--cluster {self.address}: no worker left for {_wait_s():g} s")
                    else:
                        alone_since = None
                    continue
                for future in batch:
                    i, _ = which.pop(future.key)
                    if future.status != "finished":
                        try:
                            exc = future.exception()
                        except BaseException as cancelled:  # noqa: BLE001 - a cancelled future raises its reason
                            exc = cancelled
                        future.release()
                        if isinstance(exc, ClusterError) or getattr(exc, "exit_code", None):
                            raise exc  # a worker that cannot grade (its suite, its toolchain): named, not retried
                        tries[i] += 1
                        if tries[i] > 3:
                            raise ClusterError(
                                f"--cluster {self.address}: a grading chunk failed {tries[i]} times: "
                                f"{type(exc).__name__}: {exc}"
                            )
                        pending.add(submit(i))  # lost with its worker: grading again is free
                        continue
                    results = future.result()
                    future.release()
                    yield from zip(chunks[i], results)
        finally:  # an error above: the chunks still out are not wanted any more
            for _, future in which.values():
                future.cancel()

    # -- the end ----------------------------------------------------------------------------------

    def close(self) -> None:
        try:
            self.client.sync(self.client.scheduler.tuner_forget, prefix=self.session)
        except Exception:  # the scheduler may be gone: nothing of ours is left to forget then
            pass
        self.client.close()


@lru_cache(maxsize=32)
def _sim_fingerprint(sim_file: str | None, sim_suite: str | None) -> str:
    from tuner.models.sim.world import fingerprint

    return fingerprint(sim_file, Path(sim_suite) if sim_suite else None)
