"""The repair loop against a real provider's wire format: the local OpenAI-compatible server
(tests/models/fake_openai.py) answers wrongly at the first turn and, shown the error, repairs at the
second; the feedback it receives holds no secret and no host path."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

SECRET = "sk-test-local-0123456789abcdef"

pytestmark = pytest.mark.slow


@pytest.fixture
def repair_project(scripted_suite, monkeypatch, server) -> Path:
    suite, root = scripted_suite, scripted_suite.parents[1]
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)

    from tuner.evals import load_suite
    from tuner.models import render_files

    evals = load_suite(suite).evals

    def reply(request: dict) -> dict:
        task = next(m["content"] for m in request["messages"] if m["role"] == "user")
        ev = max((e for e in evals if e.task.strip() in task), key=lambda e: len(e.task))
        files = ev.answer_files()
        if sum(1 for m in request["messages"] if m["role"] == "assistant") == 0:
            # A first answer that fails its tests with an error naming a key and this machine's folders.
            path = next(iter(files))
            name = re.findall(r"^def ([a-z]\w*)\(", files[path], re.M)[0]
            broken = f'\n\ndef {name}(*args, **kwargs):\n    raise RuntimeError("key {SECRET} in {root}/app and {Path.home()}/x")\n'
            files = {**files, path: files[path] + broken}
        return {"content": render_files(files)}

    server.script = reply
    return root


def test_a_failed_first_turn_is_repaired_at_the_second(cli, repair_project, server, tmp_path):
    r = cli("run", "-g", "none", "--panel", "local", "--category", "text", "--turns", "2", "--json")
    assert r.exit_code == 0, r.output
    [out] = json.loads(r.stdout)
    by_turn = out["repair"]["by_turn"]
    n = by_turn["1"]["answers"]
    assert n >= 2 and by_turn["1"]["overall"]["pass"] == 0 and by_turn["2"]["overall"]["pass"] == n
    assert by_turn["2"]["provider_calls"] == n and out["calls"]["provider_calls"] == 2 * n

    bodies = server.bodies["scripted"]
    second = [b for b in bodies if any(m["role"] == "assistant" for m in b["messages"])]
    assert len(second) == n
    for body in second:
        roles = [m["role"] for m in body["messages"]]
        assert roles[-3:] == ["user", "assistant", "user"]
        feedback = body["messages"][-1]["content"]
        assert "failed the `" in feedback and "RuntimeError" in feedback
        for leaked in (SECRET, str(tmp_path), str(Path.home())):
            assert leaked not in feedback

    from tuner.runs import Harness

    with Harness() as h:
        results = h.store.results(out["run"])
    assert {x.pass_turn for x in results} == {2}
    assert all(x.turns[0]["outcome"] == "fail" and x.turns[1]["outcome"] == "pass" for x in results)
    assert SECRET not in json.dumps(
        [x.model_dump(mode="json", exclude={"output", "files", "messages"}) for x in results]
    )


def test_a_turn_lost_to_the_provider_is_not_measured(cli, repair_project, server):
    first = server.script

    def reply(request: dict) -> dict:
        if any(m["role"] == "assistant" for m in request["messages"]):
            raise ConnectionError("the provider went away")  # the server answers 500
        return first(request)

    server.script = reply
    r = cli("run", "-g", "none", "--panel", "local", "--category", "text", "--turns", "2", "--json")
    assert r.exit_code == 4, r.output  # incomplete: the lost turn is retried by the same command
    [out] = json.loads(r.stdout)
    by_turn = out["repair"]["by_turn"]
    n = by_turn["1"]["answers"]
    assert by_turn["1"]["overall"]["fail"] == n  # turn 1 stays measured
    assert by_turn["2"]["overall"]["infra"] == n and by_turn["2"]["overall"]["fail"] == 0  # not a failed repair
    assert by_turn["2"]["overall"]["pass_rate"] is None
