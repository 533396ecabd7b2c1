"""Reading files out of an answer written as Markdown (the text answer format).

We ask for ``# Files`` then ``## <path>`` + one fenced block per file (``SuiteKind.output_format``),
and read what models actually write, as a careful reader would. Which path names a block, in
order of precedence:

1. **the block's own path**: in its info string (```` ```ts convex/a.ts ````, ``title="…"``) or
   as a comment on its first line (``// convex/a.ts``, ``# app/x.py``, ``// File: …``); a block
   whose first line names a file may hold several, each starting at such a comment line;
2. **a heading or label line** above it since the previous block: a heading naming a path
   (``## convex/a.ts``, ``### 2. `convex/a.ts` ``), a line that is only a path (``**convex/a.ts**``,
   ```` `convex/a.ts`: ````, ``1. convex/a.ts``) or ``File: convex/a.ts``; a heading without a path
   ends it;
3. **a path mentioned in prose** on the line directly above the block ("…and in
   `convex/messages.ts`:"), only when it has a folder or is quoted, and only for a block whose
   language fits the file (a ```` ```text ```` tree after "your convex/schema.ts" is no file).

Shell, console, output and diff blocks (```` ```bash ````, ```` ```console ````, …) are never files,
and a label above one carries on to the next block. Fences may be indented (list items: the
content is dedented) and use ``~~~``. An answer wrapped in an outer fence (```` ```markdown ````,
a bare ```` ``` ````, or four backticks) is unwrapped: a three-backtick wrapper is closed, to
CommonMark, by its first inner fence, so both readings are made and the one that names more
files is kept. A block left open by a cut-off answer runs to the end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tuner.models.answers.paths import Written, clean_path, patterns

__all__ = ["Reading", "read_markdown", "NON_CODE"]

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_LIST = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_LABEL = re.compile(r"^(?:file(?:name)?|path)\s*:\s*", re.IGNORECASE)
_DECOR = "*_` :"

# Languages whose blocks are commands or their output, never a file of the answer.
NON_CODE = frozenset(
    {
        "bash",
        "sh",
        "shell",
        "zsh",
        "fish",
        "console",
        "terminal",
        "shell-session",
        "shellsession",
        "sh-session",
        "powershell",
        "pwsh",
        "ps1",
        "ps",
        "cmd",
        "bat",
        "batch",
        "output",
        "stdout",
        "stderr",
        "log",
        "logs",
        "diff",
        "patch",
        "udiff",
    }
)
# Languages an outer wrapper is written in.
_WRAPPERS = frozenset({"", "markdown", "md", "mdx", "text", "txt", "plaintext", "plain"})
# Which files a language's block can hold (a language not listed here fits any file). Models mix
# up the ECMAScript dialects (a ```js block for a .ts file), so they fit each other.
_ECMA = {"ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"}
_TEXT = {"txt", "csv", "md"}
_FITS = {
    **dict.fromkeys(("ts", "typescript", "tsx", "js", "javascript", "jsx", "mjs", "cjs", "mts", "cts"), _ECMA),
    **dict.fromkeys(("json", "jsonc", "json5"), {"json"}),
    **dict.fromkeys(("python", "py", "python3"), {"py", "pyi"}),
    **dict.fromkeys(("c", "h", "cpp", "c++"), {"c", "h"}),
    "toml": {"toml"},
    "yaml": {"yaml", "yml"},
    "yml": {"yaml", "yml"},
    "sql": {"sql"},
    "csv": {"csv", "txt"},
    **dict.fromkeys(("text", "txt", "plaintext", "plain"), _TEXT),
    "markdown": {"md"},
    "md": {"md"},
}
_MAX_READINGS = 16  # wrapper readings tried per answer: a bound, not a limit real answers meet


@dataclass
class _Block:
    start: int  # line of the opening fence
    end: int  # line after the closing fence (or the end of the text)
    indent: int
    fence: str
    info: str
    body: list[str]
    closed: bool

    @property
    def lang(self) -> str:
        return _lang(self.info)


def _lang(info: str) -> str:
    """The language of a fence's info string (``ts`` of ``ts title="x"``); "" when it has none."""
    token = re.split(r"[\s:{},]", info.strip().lstrip("{."), maxsplit=1)[0].lower()
    return "" if ("/" in token or "\\" in token or "." in token) else token


@dataclass
class Reading:
    """Files an answer names, and what was read but not written."""

    written: list[Written] = field(default_factory=list)
    blocks: int = 0  # fenced blocks that could hold code
    unnamed: list[str] = field(default_factory=list)  # "a ts block starting 'const x = 1;'"
    non_code: list[str] = field(default_factory=list)  # languages of command/output blocks
    refused: list[str] = field(default_factory=list)  # paths outside the project
    cut_off: bool = False  # the last block was never closed

    def score(self) -> tuple[int, bool]:
        """Which of two readings a careful reader keeps: the one naming more files, then the one
        in which no block is left open (a misread nesting leaves one open)."""
        return len({w.path for w in self.written}), not self.cut_off


def _closes(line: str, block_fence: str) -> bool:
    s = line.strip()
    return bool(s) and set(s) == {block_fence[0]} and len(s) >= len(block_fence)


def _open(line: str) -> re.Match | None:
    m = _FENCE.match(line)
    if m is None or (m.group("fence")[0] == "`" and "`" in m.group("info")):
        return None  # a backtick fence's info holds no backtick (```x``` is inline code)
    return m


def _scan(lines: list[str]) -> list[_Block]:
    """Fenced blocks, read as CommonMark does (a closing fence: the same character, at least as
    long, nothing after it)."""
    blocks, i = [], 0
    while i < len(lines):
        m = _open(lines[i])
        if m is None:
            i += 1
            continue
        fence, indent = m.group("fence"), len(m.group("indent").expandtabs(4))
        j = i + 1
        while j < len(lines) and not _closes(lines[j], fence):
            j += 1
        body = [_dedent(line, indent) for line in lines[i + 1 : j]]
        blocks.append(_Block(i, min(j + 1, len(lines)), indent, fence, m.group("info").strip(), body, j < len(lines)))
        i = j + 1
    return blocks


def _dedent(line: str, indent: int) -> str:
    n = 0
    while n < min(indent, len(line)) and line[n] == " ":
        n += 1
    return line[n:]


def _label(line: str, path_re: re.Pattern) -> tuple[str | None, str]:
    """(path, kind) named by a line outside blocks; kind: "strong" (a heading or a line that is a
    label), "heading" (a heading without a path), "weak" (prose mentioning a path) or ""."""
    text = line.strip()
    if not text:
        return None, ""
    heading = _HEADING.match(text)
    body = heading.group(1) if heading else _LIST.sub("", text)
    bare = _LABEL.sub("", body.strip(_DECOR)).strip(_DECOR)
    bare = re.sub(r"\s*\((?:new|updated|new file|modified|changed)\)$", "", bare, flags=re.IGNORECASE).strip(_DECOR)
    if path_re.fullmatch(bare):
        return bare, "strong"
    if heading:
        found = path_re.search(body)
        return (found.group(1), "strong") if found else (None, "heading")
    found = [m for m in path_re.finditer(text) if _mentioned(text, m)]
    if not found:
        return None, ""
    # "…, then in convex/b.ts:" names the last path it gives; otherwise the first one does.
    pick = (
        found[-1]
        if text.rstrip(_DECOR).endswith(found[-1].group(1)) or len({m.group(1) for m in found}) == 1
        else found[0]
    )
    return pick.group(1), "weak"


def _mentioned(text: str, m: re.Match) -> bool:
    """A prose mention counts when it has a folder or is quoted (`x.ts`, **x.ts**): "Node.js" is no file."""
    path = m.group(1)
    quoted = text[max(0, m.start() - 1) : m.start()] in ("`", "*", '"', "'")
    return quoted or "/" in path or "\\" in path


def _fits(lang: str, path: str) -> bool:
    allowed = _FITS.get(lang)
    return lang == "" or allowed is None or path.rsplit(".", 1)[-1].lower() in allowed


def _own_paths(block: _Block, path_re: re.Pattern, comment_re: re.Pattern) -> list[tuple[str | None, list[str]]]:
    """[(path, content lines)] a block names itself; [(None, body)] when it names none."""
    info = block.info
    in_info = path_re.search(info[len(block.lang) :] if block.lang and info.lower().startswith(block.lang) else info)
    body = block.body
    first = next((k for k, line in enumerate(body) if line.strip()), None)
    comment = comment_re.match(body[first]) if first is not None else None
    if in_info and not comment:
        return [(in_info.group(1), body)]
    if not comment or not path_re.fullmatch(comment.group(1)):
        return [(in_info.group(1) if in_info else None, body)]
    # Named on the first line: each later line that is only a path comment starts another file.
    parts: list[tuple[str | None, list[str]]] = []
    start, path = first, comment.group(1)
    for k in range(first + 1, len(body)):
        m = comment_re.match(body[k])
        if m and path_re.fullmatch(m.group(1)):
            parts.append((path, body[start + 1 : k]))
            start, path = k, m.group(1)
    parts.append((path, body[start + 1 :]))
    if in_info and len(parts) == 1 and clean_path(in_info.group(1)) != clean_path(path):
        return [(in_info.group(1), body)]
    return parts


def _content(lines: list[str]) -> str:
    text = "\n".join(lines).strip("\n")
    return text + "\n" if text else ""


def _has_fences(lines: list[str]) -> bool:
    return any(_open(line) for line in lines)


def _read_lines(lines: list[str], res: tuple[re.Pattern, re.Pattern], seq0: int = 0) -> Reading:
    path_re, comment_re = res
    reading = Reading()
    strong: str | None = None
    prev_end = 0
    seq = seq0
    for block in _scan(lines):
        # Labels since the previous block: the last strong one, and the prose line right above.
        weak = None
        for line in lines[prev_end : block.start]:
            path, kind = _label(line, path_re)
            if kind == "strong":
                strong, weak = path, None
            elif kind == "heading":
                strong, weak = None, None
            elif kind == "weak":
                weak = path
            elif line.strip():
                weak = None
        prev_end = block.end
        lang = block.lang
        if lang in NON_CODE:
            reading.non_code.append(lang)
            continue
        if lang in _WRAPPERS and _has_fences(block.body):
            inner = _read_lines(block.body, res, seq)
            if inner.written:
                _merge(reading, inner)
                seq += len(block.body) + 1
                strong = None
                continue
        reading.blocks += 1
        if not block.closed:
            reading.cut_off = True
        parts = _own_paths(block, path_re, comment_re)
        if parts[0][0] is None:
            label = next((p for p in (strong, weak) if p and _fits(lang, p)), None)
            if label is None and strong is not None and not _fits(lang, strong):
                reading.unnamed.append(_describe(block))
                continue  # a tree or note under the file's heading: the label waits for its block
            parts = [(label, block.body)]
        strong = None
        for raw, body in parts:
            seq += 1
            path = clean_path(raw) if raw else None
            if raw is None:
                reading.unnamed.append(_describe(block))
            elif path is None:
                reading.refused.append(raw)
            else:
                reading.written.append(Written(path, _content(body), seq))
    return reading


def _describe(block: _Block) -> str:
    """A block as a person finds it in the answer: its language and first line."""
    first = next((line.strip() for line in block.body if line.strip()), "")
    first = first if len(first) <= 40 else first[:39] + "…"
    return f"a {block.lang or 'code'} block starting {first!r}" if first else f"an empty {block.lang or 'code'} block"


def _merge(into: Reading, other: Reading) -> None:
    into.written += other.written
    into.blocks += other.blocks
    into.unnamed += other.unnamed
    into.non_code += other.non_code
    into.refused += other.refused
    into.cut_off = into.cut_off or other.cut_off


def _unwrapped(lines: list[str]) -> list[str] | None:
    """The text with its outer three-backtick wrapper taken off, read as a careful reader nests
    fences: the wrapper opens with a wrapper language, inner fences pair up (an opener, then a bare
    closer), and the latest bare fence after which they do closes it. None when there is no such wrapper."""
    opener = next((i for i, line in enumerate(lines) if _open(line)), None)
    if opener is None:
        return None
    m = _open(lines[opener])
    fence, lang = m.group("fence"), _lang(m.group("info"))
    if lang not in _WRAPPERS:
        return None
    fences = [i for i in range(opener + 1, len(lines)) if _open(lines[i]) and lines[i].strip()[0] == fence[0]]
    for close in reversed([i for i in fences if _closes(lines[i], fence)]):
        inner = [i for i in fences if i < close]
        # Inner fences pair up, an opener (any) then a bare closer; at least one pair.
        if not inner or len(inner) % 2 or not all(_closes(lines[i], fence[0] * 3) for i in inner[1::2]):
            continue
        # Bare fences inside a bare or text block nest as well as they follow each other: a
        # markdown wrapper, an inner fence with a language, or fences that open and close the
        # whole text show the reader a wrapper.
        whole = not any(line.strip() for line in lines[:opener]) and not any(
            line.strip() for line in lines[close + 1 :]
        )
        if lang in ("markdown", "md", "mdx") or whole or any(_lang(_open(lines[i]).group("info")) for i in inner[0::2]):
            indent = len(m.group("indent").expandtabs(4))
            return lines[:opener] + [_dedent(line, indent) for line in lines[opener + 1 : close]] + lines[close + 1 :]
    return None


def read_markdown(text: str, extensions: tuple[str, ...]) -> Reading:
    """Every file the answer's Markdown names (before the path rules of ``fit_paths``)."""
    res = patterns(tuple(sorted(extensions)))
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    best = _read_lines(lines, res)
    candidate: list[str] | None = lines
    for _ in range(_MAX_READINGS):
        candidate = _unwrapped(candidate)
        if candidate is None:
            break
        other = _read_lines(candidate, res)
        if other.score() > best.score():
            best = other
    return best
