"""The three export formats, checked against what the store recorded."""

from __future__ import annotations

import json
import re

import pytest
from sessionkit import add_tool_session


def _label(store, keys, **change):
    from tuner.sessions import apply_labels, label_change

    apply_labels(store, keys, label_change(**change))


def _golden(store):
    from tuner.sessions import list_sessions, session_filter

    [s] = list_sessions(store, session_filter(model="sim/careful", outcome="pass"), limit=1).items
    _label(store, [s.key], status="golden", add_tags=["b", "a"], expected_output="the reference answer")
    return s


def test_text_format_is_exactly_the_documented_layout(store):
    from tuner.sessions import export_sessions

    s = _golden(store)
    [result] = [r for r in store.results(s.run_id) if r.response_key == s.key]
    user = store.chat_messages(result)[1]["content"]
    text = export_sessions(store, "text").text
    expected = (
        f"## Session: {s.eval_id} · sim/careful · sample {s.sample_index}\n\n"
        f"**User:** {user}\n\n"
        f"**Assistant:** {result.output}\n\n"
        "---\n"
        f"Tokens: {result.prompt_tokens + result.completion_tokens} | Cost: unknown | Model: sim/careful\n"
        "Status: golden | Tags: a, b\n"
    )
    assert text == expected


def test_openai_jsonl_has_the_whole_conversation_in_openai_shape(store):
    from openai.types.chat import ChatCompletionMessageParam
    from pydantic import TypeAdapter

    from tuner.sessions import export_sessions

    s = _golden(store)
    key = add_tool_session(store, s.run_id)
    _label(store, [key], status="correct", add_tags=["tools"])
    lines = export_sessions(store, "openai").text.splitlines()
    assert len(lines) == 2
    convs = [json.loads(line) for line in lines]
    check = TypeAdapter(list[ChatCompletionMessageParam])
    for conv in convs:
        assert set(conv) == {"messages"}
        check.validate_python(conv["messages"])
        for m in conv["messages"]:
            assert m["role"] in ("system", "user", "assistant", "tool")
            for call in m.get("tool_calls", []):
                assert call["type"] == "function" and isinstance(call["function"]["arguments"], str)
                json.loads(call["function"]["arguments"])
    plain, tools = convs
    [result] = [r for r in store.results(s.run_id) if r.response_key == s.key]
    assert plain["messages"] == [*store.chat_messages(result), {"role": "assistant", "content": result.output}]
    assert [m["role"] for m in tools["messages"]] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
    ]
    call = tools["messages"][4]["tool_calls"][0]
    assert call == {
        "id": "call_w1",
        "type": "function",
        "function": {"name": "weather", "arguments": '{"city": "Paris"}'},
    }
    assert tools["messages"][5] == {"role": "tool", "tool_call_id": "call_w1", "content": '{"temp_c": 21}'}
    assert tools["messages"][-1] == {"role": "assistant", "content": "It is 21 °C in Paris."}
    assert tools["messages"][0]["content"] == plain["messages"][0]["content"] != ""  # the prompt text, not its hash


def test_deepeval_json_has_one_case_per_turn_pair(store):
    from tuner.sessions import export_sessions

    s = _golden(store)
    key = add_tool_session(store, s.run_id)
    _label(store, [key], status="correct", expected_output="About 21 °C.")
    cases = json.loads(export_sessions(store, "deepeval").text)
    assert isinstance(cases, list) and len(cases) == 3  # one single-turn session, one with two turns
    for case in cases:
        assert set(case) <= {"input", "actual_output", "expected_output", "context", "retrieval_context"}
        assert isinstance(case["input"], str) and isinstance(case["actual_output"], str)
        assert all(isinstance(c, str) for c in case["context"]) and case["retrieval_context"] == []
    single, first, last = cases
    assert single["expected_output"] == "the reference answer"
    assert len(single["context"]) == 1 and single["context"][0].startswith("system: ")
    assert (first["input"], first["actual_output"]) == ("What is 2 + 2?", "4") and "expected_output" not in first
    assert last["input"] == "Look up the weather in Paris, then answer."
    assert last["actual_output"] == "It is 21 °C in Paris." and last["expected_output"] == "About 21 °C."
    assert last["context"][1:3] == ["user: What is 2 + 2?", "assistant: 4"]
    assert last["context"][3].startswith("assistant:\n[tool calls] ") and '"name": "weather"' in last["context"][3]
    assert last["context"][4] == 'tool (call_w1): {"temp_c": 21}'


def test_text_format_with_tool_calls_and_a_known_cost(store):
    from tuner.sessions import export_sessions

    run = store.runs()[0]
    key = add_tool_session(store, run.id)
    _label(store, [key], status="incorrect")
    text = export_sessions(store, "text").text
    assert re.search(r"\*\*Assistant:\*\* \[tool calls\] weather\(\{\"city\": \"Paris\"\}\)", text)
    assert '**Tool (call_w1):** {"temp_c": 21}' in text
    # No tags: the line ends at the colon (no trailing space).
    assert text.endswith(f"---\nTokens: 129 | Cost: $0.00042 | Model: {run.model}\nStatus: incorrect | Tags:\n")


def test_only_eval_ready_sessions_are_exported_unless_named(store):
    from tuner.sessions import SessionFilter, export_sessions, list_sessions

    assert export_sessions(store, "openai").sessions == 0
    s = list_sessions(store, limit=1).items[0]
    assert export_sessions(store, "openai", SessionFilter(keys=(s.key,))).sessions == 1
    _label(store, [s.key], status="golden", ready=False)
    assert export_sessions(store, "openai").sessions == 0
    _label(store, [s.key], ready=True)
    assert export_sessions(store, "openai").sessions == 1


@pytest.mark.parametrize("fmt", ["deepeval", "openai", "text"])
def test_empty_export_is_valid(store, fmt):
    from tuner.sessions import export_sessions

    out = export_sessions(store, fmt)
    assert out.sessions == 0 and out.text == ("[]\n" if fmt == "deepeval" else "")


def test_an_answer_written_with_write_file_exports_as_its_calls_with_its_reasoning():
    """A tool-format answer (issue 34) ends its turn with its calls; text exports show its reasoning."""
    from tuner.sessions import Conversation, Session
    from tuner.sessions.formats import deepeval_cases, openai_messages, to_text

    calls = [{"id": "c0", "name": "write_file", "arguments": '{"path": "app/a.py", "content": "A = 1\\n"}'}]
    conv = Conversation(
        session=Session(
            key="sha256:" + "1" * 64,
            result_id=1,
            run_id="r",
            model="openai/x",
            eval_id="e",
            category="c",
            sample_index=0,
            outcome="pass",
        ),
        messages=[{"role": "user", "content": "Write A."}, {"role": "assistant", "content": "", "tool_calls": calls}],
        reasoning="One constant.",
        finish_reason="tool_calls",
    )
    [case] = deepeval_cases(conv)
    assert case["input"] == "Write A." and "write_file" in case["actual_output"] and "app/a.py" in case["actual_output"]
    assert openai_messages(conv)[-1]["tool_calls"][0]["function"] == {
        "name": "write_file",
        "arguments": calls[0]["arguments"],
    }
    text = to_text([conv])
    assert text.index("**Reasoning:** One constant.") < text.index("**Assistant:**")
    assert conv.stopped is None and Conversation(**{**conv.model_dump(), "finish_reason": "length"}).stopped.startswith(
        "truncated"
    )
