"""Helpers the session tests import (a module of its own: every test folder's ``conftest`` is
called ``conftest``, so importing from one depends on which was loaded last)."""

from __future__ import annotations


def invoke(*args: str):
    from typer.testing import CliRunner

    from tuner.cli.main import app

    return CliRunner().invoke(app, list(args))


def add_tool_session(store, run_id: str) -> str:
    """Record a generation whose conversation has two user turns and a tool call (the runs the
    simulator makes have one turn); returns its session key."""
    from tuner.store import ResultRecord

    base = store.results(run_id)[0]
    messages = [
        base.messages[0],  # the system prompt, by hash
        {"role": "user", "content": "What is 2 + 2?"},
        {"role": "assistant", "content": "4"},
        {"role": "user", "content": "Look up the weather in Paris, then answer."},
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "call_w1", "type": "function", "function": {"name": "weather", "arguments": {"city": "Paris"}}}]},
        {"role": "tool", "tool_call_id": "call_w1", "content": "{\"temp_c\": 21}"},
    ]
    key = "sha256:" + "ab" * 32
    store.record_result(run_id, ResultRecord(
        eval_id=base.eval_id, category=base.category, sample_index=99, outcome="pass", output="It is 21 °C in Paris.",
        prompt_tokens=120, completion_tokens=9, cost_usd=0.00042, response_key=key, messages=messages,
        response_model="gpt-test"))
    return key
