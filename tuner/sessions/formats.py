"""The three export formats of sessions.

- ``deepeval``: a JSON list, one object per user→assistant turn pair, with ``input``,
  ``actual_output``, ``expected_output`` (last turn only, when the session has one), ``context``
  (the earlier messages as strings) and ``retrieval_context`` (empty): what DeepEval's
  ``EvaluationDataset.add_test_cases_from_json_file`` reads.
- ``openai``: JSON Lines, one ``{"messages": [...]}`` per session, the whole conversation in order
  (system, user, assistant, tool), tool calls in OpenAI's shape.
- ``text``: Markdown-ish plain text for people: ``## Session: <title>``, ``**User:**`` /
  ``**Assistant:**`` turns (the answer's reasoning, when kept, as ``**Reasoning:**`` before it),
  ``---``, then ``Tokens: N | Cost: $X | Model: M`` and ``Status: S | Tags: a, b``.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterable, Iterator

from tuner.errors import InputError
from tuner.sessions.query import Conversation

__all__ = [
    "FORMATS",
    "MEDIA_TYPES",
    "EXTENSIONS",
    "render",
    "render_chunks",
    "deepeval_cases",
    "to_deepeval",
    "to_openai",
    "to_text",
    "openai_messages",
]

FORMATS = ("deepeval", "openai", "text")
MEDIA_TYPES = {"deepeval": "application/json", "openai": "application/jsonl", "text": "text/plain; charset=utf-8"}
EXTENSIONS = {"deepeval": "json", "openai": "jsonl", "text": "txt"}


def render(fmt: str, convs: list[Conversation]) -> str:
    return "".join(render_chunks(fmt, [convs]))


def render_chunks(fmt: str, batches: Iterable[list[Conversation]]) -> Iterator[str]:
    """The export as text pieces, one per batch of conversations: a large export is written (or
    sent) while it is read, never held whole. Joined, the pieces are ``to_<format>(all)``."""
    if fmt not in FORMATS:
        raise InputError(f"format {fmt!r}: must be one of {', '.join(FORMATS)}")
    if fmt == "openai":
        yield from (to_openai(batch) for batch in batches)
        return
    if fmt == "text":
        first = True
        for batch in batches:
            if batch:
                yield ("" if first else "\n") + to_text(batch)
                first = False
        return
    # DeepEval: one JSON list, laid out exactly as json.dumps(cases, indent=2) would.
    started = False
    for batch in batches:
        items = [
            textwrap.indent(json.dumps(c, ensure_ascii=False, indent=2), "  ")
            for conv in batch
            for c in deepeval_cases(conv)
        ]
        if items:
            yield ("[\n" if not started else ",\n") + ",\n".join(items)
            started = True
    yield "\n]\n" if started else "[]\n"


# OpenAI ---------------------------------------------------------------------------------------


def _arguments(value) -> str:
    # OpenAI carries arguments as a JSON *string*; providers and our own records may hold a dict.
    if isinstance(value, str):
        return value
    return json.dumps(value if value is not None else {}, ensure_ascii=False)


def _tool_call(call: dict, index: int, where: str) -> dict:
    fn = call.get("function") if isinstance(call.get("function"), dict) else call
    name = fn.get("name")
    if not name:
        raise InputError(f"{where}: a tool call without a function name")
    return {
        "id": str(call.get("id") or f"call_{index}"),
        "type": "function",
        "function": {"name": str(name), "arguments": _arguments(fn.get("arguments"))},
    }


def openai_messages(conv: Conversation) -> list[dict]:
    """The conversation as OpenAI chat messages (roles system, user, assistant, tool)."""
    where = f"session {conv.session.key}"
    out: list[dict] = []
    pending: list[str] = []  # ids of tool calls not yet answered, to pair tool messages without one
    for m in conv.messages:
        role = m.get("role")
        if role in ("system", "user"):
            out.append({"role": role, "content": m.get("content") or ""})
        elif role == "assistant":
            msg: dict = {"role": "assistant", "content": m.get("content")}
            calls = [_tool_call(c, len(out) * 100 + i, where) for i, c in enumerate(m.get("tool_calls") or [])]
            if calls:
                msg["tool_calls"] = calls
                pending = [c["id"] for c in calls]
            elif msg["content"] is None:
                msg["content"] = ""
            out.append(msg)
        elif role in ("tool", "function"):
            call_id = m.get("tool_call_id") or (pending.pop(0) if pending else None)
            if call_id is None:
                raise InputError(f"{where}: a tool message that answers no tool call")
            if call_id in pending:
                pending.remove(call_id)
            content = m.get("content")
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": str(call_id),
                    "content": content if isinstance(content, str) else json.dumps(content, ensure_ascii=False),
                }
            )
        else:
            raise InputError(f"{where}: unknown message role {role!r}")
    return out


def to_openai(convs: list[Conversation]) -> str:
    return "".join(json.dumps({"messages": openai_messages(c)}, ensure_ascii=False) + "\n" for c in convs)


# DeepEval -------------------------------------------------------------------------------------


def _as_text(m: dict) -> str:
    """One message as a context string: ``role: content`` (tool calls as JSON)."""
    role = m["role"]
    if role == "assistant" and m.get("tool_calls"):
        calls = json.dumps(m["tool_calls"], ensure_ascii=False)
        return "\n".join(
            x for x in (f"assistant: {m['content']}" if m.get("content") else "assistant:", f"[tool calls] {calls}")
        )
    if role == "tool":
        return f"tool ({m['tool_call_id']}): {m.get('content') or ''}"
    content = m.get("content")
    return f"{role}: {content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)}"


def _turns(messages: list[dict]) -> list[tuple[int, int]]:
    """(index of the user message, index of the assistant answer that closes its turn). An answer
    made of tool calls closes its turn when nothing follows it (files written with write_file)."""
    turns, user = [], None
    for i, m in enumerate(messages):
        if m["role"] == "user":
            user = i
        elif m["role"] == "assistant" and user is not None and (not m.get("tool_calls") or i == len(messages) - 1):
            turns.append((user, i))
            user = None
    return turns


def deepeval_cases(conv: Conversation) -> list[dict]:
    """One test case per user→assistant turn pair of the conversation."""
    cases = []
    messages = openai_messages(conv)
    turns = _turns(messages)
    for n, (u, a) in enumerate(turns):
        answer = messages[a]
        output = _as_text(answer).removeprefix("assistant:").lstrip() if answer.get("tool_calls") else _content(answer)
        case = {"input": _content(messages[u]), "actual_output": output}
        if n == len(turns) - 1 and conv.session.label.expected_output is not None:
            case["expected_output"] = conv.session.label.expected_output
        # Everything before the answer except the input itself: earlier turns, the system
        # prompt, and tool calls made while answering.
        case["context"] = [_as_text(m) for i, m in enumerate(messages[:a]) if i != u]
        case["retrieval_context"] = []
        cases.append(case)
    return cases


def to_deepeval(convs: list[Conversation]) -> str:
    return json.dumps([c for conv in convs for c in deepeval_cases(conv)], ensure_ascii=False, indent=2) + "\n"


def _content(m: dict) -> str:
    c = m.get("content")
    return c if isinstance(c, str) else json.dumps(c, ensure_ascii=False)


# Plain text -----------------------------------------------------------------------------------


def _cost(value: float | None) -> str:
    # A simulator or an unpriced model has no known cost: say so rather than print a false $0.
    return "unknown" if value is None else f"${value:.6f}".rstrip("0").rstrip(".") if value else "$0"


def to_text(convs: list[Conversation]) -> str:
    blocks = []
    for conv in convs:
        s = conv.session
        lines = [f"## Session: {s.title}", ""]
        messages = openai_messages(conv)
        for n, m in enumerate(messages):
            if m["role"] == "user":
                lines += [f"**User:** {_content(m)}", ""]
            elif m["role"] == "assistant":
                if n == len(messages) - 1 and conv.reasoning:  # the recorded answer's reasoning, kept apart
                    lines += [f"**Reasoning:** {conv.reasoning}", ""]
                text = m.get("content") or ""
                if m.get("tool_calls"):
                    calls = ", ".join(f"{c['function']['name']}({c['function']['arguments']})" for c in m["tool_calls"])
                    text = (text + "\n" if text else "") + f"[tool calls] {calls}"
                lines += [f"**Assistant:** {text}", ""]
            elif m["role"] == "tool":
                lines += [f"**Tool ({m['tool_call_id']}):** {m['content']}", ""]
        tokens = s.tokens if s.tokens is not None else "unknown"
        cost = _cost(s.cost_usd)
        lines += [
            "---",
            f"Tokens: {tokens} | Cost: {cost} | Model: {s.model}",
            f"Status: {s.label.eval_status} | Tags: {', '.join(s.label.eval_tags)}",
        ]
        blocks.append("\n".join(lines).rstrip() + "\n")
    return "\n".join(blocks)
