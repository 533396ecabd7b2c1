"""The published guideline file in the formats people use: Markdown, a Cursor rule, AGENTS.md."""

from __future__ import annotations

__all__ = ["render_markdown_file", "render_cursor_rule", "render_agents_md"]

_GLOBS = "convex/**/*.ts,convex/**/*.tsx,src/**/*.ts,src/**/*.tsx"


def _provenance(name: str, version: str, prompt_hash: str) -> str:
    return f"<!-- {name} {version} · published by tuner · prompt {prompt_hash} -->"


def render_markdown_file(name: str, version: str, prompt) -> str:
    return f"{_provenance(name, version, prompt.hash)}\n\n{prompt.text}"


def render_cursor_rule(name: str, version: str, prompt) -> str:
    # Cursor .mdc: YAML front matter (description, globs, alwaysApply) then the rule body.
    return (
        "---\n"
        f"description: Convex coding guidelines ({name} {version}); apply when writing Convex functions, schema or clients\n"
        f"globs: {_GLOBS}\n"
        "alwaysApply: false\n"
        "---\n\n"
        f"{_provenance(name, version, prompt.hash)}\n\n{prompt.text}"
    )


def render_agents_md(name: str, version: str, prompt) -> str:
    body = prompt.text
    # AGENTS.md is read as a whole by agents: demote our top heading under one section of its own.
    if body.startswith("# "):
        body = body.split("\n", 1)[1].lstrip("\n")
    return f"# AGENTS.md\n\n{_provenance(name, version, prompt.hash)}\n\n## Convex guidelines ({version})\n\n" + body.replace("\n## ", "\n### ")
