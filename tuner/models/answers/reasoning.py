"""Reasoning written into an answer's text, kept apart from the answer.

Reasoning models put their thinking in a ``<think>…</think>`` (or ``<thinking>``) block before the
answer; some providers strip the opening tag, so the text starts with the reasoning and the first
line holding only ``</think>`` ends it; an answer cut off while thinking has an opening tag and no
closing one. Draft code inside reasoning is never the answer's, so it is split off before anything
is read as files. litellm's ``reasoning_content`` (the provider's own field) is reasoning too: the
client keeps both (``tuner.models.client``).
"""

from __future__ import annotations

import re

__all__ = ["split_reasoning", "join_reasoning"]

_TAGS = "think|thinking"
_LEADING = re.compile(rf"\A\s*<({_TAGS})>(.*?)</\1>[ \t]*\r?\n?", re.IGNORECASE | re.DOTALL)
_UNCLOSED = re.compile(rf"\A\s*<({_TAGS})>(.*)\Z", re.IGNORECASE | re.DOTALL)
# Without its opening tag, the closing tag must stand on a line of its own: a tag inside a string
# of the answer's code never ends a reasoning that did not visibly start.
_BARE_CLOSE = re.compile(rf"^[ \t]*</({_TAGS})>[ \t\r]*$\n?", re.IGNORECASE | re.MULTILINE)


def split_reasoning(text: str) -> tuple[str | None, str]:
    """(reasoning or None, the answer without it)."""
    parts: list[str] = []
    rest = text
    while True:
        m = _LEADING.match(rest)
        if m is None:
            break
        parts.append(m.group(2).strip("\r\n"))
        rest = rest[m.end() :]
    if not parts:
        m = _UNCLOSED.match(rest)
        if m is not None and not re.search(rf"</({_TAGS})>", m.group(2), re.IGNORECASE):
            return m.group(2).strip("\r\n") or None, ""
        m = _BARE_CLOSE.search(rest)
        if m is not None and not re.search(rf"<({_TAGS})>", rest[: m.start()], re.IGNORECASE):
            parts.append(rest[: m.start()].strip("\r\n"))
            rest = rest[m.end() :]
    reasoning = "\n\n".join(p for p in parts if p.strip())
    return (reasoning or None), (rest.lstrip("\r\n") if parts else rest)


def join_reasoning(*parts: str | None) -> str | None:
    """Reasoning from several sources (the provider's field, the text's block), in that order."""
    kept = [p.strip("\r\n") for p in parts if p and p.strip()]
    return "\n\n".join(kept) or None
