"""The paths an answer names: recognised, normalised, kept inside the project, fitted to the kind's
answer roots.

What a careful reader does with paths, in order (``fit_paths``):

1. ``\\`` is a separator (``convex\\schema.ts`` is ``convex/schema.ts``); ``./`` is dropped; an
   absolute path or one with ``..`` is refused (an answer never writes outside its folder).
2. A file written twice is the last version written (a correction); a warning says so.
3. A common project folder is stripped when *every* file carries it and, without it, files fall
   under the kind's answer roots (``my-app/convex/index.ts`` is ``convex/index.ts``).
4. A file outside the answer roots is left out with a warning (``package.json``, ``README``
   configs, the model's own tests), unless it replaces one the answer writes under a root
   (``schema.ts`` after ``convex/schema.ts``: the same file named without its folder, and the later
   version wins) or nothing at all is under a root (then nothing is left out: the filesystem check
   fails naming the paths, which is the real cause).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Written", "patterns", "clean_path", "fit_paths"]


@dataclass(frozen=True)
class Written:
    """One file as the answer writes it: its path as named, its content, its place in the answer."""

    path: str
    content: str
    seq: int


@lru_cache(maxsize=32)
def patterns(extensions: tuple[str, ...]) -> tuple[re.Pattern, re.Pattern]:
    """(path, first-line comment) patterns for files ending in one of ``extensions``."""
    ext = "(?:" + "|".join(re.escape(e.lstrip(".")) for e in sorted(set(extensions), key=len, reverse=True)) + ")"
    # A separator is / or \ ; a path is not part of a longer word, URL or Windows drive path.
    path = re.compile(rf"(?<![\w/\\.\-])((?:\.[/\\])?(?:[\w.\-@\[\]]+[/\\])*[\w.\-\[\]]+\.{ext})(?![\w/\\])")
    comment = re.compile(
        rf"^\s*(?://|#|/\*|<!--|--|;)\s*(?:file(?:name)?\s*:\s*|path\s*:\s*)?`?([^\s`]+\.{ext})`?\s*(?:\*/|-->)?\s*$",
        re.IGNORECASE,
    )
    return path, comment


def clean_path(raw: str) -> str | None:
    """The path with ``/`` separators and no ``./``; None when it would leave the project."""
    path = raw.strip().strip("`'\"").replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    path = re.sub(r"/{2,}", "/", path)
    if not path or path.startswith("/") or re.match(r"^[A-Za-z]:", path) or ".." in path.split("/"):
        return None
    return path


def _latest(written: Iterable[Written], warnings: list[str]) -> dict[str, Written]:
    out: dict[str, Written] = {}
    times: dict[str, int] = {}
    for w in sorted(written, key=lambda w: w.seq):
        times[w.path] = times.get(w.path, 0) + 1
        out[w.path] = w
    for path, n in times.items():
        if n > 1:
            warnings.append(f"{path} is written {n} times; the last version is graded")
    return out


def _strip_prefix(files: dict[str, Written], roots: tuple[str, ...], warnings: list[str]) -> dict[str, Written]:
    heads = {p.split("/", 1)[0] for p in files}
    if len(heads) != 1 or any("/" not in p for p in files):
        return files
    (head,) = heads
    if head in roots:
        return files
    stripped = {p.split("/", 1)[1]: w for p, w in files.items()}
    if not any(p.split("/", 1)[0] in roots for p in stripped):
        return files
    warnings.append(f"every file is under {head}/: read as the project folder and left out of the paths")
    return {p: Written(p, w.content, w.seq) for p, w in stripped.items()}


def _fit_roots(files: dict[str, Written], roots: tuple[str, ...], warnings: list[str]) -> dict[str, Written]:
    inside = {p: w for p, w in files.items() if p.split("/", 1)[0] in roots}
    if not inside:
        return files  # the filesystem check names the paths: that is the cause
    out = dict(inside)
    ignored = []
    for path, w in sorted(files.items()):
        if path in inside:
            continue
        same = [p for p in inside if p.split("/", 1)[1] == path]
        if len(same) == 1:
            target = same[0]
            if w.seq > out[target].seq:
                out[target] = Written(target, w.content, w.seq)
                warnings.append(
                    f"{path} is read as {target} (written again without its folder; the later version is graded)"
                )
            else:
                warnings.append(f"{path} is read as an earlier version of {target}")
            continue
        ignored.append(path)
    if ignored:
        where = ", ".join(f"{r}/" for r in roots)
        warnings.append(f"left out {len(ignored)} file(s) outside {where}: {', '.join(ignored)}")
    return out


def fit_paths(written: Iterable[Written], roots: tuple[str, ...] | None) -> tuple[dict[str, str], list[str]]:
    """The answer's files ``{path: content}`` in the order written, with the warnings a reader of
    the result needs (see the module's docstring). ``roots`` None: no prefix or root rules."""
    warnings: list[str] = []
    files = _latest(written, warnings)
    if roots:
        files = _fit_roots(_strip_prefix(files, roots, warnings), roots, warnings)
    ordered = sorted(files.values(), key=lambda w: w.seq)
    return {w.path: w.content for w in ordered}, warnings
