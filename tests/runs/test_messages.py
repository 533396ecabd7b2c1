"""What a provider receives is exactly what the documentation says, once, and it is stored."""

from __future__ import annotations

import json

import pytest

pytestmark = [pytest.mark.node, pytest.mark.slow]


def test_provider_receives_the_documented_messages_byte_for_byte(cli, live_project, server, monkeypatch):
    from tuner.evals import load_suite
    from tuner.guidelines import load_guidelines
    from tuner.models import build_messages, user_message
    from tuner.paths import find_project
    from tuner.store import Store

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-local-000000")
    (live_project / "experiments" / "local.toml").write_text(
        f'[[models]]\nmodel = "openai/exact"\napi_base = "{server.api_base}"\nparams = {{ max_tokens = 900 }}\n'
    )
    r = cli("run", "--panel", "local", "--category", "clients", "--json")
    assert r.exit_code == 0, r.output
    [out] = json.loads(r.stdout)

    project = find_project()
    suite = load_suite(project)
    guidelines = load_guidelines(project)
    prompt = guidelines.compose(guidelines.load_set("all-active"))
    bodies = {b["messages"][1]["content"]: b for b in server.bodies["exact"]}
    evals = suite.select(category="clients")
    assert len(server.bodies["exact"]) == len(evals)
    for ev in evals:
        documented = build_messages(prompt.text, user_message(ev.task, suite.kind.output_format()))
        body = bodies[documented[1]["content"]]
        assert body["messages"] == documented  # byte for byte, the format instructions once
        assert body["messages"][1]["content"].count("Answer format:") == 1
        assert body["max_tokens"] == 900

    store = Store.open(project.db_url())
    try:
        results = store.results(out["run"])
        assert results and all(
            r.response_model == "fake-model" and r.finish_reason == "stop" and r.attempts == 1 for r in results
        )
        for r in results:
            assert store.chat_messages(r) == bodies[store.chat_messages(r)[1]["content"]]["messages"]
            assert r.messages[0] == {"role": "system", "prompt_hash": prompt.hash}  # stored once, by hash
    finally:
        store.close()
