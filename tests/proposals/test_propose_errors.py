"""A provider that echoes the key back in its error: `tuner propose` prints one line, no key, no
traceback, and exits non-zero (it printed a DSPy traceback with the key, twice)."""

from __future__ import annotations

import subprocess
import sys

KEY = "fake-proposer-Kq7Zm2Wp9Xt4"  # no known key shape: only the environment says it is one
AWS = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


def test_propose_with_a_provider_echoing_the_key(py_project, sim_run, server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", AWS)
    sim_run("--guidelines", "none", "--category", "text", "--samples", "2")
    # A real process: what a person sees, tracebacks included (CliRunner would swallow them).
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "tuner.cli.main",
            "propose",
            "--category",
            "text",
            "--proposer",
            "openai/echokey",
            "--api-base",
            server.api_base,
        ],
        cwd=py_project,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert server.echoed and all(KEY in e for e in server.echoed)  # the key really came back
    out = r.stdout + r.stderr
    assert KEY not in out and AWS not in out and "Traceback" not in out, out[-3000:]
    assert r.returncode not in (0, 1), out[-3000:]  # a provider failure, reported, not a crash
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("tuner: error:"), r.stderr
    assert "echokey" in r.stderr  # says which model failed
    assert not list((py_project / "py" / "guidelines" / "rules").rglob("*raise-not-return-none*"))
