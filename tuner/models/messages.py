"""The prompt sent to every model and the answer format it asks for.

System message: the composed guidelines, verbatim. User message: the task, then fixed instructions
for the output format, which ``tuner.models.parser`` reads back (leniently: models drift).
"""

from __future__ import annotations

__all__ = ["OUTPUT_FORMAT", "build_messages", "render_files", "fence_language"]

OUTPUT_FORMAT = """\
Answer format:
- Start with a line `# Files`.
- For each file, a line `## <path>` (for example `## convex/schema.ts`), relative to the project
  root, followed by the complete file content in one fenced code block (```ts).
- Write complete files, not fragments or diffs. Put no prose inside the code blocks."""

_LANGUAGES = {"ts": "ts", "tsx": "tsx", "js": "js", "jsx": "jsx", "json": "json", "md": "md"}


def build_messages(system_prompt: str, task_text: str) -> list[dict[str, str]]:
    """Chat messages for one generation: guidelines as system, task + format as user."""
    user = f"{task_text.strip()}\n\n{OUTPUT_FORMAT}\n"
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
