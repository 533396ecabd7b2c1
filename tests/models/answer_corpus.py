"""Real answer shapes, each with the verdict a careful reader gives (issue 34).

Two evals' reference answers (a Convex one: ``convex/schema.ts`` + ``convex/messages.ts``; a Python
one: ``app/slugify.py``) written the ways real models write code: prose around files, paths in bold,
headings, comments and fence info strings, fence languages, CRLF, reasoning blocks with and without
their opening tag, outer wrappers of three and four backticks, corrections, truncation, extra files,
backslash and project-prefixed paths, several files per fence, tool calls. A verdict is either the
files graded (exactly: path and content) or the failure and a phrase its reason must hold.

Shared by ``test_answer_corpus.py`` and ``benchmarks/bench_answer_corpus.py`` (which also measures
the parser before issue 34 on the same shapes).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_CONVEX_EVAL = ROOT / "evals" / "001-fundamentals" / "001-hello-query" / "answer"
_PY_EVAL = ROOT / "suites" / "python" / "001-text" / "001-slugify" / "answer"

CONVEX = {p: (_CONVEX_EVAL / p).read_text() for p in ("convex/schema.ts", "convex/messages.ts")}
PYTHON = {"app/slugify.py": (_PY_EVAL / "app/slugify.py").read_text()}
CONVEX_KIND = {"extensions": ("ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts", "json"), "roots": ("convex", "src")}
PYTHON_KIND = {"extensions": ("py", "pyi", "json", "toml", "txt", "csv"), "roots": ("app",)}
TRUNCATED = "truncated at the token limit (finish_reason length)"

S, M = CONVEX["convex/schema.ts"], CONVEX["convex/messages.ts"]
P = PYTHON["app/slugify.py"]


@dataclass(frozen=True)
class Shape:
    name: str
    text: str
    kind: dict
    files: dict[str, str] | None = None  # the files graded; None: a failure
    error: str | None = None  # a phrase the failure's reason holds
    reasoning: str | None = None  # a phrase the kept reasoning holds
    warning: str | None = None  # a phrase one of the warnings holds
    finish_reason: str = "stop"
    provider_reasoning: str | None = None  # litellm's reasoning_content
    tool_calls: list[dict] | None = None
    tags: tuple[str, ...] = field(default_factory=tuple)  # "tool": a format the old pipeline did not have


def _fence(body: str, lang: str = "ts", fence: str = "```") -> str:
    return f"{fence}{lang}\n{body.rstrip()}\n{fence}\n"


def _call(path: str, content: str, n: int) -> dict:
    return {"id": f"call_{n}", "name": "write_file", "arguments": json.dumps({"path": path, "content": content})}


def _indent(text: str, n: int) -> str:
    return "".join((" " * n + line) if line.strip() else line for line in text.splitlines(keepends=True))


_REQUESTED = f"# Files\n\n## convex/schema.ts\n\n{_fence(S)}\n## convex/messages.ts\n\n{_fence(M)}"
_DRAFT = "export default defineSchema({ messages: defineTable({ text: v.string() }) });\n"
_BAD_M = M.replace('order("asc")', 'order("desc")')


SHAPES: list[Shape] = [
    Shape("requested format", _REQUESTED, CONVEX_KIND, CONVEX),
    Shape(
        "prose before, between and after",
        "Sure! Here's a complete implementation.\n\nFirst the schema:\n\n"
        f"## convex/schema.ts\n{_fence(S)}\nThe table stores who wrote each message.\n\n## convex/messages.ts\n"
        f"{_fence(M)}\nThis gives you `send` and `list`. Let me know if you need pagination!",
        CONVEX_KIND,
        CONVEX,
    ),
    Shape(
        "bold paths",
        f"**convex/schema.ts**\n\n{_fence(S, 'typescript')}\n**convex/messages.ts**\n\n{_fence(M, 'typescript')}",
        CONVEX_KIND,
        CONVEX,
    ),
    Shape(
        "numbered headings with backticks",
        f"### 1. `convex/schema.ts`\n{_fence(S)}\n### 2. `convex/messages.ts`\n{_fence(M)}",
        CONVEX_KIND,
        CONVEX,
    ),
    Shape(
        "path as a first-line comment",
        "Here you go:\n\n" + _fence("// convex/schema.ts\n" + S) + "\n" + _fence("// File: convex/messages.ts\n" + M),
        CONVEX_KIND,
        CONVEX,
    ),
    Shape(
        "path in the fence info string",
        f'```ts title="convex/schema.ts"\n{S}```\n\n```typescript:convex/messages.ts\n{M}```\n',
        CONVEX_KIND,
        CONVEX,
    ),
    Shape(
        "File: labels and javascript fences",
        f"File: convex/schema.ts\n{_fence(S, 'javascript')}\nFile: convex/messages.ts\n{_fence(M, 'js')}",
        CONVEX_KIND,
        CONVEX,
    ),
    Shape("CRLF line endings", _REQUESTED.replace("\n", "\r\n"), CONVEX_KIND, CONVEX),
    Shape(
        "think block with draft code",
        "<think>\nThe user wants a schema. Draft:\n\n## convex/schema.ts\n"
        f"{_fence(_DRAFT)}\nNo, the table needs author and body.\n</think>\n\n{_REQUESTED}",
        CONVEX_KIND,
        CONVEX,
        reasoning="No, the table needs author and body",
    ),
    Shape(
        "reasoning drafts a file the answer drops",
        "<think>\nMaybe a helper module:\n"
        f"{_fence('// convex/helpers.ts' + chr(10) + 'export const clean = (s: string) => s.trim()')}Not needed.\n</think>\n"
        f"{_REQUESTED}",
        CONVEX_KIND,
        CONVEX,
        reasoning="Maybe a helper module",
    ),
    Shape(
        "think block after a leading newline",
        f"\n\n<think>I will write two files.</think>\n{_REQUESTED}",
        CONVEX_KIND,
        CONVEX,
        reasoning="I will write two files",
    ),
    Shape(
        "reasoning without its opening tag",
        "Okay, the task wants send and list. A first try:\n"
        f"{_fence('// convex/messages.ts' + chr(10) + _BAD_M)}Order must be ascending.\n</think>\n\n{_REQUESTED}",
        CONVEX_KIND,
        CONVEX,
        reasoning="Order must be ascending",
    ),
    Shape(
        "provider reasoning field",
        _REQUESTED,
        CONVEX_KIND,
        CONVEX,
        provider_reasoning="Two tables? No, one.",
        reasoning="Two tables? No, one.",
    ),
    Shape("outer ```markdown wrapper", f"Here is the answer:\n\n```markdown\n{_REQUESTED}```\n", CONVEX_KIND, CONVEX),
    Shape("outer four-backtick wrapper", f"````markdown\n{_REQUESTED}````\n", CONVEX_KIND, CONVEX),
    Shape("outer bare ``` wrapper", f"```\n{_REQUESTED}```", CONVEX_KIND, CONVEX),
    Shape(
        "a correction repeats a file",
        f"## convex/schema.ts\n{_fence(S)}\n## convex/messages.ts\n{_fence(_BAD_M)}\n"
        f"Wait, messages should be oldest first. Corrected:\n\n## convex/messages.ts\n{_fence(M)}",
        CONVEX_KIND,
        CONVEX,
        warning="convex/messages.ts is written 2 times",
    ),
    Shape(
        "truncated mid-file",
        f"## convex/schema.ts\n{_fence(S)}\n## convex/messages.ts\n```ts\n{M[:300]}",
        CONVEX_KIND,
        None,
        error=TRUNCATED,
        finish_reason="length",
    ),
    Shape(
        "an extra package.json and tsconfig.json",
        f"{_REQUESTED}\n## package.json\n"
        + _fence('{\n  "dependencies": { "convex": "^1.17.0" }\n}', "json")
        + "\n## tsconfig.json\n"
        + _fence('{ "compilerOptions": { "strict": true } }', "json"),
        CONVEX_KIND,
        CONVEX,
        warning="package.json",
    ),
    Shape(
        "backslash paths",
        f"## convex\\schema.ts\n{_fence(S)}\n" + _fence("// convex\\messages.ts\n" + M),
        CONVEX_KIND,
        CONVEX,
    ),
    Shape(
        "a project folder on every path",
        f"## my-app/convex/schema.ts\n{_fence(S)}\n## my-app/convex/messages.ts\n{_fence(M)}"
        f"\n## my-app/package.json\n" + _fence('{ "name": "my-app" }', "json"),
        CONVEX_KIND,
        CONVEX,
        warning="my-app/",
    ),
    Shape(
        "several files in one fence",
        _fence(f"// convex/schema.ts\n{S}\n// convex/messages.ts\n{M}"),
        CONVEX_KIND,
        CONVEX,
    ),
    Shape(
        "a prose path above a block that names itself",
        f"## convex/schema.ts\n{_fence(S)}\nNow the functions; they "
        "read the table we defined in convex/schema.ts:\n" + _fence("// convex/messages.ts\n" + M),
        CONVEX_KIND,
        CONVEX,
    ),
    Shape(
        "a closing command block after a path in prose",
        f"{_REQUESTED}\nThen push it; Convex picks up convex/schema.ts:\n```bash\nnpx convex dev\n```\n",
        CONVEX_KIND,
        CONVEX,
    ),
    Shape(
        "a command block between a heading and its file",
        "## convex/schema.ts\nInstall the client first:\n"
        f"```sh\nnpm install convex\n```\n{_fence(S)}\n## convex/messages.ts\n{_fence(M)}",
        CONVEX_KIND,
        CONVEX,
    ),
    Shape(
        "fences indented under list items",
        "1. Create `convex/schema.ts`:\n\n"
        + _indent(_fence(S), 3)
        + "\n2. Create `convex/messages.ts`:\n\n"
        + _indent(_fence(M), 3),
        CONVEX_KIND,
        CONVEX,
    ),
    Shape(
        "tilde fences",
        f"## convex/schema.ts\n~~~ts\n{S}~~~\n## convex/messages.ts\n~~~ts\n{M}~~~\n",
        CONVEX_KIND,
        CONVEX,
    ),
    Shape(
        "a file tree in a text block",
        "Your convex/schema.ts and convex/messages.ts sit side by side:\n"
        "```text\nconvex/\n  schema.ts\n  messages.ts\n```\n\n" + _REQUESTED,
        CONVEX_KIND,
        CONVEX,
    ),
    Shape(
        "a Node.js mention above a block",
        f"## convex/schema.ts\n{_fence(S)}\n## convex/messages.ts\nNo Node.js needed here:\n{_fence(M)}",
        CONVEX_KIND,
        CONVEX,
    ),
    Shape(
        "blocks that name no file",
        f"Here is the code:\n{_fence(S)}\nAnd the functions:\n{_fence(M)}",
        CONVEX_KIND,
        None,
        error="none names its file",
    ),
    Shape(
        "only commands",
        "Run these:\n```bash\nnpm create convex@latest\nnpx convex dev\n```\n",
        CONVEX_KIND,
        None,
        error="only commands or output",
    ),
    Shape(
        "only reasoning, no answer",
        "<think>\nI should define the schema first, then the functions.\n</think>\n",
        CONVEX_KIND,
        None,
        error="only reasoning",
        reasoning="define the schema first",
    ),
    Shape(
        "cut off while reasoning",
        "<think>\nLet me think about the schema. " + "Hmm. " * 50,
        CONVEX_KIND,
        None,
        error=TRUNCATED,
        finish_reason="length",
        reasoning="think about the schema",
    ),
    Shape(
        "a refusal", "I'm sorry, but I can't help with that request.", CONVEX_KIND, None, error="no fenced code blocks"
    ),
    # The Python suite: indentation matters, and its roots are app/.
    Shape("python: requested format", f"# Files\n\n## app/slugify.py\n\n{_fence(P, 'python')}", PYTHON_KIND, PYTHON),
    Shape("python: path comment", _fence("# app/slugify.py\n" + P, "python"), PYTHON_KIND, PYTHON),
    Shape(
        "python: fence indented under a list item",
        "- `app/slugify.py`:\n\n" + _indent(_fence(P, "python"), 4),
        PYTHON_KIND,
        PYTHON,
    ),
    Shape(
        "python: the model's own tests and requirements",
        f"## app/slugify.py\n{_fence(P, 'python')}\n## tests/test_slugify.py\n"
        + _fence("from app.slugify import slugify\n\ndef test_it():\n    assert slugify('A b') == 'a-b'", "python")
        + "\n## requirements.txt\n"
        + _fence("pytest", "text"),
        PYTHON_KIND,
        PYTHON,
        warning="tests/test_slugify.py",
    ),
    Shape(
        "python: the file without its folder", f"## slugify.py\n{_fence(P, 'python')}", PYTHON_KIND, {"slugify.py": P}
    ),
    Shape(
        "python: a correction without the folder",
        f"## app/slugify.py\n{_fence(P.replace('casefold', 'lower'), 'python')}\n"
        f"Better, with casefold:\n\n## slugify.py\n{_fence(P, 'python')}",
        PYTHON_KIND,
        PYTHON,
        warning="read as app/slugify.py",
    ),
    # The tool-call format (issue 34's structured answers): no Markdown to misread.
    Shape(
        "tool: one write_file call",
        "",
        PYTHON_KIND,
        PYTHON,
        tool_calls=[_call("app/slugify.py", P, 1)],
        finish_reason="tool_calls",
        tags=("tool",),
    ),
    Shape(
        "tool: backslash path under a project folder",
        "I'll write the file.",
        PYTHON_KIND,
        PYTHON,
        tool_calls=[_call("proj\\app\\slugify.py", P, 1)],
        finish_reason="tool_calls",
        tags=("tool",),
    ),
    Shape(
        "tool: arguments that are not JSON",
        "",
        PYTHON_KIND,
        None,
        error="not JSON",
        tool_calls=[{"id": "call_1", "name": "write_file", "arguments": '{"path": "app/slugify.py", "content": "imp'}],
        finish_reason="tool_calls",
        tags=("tool",),
    ),
    Shape(
        "tool: cut off in a call",
        "",
        PYTHON_KIND,
        None,
        error=TRUNCATED,
        finish_reason="length",
        tool_calls=[{"id": "call_1", "name": "write_file", "arguments": '{"path": "app/slugify.py", "content": "imp'}],
        tags=("tool",),
    ),
    Shape(
        "tool: reasoning before the call",
        "<think>One file is enough.</think>",
        PYTHON_KIND,
        PYTHON,
        tool_calls=[_call("app/slugify.py", P, 1)],
        finish_reason="tool_calls",
        reasoning="One file is enough",
        tags=("tool",),
    ),
]


def verdict_problems(shape: Shape, out) -> list[str]:
    """What is wrong with a reading ``out`` (files, error, warnings, reasoning) against the verdict."""
    problems = []
    if shape.files is not None:
        if out.error:
            problems.append(f"failed ({out.error}) where the files are unambiguous")
        elif out.files != shape.files:
            problems.append(
                f"graded {sorted(out.files)} where the answer writes {sorted(shape.files)}"
                if set(out.files) != set(shape.files)
                else "graded other contents than the answer wrote"
            )
    else:
        if not out.error:
            problems.append(f"graded {sorted(out.files)} where the verdict is a failure: {shape.error}")
        elif shape.error and shape.error not in out.error:
            problems.append(f"failed with {out.error!r}: the reason should say {shape.error!r}")
    if shape.reasoning and shape.reasoning not in (getattr(out, "reasoning", None) or ""):
        problems.append(f"reasoning {shape.reasoning!r} not kept apart")
    if shape.warning and not any(shape.warning in w for w in getattr(out, "warnings", []) or []):
        problems.append(f"no warning about {shape.warning!r}")
    return problems
