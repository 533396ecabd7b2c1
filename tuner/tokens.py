"""Offline token counting.

tiktoken downloads its encodings on first use, which fails offline. litellm ships the same encoding
files, so we point tiktoken's cache at litellm's copy, found without importing litellm (its import
costs seconds). Counts are for the ``o200k_base`` encoding: an estimate for models that tokenize
differently, but a stable yardstick for comparing prompt variants.
"""

from __future__ import annotations

import importlib.util
import os
from functools import lru_cache
from pathlib import Path

__all__ = ["count_tokens", "ENCODING"]

ENCODING = "o200k_base"


@lru_cache(maxsize=1)
def _encoding():
    spec = importlib.util.find_spec("litellm")
    if spec is not None and spec.origin and "TIKTOKEN_CACHE_DIR" not in os.environ:
        bundled = Path(spec.origin).parent / "litellm_core_utils" / "tokenizers"
        if bundled.is_dir():
            os.environ["TIKTOKEN_CACHE_DIR"] = str(bundled)
    try:
        import tiktoken

        return tiktoken.get_encoding(ENCODING)
    except Exception:  # pragma: no cover - only without litellm's bundled files
        return None


def count_tokens(text: str) -> int:
    enc = _encoding()
    if enc is None:
        # A rough, deterministic fallback (about four characters a token) rather than no number.
        return max(1, len(text) // 4) if text else 0
    return len(enc.encode(text, disallowed_special=()))
