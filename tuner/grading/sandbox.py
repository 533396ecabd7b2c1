"""Running grader subprocesses: bubblewrap jail, scrubbed environment, timeout, output cap.

The code under test is written by a model, so it is untrusted. Every grader tool process goes
through ``run()``, which starts it inside bubblewrap (``bwrap``):

* new user, pid, network, ipc and uts namespaces (``--unshare-all``): no network at all, and
  killing the jail's first process kills everything inside, detached sessions included;
* only the system folders (``/usr``, ``/bin``, ``/lib*``, ``/etc``) read-only, a fresh ``/tmp``
  and ``/dev``, its own ``/proc``, and the paths the caller names (the batch, the toolchain, the
  interpreter): other projects, the suite's reference answers, home folders are not there at all;
* ``scratch`` (a batch's ``.scratch``: tool caches, HOME) is a fresh tmpfs of ``SCRATCH_BYTES``
  per run: what the code under test writes stays in memory, bounded, and is gone when the run
  ends (the host reads nothing from it); only paths named ``writable`` are written on disk;
* an unprivileged uid/gid (65534; when tuner runs as root the jail itself is started as that
  user, so the files of the host's root are out of reach too);
* no nested user namespaces (``--disable-userns``);
* limits: processes/threads (a fork bomb stops there), file size, the size of its /tmp, output
  size, wall clock.

The environment is built from a small allow-list, and even allowed names are dropped when they look
like credentials. ``run()`` also counts launches (tests use the count to prove a cache hit started
no process). ``TUNER_SANDBOX=none`` runs tools without the jail (with a warning), for machines
where bubblewrap cannot be installed.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from tuner.errors import JailAccessError, ToolchainError

__all__ = [
    "Completed",
    "run",
    "scrubbed_env",
    "temp_dir",
    "launch_count",
    "check_available",
    "hand_over",
    "enabled",
    "check_reachable",
    "MAX_OUTPUT_BYTES",
    "NOBODY",
    "SCRATCH_BYTES",
    "sweep_stale_temp_dirs",
    "TEMP_PREFIX",
]

_ALLOWED = ("PATH", "LANG", "LC_ALL", "TZ", "SYSTEMROOT", "TMPDIR")
_launches = 0

NOBODY = 65534
# Tasks (processes and threads) per jail: a test runner with workers uses a few dozen; a fork bomb stops here.
MAX_TASKS = 256
MAX_FILE_BYTES = 64 * 1024 * 1024  # one file written by a tool or by the code under test
MAX_OUTPUT_BYTES = 16 * 1024 * 1024  # stdout, and stderr, of one tool run
TMP_BYTES = 256 * 1024 * 1024  # the jail's own /tmp (memory)
SCRATCH_BYTES = 256 * 1024 * 1024  # the jail's scratch folder (memory), when the caller names one
_JAIL_PATH = "/usr/local/bin:/usr/bin:/bin"
# What every tool needs from the host: programs, libraries, configuration. Nothing else.
_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
INSTALL_HINT = "apt-get install bubblewrap"
_warned = False
_checked: str | None = None  # "ok", or why the jail cannot be used


@dataclass(frozen=True)
class Completed:
    returncode: int | None  # None: killed at the timeout or at the output limit
    stdout: str
    stderr: str
    duration_s: float
    overflowed: bool = False  # killed because it printed more than MAX_OUTPUT_BYTES

    @property
    def timed_out(self) -> bool:
        return self.returncode is None and not self.overflowed


def launch_count() -> int:
    return _launches


def enabled() -> bool:
    """False only when TUNER_SANDBOX=none is set explicitly."""
    return os.environ.get("TUNER_SANDBOX", "").strip().lower() != "none"


def check_available() -> None:
    """Raise ToolchainError when the jail is wanted but bubblewrap is missing or cannot start."""
    global _checked, _warned
    if not enabled():
        if not _warned:
            _warned = True
            print("tuner: TUNER_SANDBOX=none: model code runs WITHOUT the bubblewrap jail", file=sys.stderr)
        return
    if _checked is None:
        bwrap = shutil.which("bwrap")
        if bwrap is None:
            _checked = (
                f"bubblewrap (bwrap) is not installed: `{INSTALL_HINT}` (or set TUNER_SANDBOX=none to grade unjailed)"
            )
        else:
            try:
                done = subprocess.run(
                    [*_jail_argv(bwrap, [], []), "true"],
                    capture_output=True,
                    text=True,
                    timeout=30,
                    **_drop_privileges(),
                )
                _checked = (
                    "ok"
                    if done.returncode == 0
                    else (
                        f"bubblewrap cannot start a jail here ({done.stderr.strip()[:200]}): user namespaces may be "
                        "disabled (sysctl kernel.unprivileged_userns_clone=1)"
                    )
                )
            except (OSError, subprocess.TimeoutExpired) as e:
                _checked = f"bubblewrap cannot start a jail here: {e}"
    if _checked != "ok":
        raise ToolchainError(_checked)


def check_reachable(paths: Sequence[Path], what: str) -> None:
    """Raise JailAccessError when the jail's user (nobody, when tuner runs as root) cannot
    traverse to one of ``paths``: every tool would fail on every answer otherwise."""
    if not enabled() or os.geteuid() != 0:
        return  # unjailed, or the jail runs as this very user
    for path in paths:
        real = Path(path).resolve()
        for folder in [*reversed(real.parents), real]:
            try:
                mode = folder.stat().st_mode
            except OSError:
                break  # missing: reported where it is needed
            if not mode & 0o001:
                raise JailAccessError(
                    f"the grading jail's user (nobody) cannot enter {folder} (mode {mode & 0o777:o}), which holds "
                    f"{what} ({real}): run from a folder others can enter (chmod o+x {folder}, or move the "
                    f"project), or set TUNER_SANDBOX=none to grade unjailed"
                )


def scrubbed_env(home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A minimal environment for a grader process whose HOME is ``home``, with ``extra`` (what a
    kind's tools need: its own settings, never the host's) laid over it."""
    env = {name: os.environ[name] for name in _ALLOWED if name in os.environ}
    env.update(
        HOME=str(home),
        CI="1",  # command-line tools: no prompts, no error reports
        NO_COLOR="1",
        FORCE_COLOR="0",
    )
    env.update(extra or {})  # the kind's own settings for its tools (a runtime's memory bound, say)
    from tuner.secrets import is_secret_name  # the one list of what names a credential

    return {k: v for k, v in env.items() if not is_secret_name(k)}


# Grading folders: ``tuner-grade-<pid>-[<label>-]<random>``, one prefix for every kind, so a later
# process can tell an orphan whichever kind left it.
TEMP_PREFIX = "tuner-grade-"
_swept = False


def sweep_stale_temp_dirs() -> list[Path]:
    """Remove the grading folders of processes that are gone (a SIGKILL skips ``temp_dir``'s
    cleanup): only folders named with a pid that no longer runs; a live or unknown owner's stay."""
    removed = []
    base = Path(tempfile.gettempdir())
    for path in base.glob(f"{TEMP_PREFIX}*"):
        pid = path.name[len(TEMP_PREFIX) :].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid() or _alive(int(pid)) or not path.is_dir():
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


@contextmanager
def temp_dir(label: str = "") -> Iterator[Path]:
    """A fresh directory under the system temp dir, removed afterwards whatever happens (and,
    the first time in a process, the orphans of killed processes are removed). ``label`` (a
    kind's name, say) only helps a person reading ``/tmp``."""
    global _swept
    if not _swept:
        _swept = True
        sweep_stale_temp_dirs()
    path = Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-{label + '-' if label else ''}"))
    try:
        path.chmod(0o755)  # the jail's unprivileged user reads it (and writes only what it is given)
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def hand_over(path: Path) -> Path:
    """Create ``path`` (a folder) writable by the jail's user."""
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0 and enabled():
        os.chown(path, NOBODY, NOBODY)
    return path


def _drop_privileges() -> dict:
    # As root, start the jail as nobody: inside a user namespace made by root, uid 65534 would
    # still be the host's root for every file (/etc/shadow, /root).
    return {"user": NOBODY, "group": NOBODY, "extra_groups": []} if os.geteuid() == 0 else {}


def _jail_argv(
    bwrap: str,
    visible: Sequence[Path],
    writable: Sequence[Path],
    scratch: Path | None = None,
    scratch_dirs: Sequence[Path] = (),
) -> list[str]:
    argv = [bwrap, "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session"]
    for system in _SYSTEM:
        path = Path(system)
        if path.is_symlink():  # merged /usr: /bin -> usr/bin
            argv += ["--symlink", os.readlink(path), system]
        elif path.is_dir():
            argv += ["--ro-bind", system, system]
    argv += ["--dev", "/dev", "--proc", "/proc", "--size", str(TMP_BYTES), "--tmpfs", "/tmp"]
    for path in visible:
        argv += ["--ro-bind", str(path), str(path)]
    for path in writable:
        argv += ["--bind", str(path), str(path)]
    if scratch is not None:
        argv += ["--size", str(SCRATCH_BYTES), "--tmpfs", str(scratch)]
        for path in scratch_dirs:
            argv += ["--dir", str(path)]
    # The jail's own root (where the folders above are mounted) is an unbounded tmpfs: read-only.
    argv += ["--remount-ro", "/", "--uid", str(NOBODY), "--gid", str(NOBODY), "--"]
    prlimit = shutil.which("prlimit")
    if prlimit:
        argv += [prlimit, f"--nproc={MAX_TASKS}", f"--fsize={MAX_FILE_BYTES}", "--"]
    return argv


def _outside_system(path: Path) -> bool:
    return not any(path.is_relative_to(s) for s in _SYSTEM)


def _program_prefix(program: str) -> list[Path]:
    # A tool installed outside the system folders (a runtime under a version manager): show its prefix.
    found = shutil.which(program)
    if not found:
        return []
    real = Path(found).resolve()
    return [real.parents[1]] if _outside_system(real) else []


def run(
    argv: list[str],
    *,
    cwd: Path,
    home: Path,
    timeout_s: float,
    env: dict[str, str] | None = None,
    stdin: str | None = None,
    visible: Sequence[Path] = (),
    writable: Sequence[Path] = (),
    scratch: Path | None = None,
    idle_timeout_s: float | None = None,
) -> Completed:
    """Run ``argv`` in ``cwd`` inside the jail; kill everything it started at the timeout, or
    when it printed nothing on stdout for ``idle_timeout_s`` (then it counts as timed out too).

    ``visible`` paths (and ``cwd``) are bound read-only, ``writable`` ones and ``home`` read-write;
    ``scratch`` is a fresh tmpfs of SCRATCH_BYTES (``home`` may be inside it); of the host's
    filesystem only the system folders are there besides.
    """
    global _launches
    check_available()
    _launches += 1
    jailed = enabled()
    program = argv[0]
    extra: dict = {}
    if jailed:
        paths = [Path(p).resolve() for p in (*visible, cwd, *_program_prefix(argv[0]))]
        space = Path(scratch).resolve() if scratch is not None else None
        in_scratch = space is not None and Path(home).resolve().is_relative_to(space)
        rw = [hand_over(Path(p).resolve()) for p in (*writable, *(() if in_scratch else (home,)))]
        argv = [
            *_jail_argv(
                shutil.which("bwrap") or "bwrap",
                [p for p in paths if p not in rw],
                rw,
                space,
                [Path(home).resolve()] if in_scratch else [],
            ),
            *argv,
        ]
        extra = _drop_privileges()
    environment = scrubbed_env(home, env)
    if jailed:  # the host's PATH names host folders (a virtualenv, a home) the jail does not have
        environment["PATH"] = ":".join([*(str(p / "bin") for p in _program_prefix(program)), _JAIL_PATH])
    start = time.monotonic()
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=environment,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # own process group: the timeout kills workers too
        **extra,
    )
    out, err, timed_out, overflowed = _collect(proc, stdin, timeout_s, idle_timeout_s)
    code: int | None = None if overflowed or timed_out else proc.returncode
    return Completed(code, out, err, time.monotonic() - start, overflowed)


def _collect(
    proc: subprocess.Popen, stdin: str | None, timeout_s: float, idle_timeout_s: float | None
) -> tuple[str, str, bool, bool]:
    """Read stdout and stderr up to MAX_OUTPUT_BYTES each, killing the jail at the timeout or
    at the output limit; nothing the tool started outlives this call."""
    chunks: dict[int, list[bytes]] = {1: [], 2: []}
    over = threading.Event()
    last_output = [time.monotonic()]

    def pump(stream, key: int) -> None:
        size = 0
        while block := stream.read1(65536):
            if key == 1:
                last_output[0] = time.monotonic()
            if size < MAX_OUTPUT_BYTES:
                chunks[key].append(block[: MAX_OUTPUT_BYTES - size])
            size += len(block)
            if size > MAX_OUTPUT_BYTES and not over.is_set():
                over.set()
                _kill_group(proc)

    readers = [
        threading.Thread(target=pump, args=(proc.stdout, 1), daemon=True),
        threading.Thread(target=pump, args=(proc.stderr, 2), daemon=True),
    ]
    for t in readers:
        t.start()
    if proc.stdin is not None:
        try:
            proc.stdin.write((stdin or "").encode())
            proc.stdin.close()
        except OSError:
            pass
    deadline = time.monotonic() + timeout_s
    timed_out = False
    while proc.poll() is None:
        now = time.monotonic()
        if now >= deadline or (idle_timeout_s is not None and now - last_output[0] >= idle_timeout_s):
            timed_out = True
            break
        try:
            proc.wait(timeout=min(0.25, max(deadline - now, 0.01)))
        except subprocess.TimeoutExpired:
            pass
    # A tool that exits on its own can leave workers behind (a test runner's watchdog exits while
    # a forked worker spins in an infinite loop): nothing of the group may outlive the step. In the
    # jail, the end of its first process ends its pid namespace, so detached sessions go too.
    _kill_group(proc)
    proc.wait()
    for t in readers:
        t.join(timeout=10)
    text = [b"".join(chunks[k]).decode("utf-8", "replace") for k in (1, 2)]
    return text[0], text[1], timed_out and not over.is_set(), over.is_set()


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
