"""`tune --category` on a local cluster (a scheduler and two workers, separate processes on
127.0.0.1) against the one-machine run: the same runs, results, design points and decision, every
answer bought once; then a worker killed while calls are in flight loses nothing, and re-buys at
most the calls it had in flight, all of them granted by the coordinator's cap.

Provider calls go to the local OpenAI-compatible server (``steady``: an answer that depends on the
request, counted per request body), so what the provider was asked is counted outside tuner.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reliability"))

from reliability_helpers import SUITE, FakeOpenAI, make_project, reference_answers, suite_answer_for, write_panel  # noqa: E402

TUNER = str(Path(sys.executable).with_name("tuner"))
SLOTS = 2  # calls each worker makes at once (--calls): a kill cuts at most this many
# 100 calls: the screening, the regression check and the confirmation all run (decision: withheld).
TUNE = ["tune", "--panel", "p", "--category", "text", "--samples", "1", "--budget-calls", "100", "--json"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def provider():
    server = FakeOpenAI()
    server.answer_for = suite_answer_for(reference_answers())
    server.latency_s = 0.05
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def project(tmp_path_factory, provider) -> Path:
    """A project whose suite (the Python suite, two evals a category, none held out) lives inside
    it, so the suite's path travels to the workers relative to the project."""
    root = make_project(tmp_path_factory.mktemp("cluster") / "proj")
    shutil.copytree(SUITE, root / "suites" / "small", ignore=shutil.ignore_patterns("003-*", "004-*", "broken"))
    write_panel(root, "p", "openai/steady", provider.api_base, max_retries=4, timeout_s=20, concurrency=4)
    return root


def _env(project: Path, cache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("TUNER_DB", "TUNER_CLUSTER")}
    env.update(
        TUNER_HOME=str(project),
        TUNER_SUITE=str(project / "suites" / "small"),
        TUNER_CACHE_DIR=str(project / "experiments" / cache),
        LITELLM_LOCAL_MODEL_COST_MAP="True",
        OPENAI_API_KEY="sk-test-local-000000",
        TUNER_CLUSTER_WAIT_S="120",
    )
    return env


@pytest.fixture(scope="module")
def cluster(project):
    """{"address": ..., "workers": [Popen, Popen]}: one scheduler and two workers, each a process
    (and a session) of its own, each worker with a cache of its own."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    procs = [
        subprocess.Popen(
            [TUNER, "cluster", "scheduler", "--port", address.rsplit(":", 1)[1]],
            env=_env(project, "cache-scheduler"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    ]
    for i in (1, 2):
        procs.append(
            subprocess.Popen(
                [TUNER, "cluster", "worker", address, "--calls", str(SLOTS), "--name", f"w{i}"],
                env=_env(project, f"cache-w{i}"),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
    yield {"address": address, "workers": procs[1:]}
    for p in procs:
        _kill(p)


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the worker and every grader it started
    except ProcessLookupError:
        pass
    proc.wait()


def _tune(project: Path, cache: str, db: str, cluster: str | None = None) -> dict:
    """The tune, in this process (the coordinator: no second start-up of tuner and litellm)."""
    from typer.testing import CliRunner

    from tuner.cli.main import app

    with pytest.MonkeyPatch.context() as mp:
        for k, v in _env(project, cache).items():
            mp.setenv(k, v)
        for k in ("TUNER_DB", "TUNER_CLUSTER"):
            mp.delenv(k, raising=False)
        mp.chdir(project)
        done = CliRunner().invoke(app, [*TUNE, "--db", db] + (["--cluster", cluster] if cluster else []))
    assert done.exit_code == 0, done.output[-3000:]
    return json.loads(done.stdout[done.stdout.index("{") :])


def _recorded(db: str) -> dict:
    """What the store holds, without what differs by design between two stores (times, step
    durations): runs by id with their results, and the design points."""
    from tuner.store import Store

    store = Store.open(db, create=False)
    try:
        runs = {}
        for run in store.runs():
            runs[run.id] = (
                run.status,
                sorted(
                    (
                        r.eval_id,
                        r.sample_index,
                        r.outcome,
                        r.failed_step,
                        r.output,
                        r.tests_passed,
                        r.tests_total,
                        r.grade_key,
                        r.response_key,
                    )
                    for r in store.results(run.id)
                ),
            )
        points = {}
        experiments = {}
        for exp in store.experiments():
            found = store.design_points(exp["id"])
            points[exp["id"]] = sorted(
                (k, p.outcome, p.failed_step, p.response_key, p.grade_key) for k, p in found.items()
            )
            experiments[exp["id"]] = (exp["kind"], exp["status"], sorted(store.experiment_runs(exp["id"])))
        return {"runs": runs, "points": points, "experiments": experiments}
    finally:
        store.close()


def _decision(report: dict, paid: bool = True) -> dict:
    """The tune's report as decided: everything but where it was written and what it spent (and,
    with ``paid`` False, the calls paid per phase, which a lost call retried adds to)."""

    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if paid or k != "new_calls"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip({k: v for k, v in report.items() if k not in ("report", "spent", "plan", "calls")})


@pytest.fixture(scope="module")
def one_machine(project, provider, tmp_path_factory) -> dict:
    seen = len(provider.calls)
    db = f"sqlite:///{tmp_path_factory.mktemp('one') / 'one.db'}"
    report = _tune(project, "cache-one", db)
    bodies = [c["body"] for c in provider.calls[seen:]]
    return {"report": report, "recorded": _recorded(db), "bodies": bodies}


def test_a_grant_is_claimed_once_and_forgotten_with_its_session():
    from tuner.runs.remote import Claims

    ledger = Claims()
    assert ledger.claim("s1-0") and not ledger.claim("s1-0")  # a task run again finds its grant used
    assert ledger.claim("s1-1") and ledger.claim("s2-0")
    assert ledger.was_claimed("s1-1") and not ledger.was_claimed("s1-2")
    assert ledger.forget("s1-") == 2 and ledger.was_claimed("s2-0") and not ledger.was_claimed("s1-0")


def test_a_failure_read_on_a_worker_is_treated_as_it_was_read():
    from tuner.models.failures import Reported, classify, describe, retry_after

    for kind in ("retry", "fail", "fatal"):
        exc = Reported(kind, "RateLimitError (429): slow down", 1.5)
        assert classify(exc) == kind and retry_after(exc) == 1.5 and describe(exc, None, None) == exc.message


def test_paths_travel_relative_to_the_project(tmp_path, monkeypatch):
    from tuner.runs.remote import _here, portable

    (tmp_path / "a" / "guidelines").mkdir(parents=True)
    (tmp_path / "b" / "guidelines").mkdir(parents=True)
    sent = portable(tmp_path / "a" / "suites" / "small", tmp_path / "a")
    assert sent == "@project/suites/small"
    assert portable("/elsewhere/suite", tmp_path / "a") == "/elsewhere/suite"
    monkeypatch.setenv("TUNER_HOME", str(tmp_path / "b"))  # the worker's own copy of the project
    assert _here(sent) == str(tmp_path / "b" / "suites" / "small")
    assert _here("/elsewhere/suite") == "/elsewhere/suite"


@pytest.mark.slow
@pytest.mark.postgres
def test_tune_on_a_cluster_is_the_one_machine_tune(project, provider, cluster, one_machine, pg_url):
    seen = len(provider.calls)
    report = _tune(project, "cache-two", pg_url, cluster["address"])
    bodies = [c["body"] for c in provider.calls[seen:]]

    assert _decision(report) == _decision(one_machine["report"])
    assert _recorded(pg_url) == one_machine["recorded"]
    # The provider was asked exactly what one machine asked it (a body may repeat: samples of one
    # prompt send the same messages), and the cap counted every call.
    assert Counter(bodies) == Counter(one_machine["bodies"])
    assert report["spent"]["calls"] == len(bodies) == one_machine["report"]["spent"]["calls"]
    # Both workers took part (each keeps its own grading cache).
    for i in (1, 2):
        assert any((project / "experiments" / f"cache-w{i}" / "grading").glob("*")), f"worker w{i} graded nothing"


@pytest.mark.slow
def test_a_worker_killed_mid_run_loses_nothing_and_pays_nothing_twice(
    project, provider, cluster, one_machine, tmp_path
):
    provider.latency_s = 0.4  # calls stay in flight long enough for the kill to cut some
    seen = len(provider.calls)
    db = f"sqlite:///{tmp_path / 'killed.db'}"
    argv = [TUNER, *TUNE, "--db", db, "--cluster", cluster["address"]]
    proc = subprocess.Popen(
        argv, env=_env(project, "cache-killed"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 300
        while len(provider.calls) - seen < 8 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert proc.poll() is None, "the command ended before the kill"
        _kill(cluster["workers"][0])
        killed_at = time.monotonic()
        out, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
    provider.latency_s = 0.05
    assert proc.returncode == 0, err[-3000:]
    report = json.loads(out)
    calls = provider.calls[seen:]
    in_flight = sum(
        1 for c in calls if c["arrived"] <= killed_at and (c["answered"] is None or c["answered"] > killed_at - 0.2)
    )

    # Nothing lost: the same store and decision as one machine.
    assert _decision(report, paid=False) == _decision(one_machine["report"], paid=False)
    assert _recorded(db) == one_machine["recorded"]
    # Nothing paid twice but what the dead worker had in flight; every call the provider saw was
    # granted by the cap, which counts a lost call as made (the provider may have seen it).
    bodies = Counter(c["body"] for c in calls)
    reference = Counter(one_machine["bodies"])
    bought_again = sum((bodies - reference).values())
    assert not reference - bodies  # every call one machine made was made
    bodies = list(bodies.elements())
    assert bought_again <= min(SLOTS, in_flight), (bought_again, in_flight)
    assert len(bodies) <= report["spent"]["calls"] <= len(bodies) + SLOTS
    # Done: the same command buys nothing more.
    again = _tune(project, "cache-killed", db, cluster["address"])
    assert len(provider.calls) == seen + len(bodies) and again["spent"]["calls"] == 0
    print(
        f"kill: {len(bodies)} calls, {bought_again} bought again, {in_flight} in flight, "
        f"spent {report['spent']['calls']}"
    )
