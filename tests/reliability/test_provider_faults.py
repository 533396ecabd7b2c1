"""A flaky provider must not change a score; a provider that is down leaves a resumable, incomplete run."""

from __future__ import annotations

import json

import pytest
from reliability_helpers import write_panel

pytestmark = [pytest.mark.slow]


def _results(project) -> dict[tuple[str, int], tuple[str, str]]:
    """{(eval, sample): (outcome, output)} of the one run in the store."""
    from tuner.store import Store

    store = Store.open(f"sqlite:///{project / 'experiments' / 'tuner.db'}", create=False)
    try:
        [run] = store.runs()
        return {(r.eval_id, r.sample_index): (r.outcome, r.output) for r in store.results(run.id)}
    finally:
        store.close()


def test_faults_on_30_percent_of_calls_leave_the_scores_of_a_fault_free_run(cli, py_project, provider, tmp_path):
    # Fault-free reference, in its own store.
    write_panel(py_project, "steady", "openai/steady", provider.api_base)
    clean = cli("run", "--panel", "steady", "--samples", "4", "--json", "--db", f"sqlite:///{tmp_path / 'clean.db'}")
    assert clean.exit_code == 0, clean.output
    [expected] = json.loads(clean.stdout)

    provider.fault_rate, provider.timeout_sleep_s = 0.3, 3.0
    write_panel(py_project, "faulty", "openai/faulty", provider.api_base, timeout_s=1)
    r = cli("run", "--panel", "faulty", "--samples", "4", "--json")
    assert r.exit_code == 0, r.output
    [got] = json.loads(r.stdout)
    assert got["status"] == "complete"
    assert got["categories"] == expected["categories"] and got["overall"] == expected["overall"]
    # Every kind of fault happened, and each was retried into the same answer.
    assert set(provider.faults) == {"429", "500", "503", "timeout", "reset", "malformed", "empty", "truncated"}, (
        provider.faults
    )
    faulty_calls = sum(1 for c in provider.calls) - 32  # the clean run's calls
    assert faulty_calls > 32  # 8 bodies × 4 samples, plus the retries
    from tuner.store import Store

    clean_store = Store.open(f"sqlite:///{tmp_path / 'clean.db'}", create=False)
    try:
        [run] = clean_store.runs()
        reference = {(x.eval_id, x.sample_index): (x.outcome, x.output) for x in clean_store.results(run.id)}
    finally:
        clean_store.close()
    assert _results(py_project) == reference  # same outputs, not merely the same rates
    assert 0 < sum(o == "pass" for o, _ in reference.values()) < len(reference)


def test_provider_down_is_a_clear_error_an_incomplete_run_and_resumable(cli, py_project, references):
    import socket

    from reliability_helpers import FakeOpenAI, suite_answer_for

    with socket.socket() as s:  # a port nothing listens on (yet)
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    write_panel(py_project, "p", "openai/steady", f"http://127.0.0.1:{port}/v1", max_retries=1, timeout_s=2)
    r = cli("run", "--panel", "p")
    assert r.exit_code == 4, r.output
    assert "incomplete" in r.stdout and f"cannot reach http://127.0.0.1:{port}/v1" in r.stdout
    errors = [line for line in r.stderr.splitlines() if line.startswith("tuner: error:")]
    assert len(errors) == 1 and "run the same command" in errors[0]
    outcomes = _results(py_project)
    assert len(outcomes) == 8 and {o for o, _ in outcomes.values()} == {"infra"}
    r = cli("runs", "list", "--json")
    assert [x["status"] for x in json.loads(r.stdout)] == ["partial"]

    # The provider is back on the same address: the same command completes the same run.
    server = FakeOpenAI(port)
    server.answer_for = suite_answer_for(references)
    server.start()
    try:
        r = cli("run", "--panel", "p", "--json")
    finally:
        server.stop()
    assert r.exit_code == 0, r.output
    [out] = json.loads(r.stdout)
    assert out["status"] == "complete" and out["overall"]["infra"] == 0
    assert len(server.calls) == 8  # the failed results, and only those, were asked again
    assert [x["status"] for x in json.loads(cli("runs", "list", "--json").stdout)] == ["complete"]
