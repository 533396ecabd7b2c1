"""The published guideline file in the formats people use: Markdown, a Cursor rule, AGENTS.md.

What the files say about their subject comes from the suite: the title is the composed prompt's
own top heading (the template's header), the Cursor globs are the suite kind's answer files.
"""

from __future__ import annotations

__all__ = ["render_markdown_file", "render_cursor_rule", "render_agents_md", "title_of"]


def _provenance(name: str, version: str, prompt_hash: str) -> str:
    return f"<!-- {name} {version} · published by tuner · prompt {prompt_hash} -->"


def title_of(prompt, fallback: str) -> str:
    """The prompt's top heading (``# Convex guidelines`` -> ``Convex guidelines``), else ``fallback``."""
    first = prompt.text.lstrip().split("\n", 1)[0]
    return first[2:].strip() if first.startswith("# ") else fallback


def render_markdown_file(name: str, version: str, prompt) -> str:
    return f"{_provenance(name, version, prompt.hash)}\n\n{prompt.text}"


def render_cursor_rule(name: str, version: str, prompt, *, title: str, globs: str) -> str:
    # Cursor .mdc: YAML front matter (description, globs, alwaysApply) then the rule body.
    return (
        "---\n"
        f"description: {title} ({name} {version}); apply when writing the code these rules are about\n"
        f"globs: {globs}\n"
        "alwaysApply: false\n"
        "---\n\n"
        f"{_provenance(name, version, prompt.hash)}\n\n{prompt.text}"
    )


def render_agents_md(name: str, version: str, prompt, *, title: str) -> str:
    body = prompt.text
    # AGENTS.md is read as a whole by agents: demote our top heading under one section of its own.
    if body.startswith("# "):
        body = body.split("\n", 1)[1].lstrip("\n")
    return f"# AGENTS.md\n\n{_provenance(name, version, prompt.hash)}\n\n## {title} ({version})\n\n" + body.replace(
        "\n## ", "\n### "
    )
