"""Reading a model's answer: its reasoning kept apart, its files, and, when they cannot be had, the
real cause.

``read_answer`` is the one entry point the runner uses (``parse_files`` is its text-only part):

1. the reasoning (the provider's ``reasoning_content`` and any ``<think>`` block, with or without
   its opening tag) is split off and never read as files (``reasoning``);
2. a cut-off answer (``finish_reason`` ``length``) fails with that reason, whatever the files
   read from it (they are kept for people to look at): code cut off mid-file would otherwise fail
   with a syntax error that hides the cause;
3. the files come from ``write_file`` tool calls when there are any (``tools``), else from the
   answer's Markdown (``markdown``), then go through the path rules (``paths``);
4. an answer with no file says why: no code block, no block naming its file, only commands, only
   reasoning, bad tool arguments, paths outside the project.

Everything here decides what is graded, so it is part of the grader identity
(``tuner.evals.Suite.grader_id`` hashes this package): a change re-grades stored answers.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, Field

from tuner.models.answers.markdown import read_markdown
from tuner.models.answers.paths import Written, clean_path, fit_paths
from tuner.models.answers.reasoning import join_reasoning, split_reasoning
from tuner.models.answers.tools import TOOL_NAME, WRITE_FILE, read_calls, tool_instructions

__all__ = [
    "DEFAULT_EXTENSIONS",
    "TRUNCATED",
    "ParsedOutput",
    "parse_files",
    "read_answer",
    "split_reasoning",
    "join_reasoning",
    "stop_reason",
    "WRITE_FILE",
    "TOOL_NAME",
    "tool_instructions",
    "source_files",
]

# File kinds an answer may hold when the caller names none (the shipped kinds' files and config).
# A suite kind passes its own (``SuiteKind.answer_extensions``), so a Go or C kind's files are read.
DEFAULT_EXTENSIONS = (
    "ts",
    "tsx",
    "js",
    "jsx",
    "mjs",
    "cjs",
    "mts",
    "cts",
    "json",
    "py",
    "pyi",
    "toml",
    "yaml",
    "yml",
    "sql",
)
TRUNCATED = "truncated at the token limit (finish_reason length)"
_STOPS = {
    "length": TRUNCATED,
    "content_filter": "stopped by the provider's content filter (finish_reason content_filter)",
}


class ParsedOutput(BaseModel):
    """What an answer yields: files to grade, or the reason there are none to grade."""

    files: dict[str, str] = Field(default_factory=dict)
    error: str | None = None
    warnings: list[str] = Field(default_factory=list)
    reasoning: str | None = None
    answer: str = ""  # the answer's text, as written, without its reasoning


def stop_reason(finish_reason: str | None) -> str | None:
    """Why an answer is incomplete, from the provider's finish reason (None: it is complete)."""
    return _STOPS.get(finish_reason or "")


def source_files() -> list[Path]:
    """The code that reads answers (hashed into the grader identity)."""
    return sorted(Path(__file__).parent.glob("*.py"))


def _why_none(reading, text: str, reasoning: str | None) -> str:
    if not text.strip():
        return "the answer holds only reasoning, no files after it" if reasoning else "the answer is empty"
    if reading.refused:
        return f"every file the answer names is outside the project ({', '.join(reading.refused[:3])})"
    if reading.blocks == 0 and reading.non_code:
        langs = ", ".join(sorted(set(reading.non_code)))
        return f"{len(reading.non_code)} code block(s), only commands or output ({langs}): no file"
    if reading.blocks == 0:
        return "no fenced code blocks in the answer"
    return f"{reading.blocks} code block(s) but none names its file (expected a '## <path>' line before each)"


def parse_files(text: str, extensions: Iterable[str] | None = None, roots: Iterable[str] | None = None) -> ParsedOutput:
    """The files an answer's text names, for files ending in one of ``extensions`` (the suite
    kind's; ``DEFAULT_EXTENSIONS`` when not given), fitted to the kind's answer ``roots`` when given."""
    reasoning, answer = split_reasoning(text)
    reading = read_markdown(answer, tuple(extensions or DEFAULT_EXTENSIONS))
    files, warnings = fit_paths(reading.written, tuple(roots) if roots else None)
    warnings += [f"{u} names no file: left out" for u in reading.unnamed] if files else []
    warnings += [f"{p}: outside the project, left out" for p in reading.refused] if files else []
    out = ParsedOutput(files=files, warnings=warnings, reasoning=reasoning, answer=answer)
    if not files:
        out.error = _why_none(reading, answer, reasoning)
    return out


def _from_calls(calls: list[dict], roots: Iterable[str] | None) -> tuple[dict[str, str], list[str], str | None]:
    written, problems, warnings = read_calls(calls)
    kept, refused = [], []
    for w in written:
        path = clean_path(w.path)
        (refused.append(w.path) if path is None else kept.append(Written(path, w.content, w.seq)))
    files, more = fit_paths(kept, tuple(roots) if roots else None)
    warnings += more + [f"{p}: outside the project, left out" for p in refused]
    if files and problems:
        warnings += problems
        problems = []
    error = None
    if not files:
        error = (
            "; ".join(problems)
            if problems
            else (
                f"every file the answer names is outside the project ({', '.join(refused[:3])})"
                if refused
                else f"no {TOOL_NAME} call writes a file"
            )
        )
    return files, warnings, error


def read_answer(
    text: str,
    *,
    extensions: Iterable[str] | None = None,
    roots: Iterable[str] | None = None,
    reasoning: str | None = None,
    tool_calls: list[dict] | None = None,
    finish_reason: str | None = None,
) -> ParsedOutput:
    """Everything a recorded answer yields (see the module's docstring). ``reasoning``: the
    provider's reasoning field; ``tool_calls``: ``[{id, name, arguments}]`` as the client keeps them."""
    if tool_calls:
        inline, answer = split_reasoning(text or "")
        files, warnings, error = _from_calls(tool_calls, roots)
        out = ParsedOutput(
            files=files, warnings=warnings, error=error, reasoning=join_reasoning(reasoning, inline), answer=answer
        )
    else:
        out = parse_files(text or "", extensions, roots)
        out.reasoning = join_reasoning(reasoning, out.reasoning)
    stopped = stop_reason(finish_reason)
    if stopped:
        out.error = stopped
    return out
