"""Reading files back out of a model's answer.

We ask for ``# Files`` then ``## <path>`` (``convex/x.ts``, ``app/x.py``) + one fenced block per file
(the suite kind's answer format), but accept what models
actually write: ``###`` or ``**path**`` or ```` `path` ```` headings, "File: path" lines, a prose line
naming the file right before the block, the path as a comment on the block's first line, any fence
language tag, ``~~~`` fences, prose anywhere outside blocks, CRLF. Blocks without any file name are
ignored; an answer with no named block is unparseable (``error`` says why) and the runner records it
as a failure of the filesystem step, against the model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from pydantic import BaseModel, Field

__all__ = ["DEFAULT_EXTENSIONS", "ParsedOutput", "parse_files"]

# File kinds an answer may hold when the caller names none (the shipped kinds' files and config).
# A suite kind passes its own (``SuiteKind.answer_extensions``), so a Go or C kind's files are read.
DEFAULT_EXTENSIONS = ("ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts", "json", "py", "pyi", "toml", "yaml", "yml", "sql")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})(.*)$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_LIST = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_LABEL = re.compile(r"^(?:file(?:name)?|path)\s*:\s*", re.IGNORECASE)


@lru_cache(maxsize=16)
def _patterns(extensions: tuple[str, ...]) -> tuple[re.Pattern, re.Pattern]:
    """(path, first-line comment) patterns for files with these extensions."""
    ext = "(?:" + "|".join(re.escape(e.lstrip(".")) for e in sorted(set(extensions), key=len, reverse=True)) + ")"
    path = re.compile(rf"(?<![\w/.\-])((?:\.?/)?(?:[\w.\-@\[\]]+/)*[\w.\-\[\]]+\.{ext})(?![\w/])")
    comment = re.compile(
        rf"^\s*(?://|#|/\*|<!--|--|;)\s*(?:file(?:name)?\s*:\s*|path\s*:\s*)?(\S+\.{ext})\s*(?:\*/|-->)?\s*$",
        re.IGNORECASE,
    )
    return path, comment


class ParsedOutput(BaseModel):
    files: dict[str, str] = Field(default_factory=dict)
    error: str | None = None


def _clean_path(raw: str) -> str | None:
    path = raw.replace("\\", "/").strip()
    while path.startswith("./"):
        path = path[2:]
    if not path or path.startswith("/") or ".." in path.split("/"):
        return None  # never let an answer write outside its folder
    return path


def _heading_path(line: str, path_re: re.Pattern) -> tuple[str | None, bool]:
    """(path, strong). A line that is just a decorated path, or a heading naming one, is strong: it
    names the next block. A prose line naming a file is weak: only if the block follows at once."""
    text = line.strip()
    if not text:
        return None, False
    heading = _HEADING.match(text)
    body = heading.group(1) if heading else _LIST.sub("", text)
    bare = _LABEL.sub("", body.strip("*_` :")).strip("*_` :")
    if path_re.fullmatch(bare):
        return _clean_path(bare), True
    found = path_re.search(body if heading else text)
    if found is None:
        return None, False
    return _clean_path(found.group(1)), bool(heading)


def _read_block(lines: list[str], start: int, fence: str) -> tuple[list[str], int]:
    closing = re.compile(rf"^\s{{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$")
    body = []
    i = start
    while i < len(lines) and not closing.match(lines[i]):
        body.append(lines[i])
        i += 1
    return body, i + 1  # an unclosed block runs to the end (a truncated answer)


def _comment_path(body: list[str], comment_re: re.Pattern) -> str | None:
    first = next((ln for ln in body if ln.strip()), "")
    m = comment_re.match(first)
    return _clean_path(m.group(1)) if m else None


def _drop_comment(body: list[str]) -> list[str]:
    idx = next(i for i, ln in enumerate(body) if ln.strip())
    rest = body[idx + 1 :]
    return rest[1:] if rest and not rest[0].strip() else rest


def parse_files(text: str, extensions: Iterable[str] | None = None) -> ParsedOutput:
    """The files an answer names, for files ending in one of ``extensions`` (the suite kind's;
    ``DEFAULT_EXTENSIONS`` when not given)."""
    path_re, comment_re = _patterns(tuple(sorted(extensions or DEFAULT_EXTENSIONS)))
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    files: dict[str, str] = {}
    pending: str | None = None
    pending_strong = False
    blocks = unnamed = 0
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if fence is None:
            path, strong = _heading_path(lines[i], path_re)
            if path and (strong or not pending_strong):
                pending, pending_strong = path, strong
            elif lines[i].strip() and not pending_strong:
                pending = None  # a weak (prose) name applies only to a block right after it
            i += 1
            continue
        body, i = _read_block(lines, i + 1, fence.group(1))
        blocks += 1
        info_path = path_re.search(fence.group(2))
        in_comment = _comment_path(body, comment_re)
        path = pending or (info_path and _clean_path(info_path.group(1))) or in_comment
        if in_comment and in_comment == path:
            body = _drop_comment(body)
        pending, pending_strong = None, False
        if not path:
            unnamed += 1
            continue
        files[path] = "\n".join(body).strip("\n") + "\n"
    if files:
        return ParsedOutput(files=files)
    if blocks == 0:
        return ParsedOutput(error="no fenced code blocks in the answer")
    return ParsedOutput(error=f"{unnamed} code block(s) but none names its file (expected a '## <path>' line before each)")
