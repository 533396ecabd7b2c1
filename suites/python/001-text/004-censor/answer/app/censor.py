"""Mask banned words, matching them case- and compatibility-insensitively."""

import re
import unicodedata
from collections.abc import Iterable

_WORD = re.compile(r"\w+")


def _key(word: str) -> str:
    return unicodedata.normalize("NFKC", word).casefold()


def censor(text: str, banned: Iterable[str], mask: str = "*") -> str:
    """``text`` with every banned whole word replaced by ``mask`` characters."""
    if len(mask) != 1:
        raise ValueError(f"mask must be exactly one character, got {mask!r}")
    keys = {_key(word) for word in banned}
    if "" in keys:
        raise ValueError("banned words must not be empty")

    def _mask(match: re.Match[str]) -> str:
        word = match.group(0)
        return mask * len(word) if _key(word) in keys else word

    return _WORD.sub(_mask, text)
