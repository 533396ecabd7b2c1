"""The structured answer format: files written through a ``write_file(path, content)`` tool call.

A suite chooses it with ``answer_format = "tool"`` in ``suite.toml``. Every request then offers
the one tool below (litellm function calling, ``tool_choice="auto"``) and the user message says
to call it once per file (``tool_instructions``). A model that answers in text anyway (one
without tools, or one that chose not to call it) is read by the Markdown parser: the fallback.
"""

from __future__ import annotations

import json

from tuner.models.answers.paths import Written

__all__ = ["WRITE_FILE", "TOOL_NAME", "tool_instructions", "read_calls"]

TOOL_NAME = "write_file"
WRITE_FILE = {
    "type": "function",
    "function": {
        "name": TOOL_NAME,
        "description": "Write one file of your answer. Call it once for each file, with the complete file.",
        "parameters": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "The file's path relative to the project root."},
                "content": {"type": "string", "description": "The complete content of the file."},
            },
            "required": ["path", "content"],
            "additionalProperties": False,
        },
    },
}


def tool_instructions(roots: tuple[str, ...], example: str) -> str:
    """The answer-format instructions of the tool format (what ``read_calls`` reads back)."""
    where = " or ".join(f"`{r}/`" for r in roots)
    return (
        "Answer format:\n"
        f"- Write each file of your answer with the `{TOOL_NAME}` tool: `path` relative to the project root,\n"
        f"  under {where} (for example `{example}`), and `content` the complete file.\n"
        "- Call it once per file. Write complete files, not fragments or diffs."
    )


def read_calls(calls: list[dict]) -> tuple[list[Written], list[str], list[str]]:
    """(files written, problems, warnings) from the tool calls of an answer, in call order. A call
    whose arguments are not a JSON object with string ``path`` and ``content`` is a problem of the
    answer (the model's), named by its position."""
    written: list[Written] = []
    problems: list[str] = []
    warnings: list[str] = []
    for n, call in enumerate(calls, 1):
        name = call.get("name")
        if name != TOOL_NAME:
            warnings.append(f"tool call {n} is to '{name}', not {TOOL_NAME}: ignored")
            continue
        raw = call.get("arguments")
        try:
            args = json.loads(raw) if isinstance(raw, str) else raw
        except ValueError as e:
            problems.append(f"{TOOL_NAME} call {n}: its arguments are not JSON ({e.msg} at character {e.pos})")
            continue
        if (
            not isinstance(args, dict)
            or not isinstance(args.get("path"), str)
            or not isinstance(args.get("content"), str)
        ):
            problems.append(f"{TOOL_NAME} call {n}: needs a string 'path' and a string 'content'")
            continue
        written.append(Written(args["path"], args["content"], n))
    return written, problems, warnings
