"""The locked Node toolchain the graders run (``evals/toolchain``): located, installed, hashed.

Safe under concurrency: several processes (two shells, a cluster's workers on one machine) may
grade with one toolchain folder. Whether it is current is a content hash of ``package.json`` and
``package-lock.json`` recorded in ``node_modules`` after a successful install (file times lie: a
fresh copy or checkout makes a byte-identical lock look newer). An advisory lock file beside the
lock orders them: grading holds it shared, ``npm ci`` (which empties ``node_modules`` first) holds
it exclusive, so no install ever runs twice at once or under a process that is grading.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tuner.errors import JailAccessError, ToolchainError
from tuner.hashing import sha256_bytes, sha256_json

__all__ = ["Toolchain", "check_jail_can_use", "ensure_toolchain", "lock_hash", "toolchain_in_use"]

_INSTALL_TIMEOUT_S = 900
# The packages every step needs; if one is missing the install is broken, whatever npm said.
_REQUIRED = ("convex", "convex-test", "vitest", "typescript", "eslint", "esbuild", "@edge-runtime/vm")
# Written into node_modules after a successful install: the hash of what was installed.
_STAMP = ".tuner-installed.json"
# Beside the lock: flock(2)'d shared while grading, exclusive while installing.
_LOCK_FILE = ".tuner-toolchain.lock"


@dataclass(frozen=True)
class Toolchain:
    dir: Path
    node: str

    @property
    def node_modules(self) -> Path:
        return self.dir / "node_modules"

    @property
    def lock(self) -> Path:
        return self.dir / "package-lock.json"

    def bin(self, package: str, relative: str) -> str:
        """Path of a package's JS entry, run with ``node`` (no shell wrappers, no npx)."""
        return str(self.node_modules / package / relative)


def lock_hash(directory: Path) -> str:
    lock = directory / "package-lock.json"
    if not lock.is_file():
        raise ToolchainError(f"{lock} is missing: run `npm install --package-lock-only` in {directory}")
    return sha256_bytes(lock.read_bytes())


def _wanted(directory: Path) -> str:
    """What an install of ``directory`` must have been made from: its package files' content."""
    package = directory / "package.json"
    return sha256_json({"lock": lock_hash(directory),
                        "package.json": sha256_bytes(package.read_bytes()) if package.is_file() else ""})


def check_jail_can_use(directory: Path) -> None:
    """Raise JailAccessError when the grading jail could not load the toolchain: it mounts the
    toolchain folder's own ``node_modules`` only, so one that is a link to elsewhere (or whose
    packages are) leaves every tool without its packages, on every answer."""
    from tuner.grading import sandbox

    if not sandbox.enabled():
        return  # unjailed tools follow links like any program
    modules = Path(directory).resolve() / "node_modules"
    if modules.is_symlink():
        target = modules.resolve()
        raise JailAccessError(
            f"{modules} is a symlink (to {target}), which the grading jail cannot follow: it mounts the "
            f"toolchain folder's own node_modules only. Remove the link (`rm {modules}`; tuner then installs "
            f"the toolchain there with npm ci) or move the folder in its place (`rm {modules} && mv {target} {modules}`)")
    if not modules.is_dir():
        return  # not installed yet: the first grading installs it
    real = modules.resolve()
    for name in _REQUIRED:
        package = modules / name
        if package.is_symlink() and not package.resolve().is_relative_to(real):
            raise JailAccessError(
                f"{package} is a symlink to {package.resolve()}, outside the toolchain, which the grading jail "
                f"cannot follow: reinstall the toolchain (`rm -r {modules}`; tuner runs npm ci on the next grading)")


@contextmanager
def toolchain_in_use(directory: Path) -> Iterator[Toolchain]:
    """The toolchain of ``directory``, installed first if it is not current, held (a shared lock)
    until the block ends: another process's install waits for it, and it for an install."""
    tc = _toolchain(directory)
    try:
        handle = open(tc.dir / _LOCK_FILE, "a+")
    except OSError:
        # A read-only toolchain folder (a mounted suite): usable as it is, never installable.
        if _is_current(tc):
            yield tc
            return
        raise ToolchainError(f"{tc.dir} is not installed and not writable: run `npm ci` there once") from None
    with handle:
        while True:
            _flock(handle, fcntl.LOCK_SH, tc)
            if _is_current(tc):
                break
            _flock(handle, fcntl.LOCK_EX, tc)  # converts: no other process grades or installs now
            if not _is_current(tc):  # another process may have installed it while this one waited
                _install(tc)
            # Back to shared (the loop checks again: a conversion is not atomic).
        try:
            yield tc
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure_toolchain(directory: Path) -> Toolchain:
    """Install the toolchain in ``directory`` (``npm ci``) unless it is current; hold nothing after."""
    with toolchain_in_use(directory) as tc:
        return tc


def _toolchain(directory: Path) -> Toolchain:
    # The real path: the jail's unprivileged user must reach it, and a project may link its suite
    # from a folder that user cannot traverse (a private temp folder).
    directory = Path(directory).resolve()
    node = shutil.which("node")
    if node is None:
        raise ToolchainError("node is not on PATH: install Node.js 20+ to grade")
    lock_hash(directory)  # raises when the lock is missing
    return Toolchain(directory, node)


def _flock(handle, mode: int, tc: Toolchain) -> None:
    try:
        fcntl.flock(handle, mode | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        pass
    what = "installs or grades with" if mode == fcntl.LOCK_EX else "installs"
    print(f"tuner: waiting for another process that {what} the grader toolchain in {tc.dir}…", file=sys.stderr)
    fcntl.flock(handle, mode)


def _install(tc: Toolchain) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise ToolchainError("npm is not on PATH: install Node.js 20+ (with npm) to grade")
    print(f"tuner: installing the grader toolchain in {tc.dir} (npm ci, once)…", file=sys.stderr)
    wanted = _wanted(tc.dir)
    # npm runs our own locked packages, not model code: it keeps the user's environment, so
    # the registry settings in ~/.npmrc (mirrors, proxies) still apply.
    try:
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=tc.dir, env={**os.environ, "CI": "1"},
                              capture_output=True, text=True, timeout=_INSTALL_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise ToolchainError(f"npm ci timed out after {_INSTALL_TIMEOUT_S}s in {tc.dir}") from None
    if done.returncode != 0 or not _has_packages(tc):
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise ToolchainError(f"npm ci failed in {tc.dir}: {tail[0]}")
    # Last, once everything is in place: a killed install leaves no stamp, so it counts as stale.
    (tc.node_modules / _STAMP).write_text(json.dumps({"installed_from": wanted}) + "\n", encoding="utf-8")


def _has_packages(tc: Toolchain) -> bool:
    return all((tc.node_modules / name / "package.json").is_file() for name in _REQUIRED)


def _is_current(tc: Toolchain) -> bool:
    try:
        stamp = json.loads((tc.node_modules / _STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(stamp, dict) and stamp.get("installed_from") == _wanted(tc.dir) and _has_packages(tc)
