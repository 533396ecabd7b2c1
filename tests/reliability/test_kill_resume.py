"""SIGKILL at seeded random moments, then the same command: nothing lost, duplicated or bought twice.

`tuner run` and `tuner tune` run as subprocesses against the local OpenAI-compatible server and are
killed (SIGKILL, no chance to clean up) at seeded random times once they have started calling the
provider, at least 20 times in all; each is then resumed with the same command until it finishes.
Then: the results equal those of an uninterrupted run (same answers, replayed from a copy of the
response cache), the store passes `tuner store check`, no tuning trial is RUNNING, and the provider
was paid for no call twice, except for calls in flight at a kill (the answer never reached the
cache: a real provider would bill those too).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from reliability_helpers import SUITE, env_for, make_project, write_panel

pytestmark = [pytest.mark.slow]

SEED = 20261123
TUNER = str(
    Path(os.environ.get("VIRTUAL_ENV") or Path(shutil.which("python") or "python").parent.parent) / "bin" / "tuner"
)
IN_FLIGHT_WINDOW_S = 1.0  # an answer sent this long before a kill may not have reached the cache yet


def _tuner_exe() -> str:
    import sys

    candidate = Path(sys.executable).with_name("tuner")
    return str(candidate) if candidate.exists() else TUNER


def _small_suite(dest: Path) -> Path:
    """The Python suite with two evals per category (none held out): a tune finishes in seconds."""
    shutil.copytree(SUITE, dest, ignore=shutil.ignore_patterns("003-*", "004-*", "broken"))
    return dest


class _Killer:
    """Starts a command and kills it at a seeded random moment after its start-up (imports take a
    few seconds; the first attempt measures how long), so kills land in generation, grading and
    recording alike."""

    def __init__(self, server, rng: random.Random):
        self.server, self.rng = server, rng
        self.kills = 0
        self.in_flight = 0  # calls that a kill may have cut between the provider's answer and the cache
        self.startup: float | None = None
        self.t0 = time.monotonic()

    def attempt(self, argv: list[str], env: dict, window_s: float) -> bool:
        """True if the command ended by itself (successfully), False if it was killed."""
        seen = len(self.server.calls)
        started = time.monotonic()
        proc = subprocess.Popen(
            argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
        )
        if self.startup is None:  # learn when the command starts calling the provider
            while proc.poll() is None and len(self.server.calls) == seen and time.monotonic() - started < 120:
                time.sleep(0.01)
            self.startup = time.monotonic() - started
            at = self.startup + self.rng.uniform(0.0, window_s)
        else:
            at = self.rng.uniform(0.7 * self.startup, self.startup + window_s)
        while proc.poll() is None and time.monotonic() - started < at:
            time.sleep(0.01)
        if proc.poll() is not None:
            err = proc.stderr.read().decode()
            proc.stderr.close()
            assert proc.returncode == 0, err
            return True
        os.kill(proc.pid, signal.SIGKILL)
        now = time.monotonic()
        proc.wait()
        proc.stderr.close()
        self.kills += 1
        self.in_flight += sum(
            1 for c in self.server.calls[seen:] if c["answered"] is None or c["answered"] > now - IN_FLIGHT_WINDOW_S
        )
        _reap(proc.pid)
        return False


def _reap(pgid: int) -> None:
    """Grading children of the killed process (its session) go too: a crash would orphan them."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _kill_and_resume(
    killer: _Killer, commands: list[list[str]], env: dict, window_s: float, kills: int, cli
) -> list[list[str]]:
    """Kill each command until it finishes by itself; go on to the next command until ``kills``
    kills have landed; finish each with the same command run once more (in this process: the
    same code, without a second start-up). The commands used."""
    used = []
    for argv in commands:
        used.append(argv)
        while killer.kills < kills and not killer.attempt(argv, env, window_s):
            pass
        done = cli(*argv[1:])
        assert done.exit_code == 0, done.output
        if killer.kills >= kills:
            break
    return used


def _results(db: Path) -> dict:
    """{run id: its results}; every run complete, one result per eval × sample."""
    from tuner.store import Store

    store = Store.open(f"sqlite:///{db}", create=False)
    try:
        out = {}
        for run in store.runs():
            assert run.status == "complete", run
            rows = store.results(run.id)
            keys = [(r.eval_id, r.sample_index) for r in rows]
            assert len(keys) == len(set(keys)) == len(run.eval_ids) * run.samples
            out[run.id] = sorted((r.eval_id, r.sample_index, r.outcome, r.output) for r in rows)
        return out
    finally:
        store.close()


def _check_store(project: Path, env: dict) -> None:
    r = subprocess.run([_tuner_exe(), "store", "check", "--json"], env=env, capture_output=True, text=True, cwd=project)
    report = json.loads(r.stdout)
    assert r.returncode == 0 and report["ok"], report


def _trials(db: Path) -> list[tuple[str, float | None]]:
    import optuna
    from optuna.trial import TrialState

    out = []
    for summary in optuna.get_all_study_summaries(f"sqlite:///{db}"):
        study = optuna.load_study(study_name=summary.study_name, storage=f"sqlite:///{db}")
        assert not study.get_trials(states=(TrialState.RUNNING,)), "a trial was left RUNNING"
        out += sorted((t.user_attrs["selection"], t.value) for t in study.get_trials(states=(TrialState.COMPLETE,)))
    return out


def _cache_entries(project: Path) -> int:
    import diskcache

    with diskcache.Cache(str(project / "experiments" / "cache" / "responses")) as cache:
        return len(cache)


def _replay(project: Path, reference: Path, commands: list[list[str]], monkeypatch, cli) -> None:
    """The same commands, uninterrupted, in a fresh store, answers replayed from a copy of the cache."""
    make_project(reference)
    shutil.copytree(project / "experiments" / "cache" / "responses", reference / "experiments" / "cache" / "responses")
    for panel in (project / "experiments").glob("*.toml"):
        shutil.copy(panel, reference / "experiments" / panel.name)
    monkeypatch.setenv("TUNER_HOME", str(reference))
    monkeypatch.setenv("TUNER_CACHE_DIR", str(reference / "experiments" / "cache"))
    monkeypatch.chdir(reference)
    for argv in commands:
        r = cli(*argv[1:])
        assert r.exit_code == 0, r.output


@pytest.mark.parametrize("job", ["run", "tune"])
def test_sigkill_at_random_moments_then_resume(job, tmp_path, provider, cli, monkeypatch):
    rng = random.Random(f"{SEED}:{job}")
    project = make_project(tmp_path / "proj")
    env = env_for(project)
    if job == "run":  # 12 kills (the tune below: 8 more)
        provider.latency_s = 0.25
        commands = [
            [_tuner_exe(), "run", "--panel", "p", "--samples", str(k), "--guidelines", name]
            # more commands than 12 kills need: on a fast machine (or a warm grading cache) a command
            # often finishes before its kill moment, and the loop stops as soon as the kills landed
            for k in range(2, 9)
            for name in ("all-active", "none")
        ]
        kills, window = 12, 2.5
    else:
        provider.latency_s = 0.02
        env["TUNER_SUITE"] = str(_small_suite(tmp_path / "small-suite"))
        commands = [
            [_tuner_exe(), "tune", "--panel", "p", "--category", "text", "--budget-calls", str(n), "--samples", "1"]
            for n in (100, 150, 200)
        ]
        kills, window = 8, 5.0
    for name in ("TUNER_HOME", "TUNER_SUITE", "TUNER_CACHE_DIR", "OPENAI_API_KEY"):
        monkeypatch.setenv(name, env[name])  # for the commands run in this process
    monkeypatch.delenv("TUNER_DB", raising=False)
    monkeypatch.chdir(project)
    write_panel(project, "p", "openai/steady", provider.api_base, max_retries=2, timeout_s=10, concurrency=2)

    killer = _Killer(provider, rng)
    used = _kill_and_resume(killer, commands, env, window, kills, cli)
    assert killer.kills >= kills, f"only {killer.kills} kills landed"

    paid, cached = len(provider.calls), _cache_entries(project)
    assert cached <= paid <= cached + killer.in_flight, (paid, cached, killer.in_flight)
    for argv in used:  # once finished, the same commands buy nothing
        assert cli(*argv[1:]).exit_code == 0
    assert len(provider.calls) == paid

    _check_store(project, env)
    db = project / "experiments" / "tuner.db"
    trials = _trials(db) if job == "tune" else None
    results = _results(db)
    reference = tmp_path / "reference"
    _replay(project, reference, used, monkeypatch, cli)
    ref_db = reference / "experiments" / "tuner.db"
    assert results == _results(ref_db)
    if job == "tune":
        assert trials == _trials(ref_db)
    print(
        f"{job}: {killer.kills} kills over {len(used)} command(s), {paid} calls paid, {cached} answers cached, "
        f"{killer.in_flight} in flight at a kill"
    )
