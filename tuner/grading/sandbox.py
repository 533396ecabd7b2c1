"""Running grader subprocesses: scrubbed environment, own temp dir, wall-clock timeout.

The code under test is written by a model, so it must not see the parent's secrets. The
environment is built from a small allow-list, and even allowed names are dropped when they look
like credentials. Every launch goes through ``run()``, which also counts launches (tests use the
count to prove a cache hit started no process).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

__all__ = ["Completed", "run", "scrubbed_env", "temp_dir", "launch_count"]

_ALLOWED = ("PATH", "LANG", "LC_ALL", "TZ", "SYSTEMROOT", "TMPDIR")
_SECRET_MARKERS = ("KEY", "TOKEN", "SECRET", "PASSWORD")
_launches = 0


@dataclass(frozen=True)
class Completed:
    returncode: int | None  # None: killed at the timeout
    stdout: str
    stderr: str
    duration_s: float

    @property
    def timed_out(self) -> bool:
        return self.returncode is None


def launch_count() -> int:
    return _launches


def scrubbed_env(home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A minimal environment for a grader process whose HOME is ``home``."""
    env = {name: os.environ[name] for name in _ALLOWED if name in os.environ}
    env.update(
        HOME=str(home),
        CI="1",  # Convex CLI: no prompts, no error reports
        NO_COLOR="1",
        FORCE_COLOR="0",
        # Bound the V8 heap so a runaway allocation fails instead of swapping the machine.
        NODE_OPTIONS="--max-old-space-size=3072",
        npm_config_update_notifier="false",
        npm_config_fund="false",
        npm_config_audit="false",
    )
    env.update(extra or {})
    return {k: v for k, v in env.items() if not any(m in k.upper() for m in _SECRET_MARKERS)}


@contextmanager
def temp_dir(prefix: str = "tuner-grade-") -> Iterator[Path]:
    """A fresh directory under the system temp dir, removed afterwards whatever happens."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def run(
    argv: list[str],
    *,
    cwd: Path,
    home: Path,
    timeout_s: float,
    env: dict[str, str] | None = None,
    stdin: str | None = None,
) -> Completed:
    """Run ``argv`` in ``cwd`` with a scrubbed environment; kill its whole group at the timeout."""
    global _launches
    _launches += 1
    start = time.monotonic()
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=scrubbed_env(home, env),
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        start_new_session=True,  # own process group: the timeout kills workers too
    )
    try:
        out, err = proc.communicate(stdin, timeout=timeout_s)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        code = None
    finally:
        # A tool that exits on its own can leave workers behind (vitest's watchdog exits while a
        # forked worker spins in an infinite loop): nothing of the group may outlive the step.
        _kill_group(proc)
    return Completed(code, out, err, time.monotonic() - start)


def _kill_group(proc: subprocess.Popen[str]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
