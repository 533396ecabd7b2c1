from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from tuner.grading import sandbox


def test_scrubbed_env_is_minimal(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    monkeypatch.setenv("FOO_TOKEN", "t")
    monkeypatch.setenv("MY_PASSWORD", "p")
    monkeypatch.setenv("RANDOM_SETTING", "r")
    env = sandbox.scrubbed_env(tmp_path)
    assert env["HOME"] == str(tmp_path) and env["CI"] == "1"
    assert not {"OPENAI_API_KEY", "FOO_TOKEN", "MY_PASSWORD", "RANDOM_SETTING"} & env.keys()
    assert "AWS_SECRET" not in sandbox.scrubbed_env(tmp_path, {"AWS_SECRET": "x"})


def _print_env_argv() -> list[str]:
    if shutil.which("node"):
        return [shutil.which("node"), "-e", "process.stdout.write(JSON.stringify(process.env))"]
    return [sys.executable, "-c", "import json, os; print(json.dumps(dict(os.environ)))"]


def test_a_child_process_does_not_see_secrets(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    monkeypatch.setenv("FOO_TOKEN", "t0k3n")
    with sandbox.temp_dir() as home:
        done = sandbox.run(_print_env_argv(), cwd=home, home=home, timeout_s=30)
        seen = json.loads(done.stdout)
        assert done.returncode == 0
        assert "OPENAI_API_KEY" not in seen and "FOO_TOKEN" not in seen
        assert "sk-secret" not in done.stdout and "t0k3n" not in done.stdout
        assert seen["HOME"] == str(home)
    assert not Path(home).exists(), "the temp dir is removed afterwards"


def test_timeout_kills_the_process_group():
    with sandbox.temp_dir() as home:
        done = sandbox.run(["sleep", "30"], cwd=home, home=home, timeout_s=0.5)
    assert done.timed_out and done.duration_s < 10, done


def _fresh_check(monkeypatch) -> None:
    monkeypatch.setattr(sandbox, "_checked", None)
    monkeypatch.setattr(sandbox, "_warned", False)


def test_missing_bubblewrap_is_a_toolchain_error_naming_the_install(monkeypatch):
    from tuner.errors import ToolchainError

    _fresh_check(monkeypatch)
    monkeypatch.delenv("TUNER_SANDBOX", raising=False)
    real_which = shutil.which
    monkeypatch.setattr(
        sandbox.shutil, "which", lambda name, *a, **k: None if name == "bwrap" else real_which(name, *a, **k)
    )
    with pytest.raises(ToolchainError, match="apt-get install bubblewrap"):
        sandbox.check_available()
    with sandbox.temp_dir() as home, pytest.raises(ToolchainError, match="apt-get install bubblewrap"):
        sandbox.run(["true"], cwd=home, home=home, timeout_s=5)


def test_sandbox_none_runs_unjailed_with_one_warning(monkeypatch, capsys):
    _fresh_check(monkeypatch)
    monkeypatch.setenv("TUNER_SANDBOX", "none")
    monkeypatch.setattr(sandbox.shutil, "which", lambda name, *a, **k: None if name == "bwrap" else shutil.which(name))
    with sandbox.temp_dir() as home:
        for _ in range(2):
            assert sandbox.run(["true"], cwd=home, home=home, timeout_s=5).returncode == 0
    assert capsys.readouterr().err.count("WITHOUT the bubblewrap jail") == 1


needs_jail = pytest.mark.skipif(
    shutil.which("bwrap") is None or not sandbox.enabled(), reason="bubblewrap is not installed"
)


def _sh(script: str, *, timeout_s: float = 20, writable=()) -> sandbox.Completed:
    with sandbox.temp_dir() as home:
        return sandbox.run(["sh", "-c", script], cwd=home, home=home, timeout_s=timeout_s, writable=writable)


@needs_jail
def test_jail_user_filesystem_and_network():
    done = _sh(
        "id -u; id -g; echo x > /etc/tuner-jail-probe 2>&1 || echo ro-etc; cat /etc/shadow >/dev/null 2>&1 || echo no-shadow;"
        " echo ok > $HOME/w && cat $HOME/w; ls /tmp | wc -l;"
        " cat /proc/net/dev | grep -c : ; (exec 3<>/dev/tcp/127.0.0.1/22) 2>/dev/null || echo no-net"
    )
    lines = done.stdout.split()
    assert lines[:2] == [str(sandbox.NOBODY)] * 2, done
    assert "ro-etc" in lines and "ok" in lines and "no-net" in lines, done
    if os.geteuid() == 0:
        assert "no-shadow" in lines, done  # the jail's user is nobody on the host too
    assert not Path("/etc/tuner-jail-probe").exists()


@needs_jail
def test_jail_kills_detached_sessions_at_exit():
    seconds = f"{300 + os.getpid() % 1000}.25"  # a unique `sleep` to look for
    done = _sh(
        f"setsid sleep {seconds} & sleep 0.3; grep -l {seconds} /proc/[0-9]*/cmdline >/dev/null && echo seen",
        timeout_s=10,
    )
    assert "seen" in done.stdout, done  # it ran in a new session inside the jail...
    import time

    time.sleep(0.3)
    alive = [p for p in os.listdir("/proc") if p.isdigit() and seconds in _cmdline(p)]
    assert alive == []  # ...and did not outlive it


def _cmdline(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@needs_jail
def test_jail_bounds_the_number_of_processes():
    done = _sh("i=0; while [ $i -lt 2000 ]; do sleep 30 & i=$((i+1)); done 2>&1 | head -1; echo done", timeout_s=30)
    assert "done" in done.stdout and done.duration_s < 30, done
    assert "fork" in (done.stdout + done.stderr).lower(), done  # "Cannot fork" well before 2000


def test_output_is_capped(monkeypatch):
    monkeypatch.setattr(sandbox, "MAX_OUTPUT_BYTES", 1 << 20)
    with sandbox.temp_dir() as home:
        done = sandbox.run(["sh", "-c", "yes xxxxxxxxxxxxxxxx"], cwd=home, home=home, timeout_s=30)
    assert done.overflowed and not done.timed_out and done.returncode is None
    assert len(done.stdout) == 1 << 20 and done.duration_s < 30


ROOT = Path(__file__).resolve().parents[2]


@needs_jail
def test_jail_scratch_is_a_bounded_tmpfs_that_never_reaches_the_disk(monkeypatch):
    monkeypatch.setattr(sandbox, "SCRATCH_BYTES", 32 * 1024 * 1024)
    with sandbox.temp_dir() as root:
        scratch = sandbox.hand_over(root / ".scratch")
        home = scratch / "home"
        script = (
            "echo ok > $HOME/w; i=0; while [ $i -lt 8 ]; do head -c 10485760 /dev/zero > .scratch/f$i || break;"
            " i=$((i+1)); done; echo wrote $i; cat $HOME/w"
        )
        done = sandbox.run(["sh", "-c", script], cwd=root, home=home, timeout_s=20, scratch=scratch)
        assert "No space left on device" in done.stderr, done
        assert "wrote 3" in done.stdout and "ok" in done.stdout, done  # 3 x 10 MB fit in 32 MB; HOME is in it
        assert list(scratch.iterdir()) == []  # nothing of it on the host


@needs_jail
def test_jail_shows_only_the_system_folders_and_what_the_caller_names():
    with sandbox.temp_dir() as root:
        (root / "visible.txt").write_text("seen\n")
        done = sandbox.run(
            [
                "sh",
                "-c",
                f"cat visible.txt; ls {ROOT}/evals 2>&1; ls /work /home /root /opt /srv 2>&1 | head -3;"
                f" touch {ROOT}/probe /probe 2>/dev/null || echo ro-root",
            ],
            cwd=root,
            home=root / "home",
            timeout_s=20,
            writable=[root / "home"],
        )
    assert "seen" in done.stdout, done
    assert f"{ROOT}/evals" in done.stdout and "No such file or directory" in done.stdout, done
    assert "001-fundamentals" not in done.stdout  # the suite's reference answers are not there
    assert "ro-root" in done.stdout, done  # nor can anything be written beside them


def test_orphaned_grading_folders_of_dead_processes_are_removed_on_the_next_start(tmp_path, monkeypatch):
    import subprocess
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(sandbox, "_swept", False)
    dead = subprocess.Popen(["true"])
    dead.wait()
    alive = subprocess.Popen(["sleep", "30"])
    try:
        names = [
            f"tuner-grade-{dead.pid}-x1",
            f"tuner-grade-{dead.pid}-pytest-x2",
            f"tuner-grade-{alive.pid}-x3",
            f"tuner-grade-{os.getpid()}-x4",
            "tuner-grade-nopid",
            f"other-{dead.pid}-x5",
        ]
        for name in names:
            (tmp_path / name / ".scratch").mkdir(parents=True)  # a killed grading leaves its tree
        with sandbox.temp_dir() as fresh:
            assert fresh.name.startswith(f"tuner-grade-{os.getpid()}-")
            left = sorted(p.name for p in tmp_path.iterdir() if p != fresh)
        with sandbox.temp_dir("pytest") as labelled:  # a kind's label goes after the pid the sweep reads
            assert labelled.name.startswith(f"tuner-grade-{os.getpid()}-pytest-")
    finally:
        alive.kill()
        alive.wait()
    assert left == sorted(names[2:])  # only the dead process's folders went
