"""The locked Node toolchain the graders run (``evals/toolchain``): located, installed, hashed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tuner.errors import ToolchainError
from tuner.hashing import sha256_bytes

__all__ = ["Toolchain", "ensure_toolchain", "lock_hash"]

_INSTALL_TIMEOUT_S = 900
# The packages every step needs; if one is missing the install is broken, whatever npm said.
_REQUIRED = ("convex", "convex-test", "vitest", "typescript", "eslint", "esbuild", "@edge-runtime/vm")


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


def ensure_toolchain(directory: Path) -> Toolchain:
    """Install the toolchain in ``directory`` with ``npm ci`` if node_modules is missing or older than the lock."""
    # The real path: the jail's unprivileged user must reach it, and a project may link its suite
    # from a folder that user cannot traverse (a private temp folder).
    directory = Path(directory).resolve()
    node = shutil.which("node")
    if node is None:
        raise ToolchainError("node is not on PATH: install Node.js 20+ to grade")
    tc = Toolchain(directory, node)
    lock_hash(directory)  # raises when the lock is missing
    if _is_current(tc):
        return tc
    npm = shutil.which("npm")
    if npm is None:
        raise ToolchainError("npm is not on PATH: install Node.js 20+ (with npm) to grade")
    print(f"tuner: installing the grader toolchain in {directory} (npm ci, once)…", file=sys.stderr)
    # npm runs our own locked packages, not model code: it keeps the user's environment, so
    # the registry settings in ~/.npmrc (mirrors, proxies) still apply.
    try:
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=directory, env={**os.environ, "CI": "1"},
                              capture_output=True, text=True, timeout=_INSTALL_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise ToolchainError(f"npm ci timed out after {_INSTALL_TIMEOUT_S}s in {directory}") from None
    if done.returncode != 0 or not _is_current(tc):
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise ToolchainError(f"npm ci failed in {directory}: {tail[0]}")
    return tc


def _is_current(tc: Toolchain) -> bool:
    stamp = tc.node_modules / ".package-lock.json"  # npm writes it after every install
    if not stamp.is_file() or stamp.stat().st_mtime < tc.lock.stat().st_mtime:
        return False
    return all((tc.node_modules / name / "package.json").is_file() for name in _REQUIRED)
