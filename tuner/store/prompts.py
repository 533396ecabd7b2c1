"""Queries over stored prompts (system prompts, stored once per text hash).

Contract (every backend): ``prompt`` returns one prompt as a dict (``NotFoundError`` when unknown);
``prompt_rules`` yields every stored prompt's hash with its rules ``[[rule id, variant, hash], ...]``.
"""

from __future__ import annotations

from collections.abc import Iterator

from sqlalchemy import select

from tuner.errors import NotFoundError
from tuner.store.schema import PromptRow

__all__ = ["prompt", "prompt_rules"]


def prompt(store, prompt_hash: str) -> dict:
    """{hash, set_name, template, rules, tokens, text} of the prompt ``prompt_hash``."""
    with store.reading() as s:
        row = s.get(PromptRow, prompt_hash)
        if row is None:
            raise NotFoundError(f"unknown prompt {prompt_hash}")
        return {
            "hash": row.hash,
            "set_name": row.set_name,
            "template": row.template,
            "rules": row.rules,
            "tokens": row.tokens,
            "text": row.text,
        }


def prompt_rules(store) -> Iterator[tuple[str, list]]:
    """(prompt hash, its rules) for every stored prompt."""
    with store.reading() as s:
        rows = s.execute(select(PromptRow.hash, PromptRow.rules)).all()
    for phash, rules in rows:
        yield phash, rules or []
