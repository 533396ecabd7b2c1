"""The messages sent to every model, and the answer-file rendering the simulator uses.

System message: the composed guidelines, verbatim. User message: the task, then the suite kind's
answer-format instructions (``SuiteKind.output_format``), which ``tuner.models.answers`` reads back
(leniently: models drift). What ``build_messages`` returns is exactly what a provider receives.
"""

from __future__ import annotations

__all__ = ["answer_format", "build_messages", "user_message", "render_files", "fence_language"]

_LANGUAGES = {
    "ts": "ts",
    "tsx": "tsx",
    "js": "js",
    "jsx": "jsx",
    "json": "json",
    "md": "md",
    "py": "python",
    "toml": "toml",
    "yaml": "yaml",
    "yml": "yaml",
}


def answer_format(example_path: str) -> str:
    """The answer-format instructions (what ``parse_files`` reads back), with a suite's example file."""
    fence = fence_language(example_path)
    return (
        "Answer format:\n"
        "- Start with a line `# Files`.\n"
        f"- For each file, a line `## <path>` (for example `## {example_path}`), relative to the project\n"
        f"  root, followed by the complete file content in one fenced code block (```{fence}).\n"
        "- Write complete files, not fragments or diffs. Put no prose inside the code blocks."
    )


def user_message(task_text: str, output_format: str = "") -> str:
    """The task, then the answer format (when the suite asks for one)."""
    task = task_text.strip()
    return f"{task}\n\n{output_format.strip()}\n" if output_format.strip() else f"{task}\n"


def build_messages(system_prompt: str, user: str) -> list[dict[str, str]]:
    """Chat messages for one generation: guidelines as system (when any), ``user`` verbatim."""
    messages = []
    if system_prompt.strip():
        # An empty guideline set is a legitimate baseline; some providers reject empty messages.
        messages.append({"role": "system", "content": system_prompt})
    messages.append({"role": "user", "content": user})
    return messages


def fence_language(path: str) -> str:
    return _LANGUAGES.get(path.rsplit(".", 1)[-1].lower(), "")


def render_files(files: dict[str, str]) -> str:
    """Files in the requested answer format (used by the simulator and in tests)."""
    parts = ["# Files", ""]
    for path in sorted(files):
        body = files[path].rstrip("\n")
        parts += [f"## {path}", "", f"```{fence_language(path)}", body, "```", ""]
    return "\n".join(parts)
