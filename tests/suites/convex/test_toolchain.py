"""The grader toolchain under concurrency: current by content (not file times), one install at a
time and never under a process that grades, and a toolchain the jail cannot use refused up front.

A fake ``npm`` first on PATH stands in for the registry: it empties ``node_modules`` as ``npm ci``
does, waits, then hard-links the real toolchain's packages in, and logs each run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tuner.grading import sandbox
from tuner.suites.convex import toolchain as toolchain_module
from tuner.suites.convex.toolchain import ensure_toolchain

ROOT = Path(__file__).resolve().parents[3]
TOOLCHAIN = ROOT / "evals" / "toolchain"
EVAL = "001-fundamentals/001-hello-query"

_FAKE_NPM = """#!/bin/sh
# npm ci, faked: empty node_modules first (as npm ci does), take a while, then put the packages in.
echo "start $$" >> "{log}"
rm -rf node_modules
sleep {delay}
cp -al "{real}" node_modules
rm -f node_modules/{stamp}
echo "end $$" >> "{log}"
"""


@pytest.fixture
def open_dir():
    """A folder the jail's user (nobody, as root) can enter: pytest's tmp_path is 0700."""
    path = Path(tempfile.mkdtemp(prefix="tuner-toolchain-test-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _fake_npm(where: Path, delay: float = 0.0) -> tuple[Path, Path]:
    """A bin folder holding the fake npm, and the log it appends ``start <pid>`` / ``end <pid>`` to."""
    ensure_toolchain(TOOLCHAIN)  # the real packages the fake one links in
    bin_dir, log = where / "bin", where / "npm.log"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text(_FAKE_NPM.format(log=log, delay=delay, real=TOOLCHAIN / "node_modules", stamp=toolchain_module._STAMP))
    npm.chmod(0o755)
    log.touch()
    return bin_dir, log


def _copy_toolchain(target: Path) -> Path:
    target.mkdir(parents=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copy(TOOLCHAIN / name, target / name)
    return target


def _installs(log: Path) -> list[str]:
    return [line for line in log.read_text().splitlines() if line.startswith("start")]


@pytest.mark.node
def test_a_byte_identical_lock_in_a_fresh_copy_is_not_reinstalled(open_dir, monkeypatch):
    bin_dir, log = _fake_npm(open_dir)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    first = _copy_toolchain(open_dir / "first")
    ensure_toolchain(first)
    assert len(_installs(log)) == 1
    ensure_toolchain(first)
    assert len(_installs(log)) == 1, "a current toolchain was installed again"
    # A fresh copy (cp -r: new file times), its lock newer than every installed file.
    fresh = open_dir / "fresh"
    subprocess.run(["cp", "-r", str(first), str(fresh)], check=True)
    future = (fresh / "node_modules" / "vitest" / "package.json").stat().st_mtime + 3600
    os.utime(fresh / "package-lock.json", (future, future))
    ensure_toolchain(fresh)
    assert len(_installs(log)) == 1, "a byte-identical lock in a fresh copy triggered npm ci"
    # One byte of the lock changed: the install is stale.
    lock = fresh / "package-lock.json"
    lock.write_text(lock.read_text() + "\n")
    ensure_toolchain(fresh)
    assert len(_installs(log)) == 2
    # An install killed half-way leaves no stamp: stale, installed again.
    (fresh / "node_modules" / toolchain_module._STAMP).unlink()
    ensure_toolchain(fresh)
    assert len(_installs(log)) == 3


_GRADE = """
import sys
from pathlib import Path
from tuner.evals import load_suite
from tuner.grading import GradeRequest
from tuner.paths import Project
from tuner.suites import grade
project = Project(Path({root!r}), Path(sys.argv[1]))
suite = load_suite(project)
ev = suite.get({eval!r})
result = grade(project, [GradeRequest(eval=ev, files=ev.answer_files())], suite=suite, use_cache=False)[0]
print("RESULT", result.passed, result.infra_error)
"""


@pytest.mark.node
@pytest.mark.skipif(shutil.which("bwrap") is None and sandbox.enabled(), reason="bubblewrap is not installed")
def test_two_processes_started_at_once_on_a_fresh_copy_both_grade(open_dir):
    bin_dir, log = _fake_npm(open_dir, delay=3.0)
    suite = open_dir / "evals"
    shutil.copytree(ROOT / "evals", suite, ignore=shutil.ignore_patterns("node_modules", ".tuner-toolchain.lock"))
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    procs = [subprocess.Popen([sys.executable, "-c", _GRADE.format(root=str(ROOT), eval=EVAL), str(suite)],
                              env={**env, "TUNER_CACHE_DIR": str(open_dir / f"cache{i}")}, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in range(2)]
    outputs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outputs):
        assert p.returncode == 0, err
        assert "RESULT True None" in out, (out, err)
    # One install; the other process waited for it (and did not empty node_modules under it).
    assert _installs(log) and len(_installs(log)) == 1, log.read_text()
    assert log.read_text().splitlines()[-1].startswith("end")


@pytest.mark.skipif(not sandbox.enabled(), reason="unjailed tools follow the link")
def test_a_symlinked_node_modules_is_refused_with_one_line_exit_3(open_dir, cli):
    suite = open_dir / "evals"
    shutil.copytree(ROOT / "evals", suite, ignore=shutil.ignore_patterns("node_modules", ".tuner-toolchain.lock"))
    elsewhere = open_dir / "elsewhere"
    elsewhere.mkdir()
    (suite / "toolchain" / "node_modules").symlink_to(elsewhere, target_is_directory=True)
    output = open_dir / "out"
    shutil.copytree(suite / EVAL / "answer", output)
    r = cli("grade", str(output), "--eval", EVAL, "--suite", str(suite))
    assert r.exit_code == 3, r.output
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert len(lines) == 1, r.output
    assert "is a symlink" in lines[0] and "jail" in lines[0] and f"rm {suite / 'toolchain' / 'node_modules'}" in lines[0]
