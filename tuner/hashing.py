"""Content hashes: the identity of everything that defines a result.

Format: ``sha256:`` followed by 64 lowercase hex digits, over UTF-8 bytes. Structured values are
hashed through canonical JSON (sorted keys, no whitespace, ASCII), so a hash never depends on
dict order, platform or time. ``short()`` gives the 12-digit form used in tables and file names.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

__all__ = ["sha256_text", "sha256_bytes", "sha256_json", "canonical_json", "short"]

PREFIX = "sha256:"


def sha256_bytes(data: bytes) -> str:
    return PREFIX + hashlib.sha256(data).hexdigest()


def sha256_text(text: str) -> str:
    return sha256_bytes(text.encode("utf-8"))


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)


def sha256_json(value: Any) -> str:
    return sha256_text(canonical_json(value))


def short(digest: str, n: int = 12) -> str:
    """``sha256:abcd…`` -> ``abcd…`` cut to n hex digits."""
    return digest.removeprefix(PREFIX)[:n]
