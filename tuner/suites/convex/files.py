"""The Convex part of the filesystem step: what a Convex answer must hold besides safe paths."""

from __future__ import annotations

import re

__all__ = ["missing_for_grader"]

_GRADER_IMPORT = re.compile(r"""(?:from|import)\s*\(?\s*["']\./((?:convex|src)/[^"']+)["']""")
_SOURCE_EXTENSIONS = ("", ".ts", ".tsx", ".js", ".jsx", ".mts", ".mjs", "/index.ts", "/index.tsx", "/index.js")


def missing_for_grader(grader: str, files: dict[str, str]) -> list[str]:
    """Modules the grader imports (``./convex/schema``, ``./src/client``) that the output lacks."""
    missing = []
    for target in sorted(set(_GRADER_IMPORT.findall(grader))):
        if target.startswith("convex/_generated/"):
            continue
        stem = re.sub(r"\.(js|jsx|mjs)$", "", target)
        if not any(stem + ext in files or target + ext in files for ext in _SOURCE_EXTENSIONS):
            missing.append(f"{target}: missing (the task asks for it and the grader imports it)")
    return missing
