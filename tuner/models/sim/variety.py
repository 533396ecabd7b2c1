"""Answers as varied as a real model's: the same code (planted mistakes included) dressed
differently per sample, so a grading cache cannot flatter a benchmark.

Off by default: the test suite relies on the simulator's repeats (the grading cache keeps it fast).
On with the model parameter ``variety = true`` (a panel entry's ``params``) or ``TUNER_SIM_VARIETY=1``
(which sets that parameter on every ``sim/*`` model, so run ids and the response cache tell the two
apart).

Only comment lines are added (a header per source file, and some before top-level ``export``
statements outside template literals), never inside code: removing the added lines gives back the
unvaried answer exactly (``strip_variety``), so no verdict can change. Names and formatting of code
are left alone for that reason.
"""

from __future__ import annotations

import os
from collections.abc import Callable

__all__ = ["ENV", "PARAM", "enabled", "vary", "strip_variety"]

ENV = "TUNER_SIM_VARIETY"
PARAM = "variety"
_MARK = "·"  # ends every added line: how strip_variety finds them
# The comment marker by file type (Convex's TypeScript, the python and c suites).
_COMMENT = {**dict.fromkeys(("ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts", "c", "h"), "//"), "py": "#"}
_HEADERS = (
    "Convex functions for this task",
    "Backend code as requested",
    "Implementation",
    "Handlers for the app",
    "Server-side logic",
    "Generated for the task",
    "Here is the module",
    "Solution",
)
_NOTES = (
    "exported for the client",
    "see the task",
    "public entry point",
    "kept small on purpose",
    "validated arguments",
    "uses the schema's indexes",
    "returns plain data",
    "handles the happy path first",
)


def enabled(params: dict | None) -> bool:
    value = (params or {}).get(PARAM)
    return value is True or str(value).strip().lower() in ("1", "true", "yes", "on")


def env_enabled() -> bool:
    return os.environ.get(ENV, "").strip().lower() in ("1", "true", "yes", "on")


def vary(files: dict[str, str], draw: Callable[[str], float]) -> dict[str, str]:
    """``files`` with comment lines added, chosen by ``draw(name) -> [0, 1)`` (fixed per sample)."""
    out = {}
    for path in sorted(files):
        text = files[path]
        mark = _COMMENT.get(path.rsplit(".", 1)[-1])
        if mark is None or text.startswith("#!"):
            out[path] = text
            continue
        token = f"{int(draw(f'{path}|token') * 16**8):08x}"
        header = f"{mark} {_HEADERS[int(draw(f'{path}|header') * len(_HEADERS))]} ({token}) {_MARK}"
        lines = [header]
        ticks = 0  # backticks so far: an odd count means the line is inside a template literal
        for n, line in enumerate(text.split("\n")):
            if mark == "//" and line.startswith("export ") and ticks % 2 == 0 and draw(f"{path}|{n}") < 0.5:
                lines.append(f"{mark} {_NOTES[int(draw(f'{path}|{n}|note') * len(_NOTES))]} {_MARK}")
            lines.append(line)
            ticks += line.count("`")
        out[path] = "\n".join(lines)
    return out


def strip_variety(files: dict[str, str]) -> dict[str, str]:
    """The answer without what ``vary`` added."""
    return {
        p: "\n".join(
            line for line in t.split("\n") if not (line.startswith(("// ", "# ")) and line.endswith(f" {_MARK}"))
        )
        for p, t in files.items()
    }
