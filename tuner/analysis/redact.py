"""Keeping credentials out of what we write: an analyst may echo what it was sent or saw."""

from __future__ import annotations

import os
import re

__all__ = ["redact", "redact_tree"]

_SECRET_NAME = re.compile(r"(?i)(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)$")
_PATTERNS = [
    (re.compile(r"sk-[A-Za-z0-9_\-]{6,}"), "sk-***"),
    (re.compile(r"(?i)bearer\s+[A-Za-z0-9_\-.=:/+]{6,}"), "Bearer ***"),
    (re.compile(r"AIza[0-9A-Za-z_\-]{20,}"), "AIza***"),
]


def _env_secrets() -> list[str]:
    values = {v for k, v in os.environ.items() if _SECRET_NAME.search(k) and len(v) >= 8}
    return sorted(values, key=len, reverse=True)


def redact(text: str, secrets: list[str] | None = None) -> str:
    """``text`` with the values of credential-like environment variables and key-shaped strings masked."""
    for value in _env_secrets() if secrets is None else secrets:
        text = text.replace(value, "***")
    for pattern, repl in _PATTERNS:
        text = pattern.sub(repl, text)
    return text


def redact_tree(value, secrets: list[str] | None = None):
    """The same for every string inside a JSON-like value."""
    secrets = _env_secrets() if secrets is None else secrets
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, list):
        return [redact_tree(v, secrets) for v in value]
    if isinstance(value, dict):
        return {k: redact_tree(v, secrets) for k, v in value.items()}
    return value
