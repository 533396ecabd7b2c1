"""A minimal reader of the eval suite, just what the simulator needs.

Each eval is a folder ``<suite>/NNN-category/NNN-name/`` with ``TASK.txt`` and reference files under
``answer/``. The simulator recognises the eval from the task text inside the user message and
starts from the reference answer. (The full suite model is ``tuner.evals``; this stays independent
so the simulator and ``truth`` work without it.)
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

__all__ = ["SimEval", "load_suite", "find_eval", "category_of"]

_CATEGORY = re.compile(r"^\d+-(.+)$")


@dataclass(frozen=True)
class SimEval:
    id: str  # "001-fundamentals/002-internal-functions"
    category: str  # "fundamentals"
    task: str
    answer: dict[str, str] = field(hash=False)  # "convex/x.ts" -> text


def category_of(folder_name: str) -> str:
    m = _CATEGORY.match(folder_name)
    return m.group(1) if m else folder_name


def _read_answer(folder: Path) -> dict[str, str]:
    files = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            rel = path.relative_to(folder).as_posix()
            files[rel] = path.read_text(encoding="utf-8").replace("\r\n", "\n")
    return files


def _suite_stamp(evals: Path) -> tuple:
    # The folder mtimes change when evals are added or removed; cheap to stat per call.
    try:
        return (evals.stat().st_mtime_ns, *(d.stat().st_mtime_ns for d in sorted(evals.iterdir()) if d.is_dir()))
    except OSError:
        return ()


_RECHECK_S = 2.0  # how stale the view of the suite folders may get, to avoid stat()s per call
_checked: dict[str, tuple[float, tuple]] = {}


def load_suite(suite_root: Path) -> tuple[SimEval, ...]:
    evals = Path(suite_root)
    now = time.monotonic()
    seen = _checked.get(str(evals))
    if seen is None or now - seen[0] > _RECHECK_S:
        seen = (now, _suite_stamp(evals))
        _checked[str(evals)] = seen
    return _load(str(evals), seen[1])


@lru_cache(maxsize=8)
def _load(evals_dir: str, _stamp: tuple) -> tuple[SimEval, ...]:
    out = []
    for task in sorted(Path(evals_dir).glob("[0-9]*/[0-9]*/TASK.txt")):
        folder = task.parent
        answer = folder / "answer"
        if not answer.is_dir():
            continue
        out.append(
            SimEval(
                id=f"{folder.parent.name}/{folder.name}",
                category=category_of(folder.parent.name),
                task=task.read_text(encoding="utf-8").replace("\r\n", "\n").strip(),
                answer=_read_answer(answer),
            )
        )
    return tuple(out)


def find_eval(suite: tuple[SimEval, ...], user_message: str) -> SimEval | None:
    """The eval whose task text the message contains (the longest, if tasks nest)."""
    text = user_message.replace("\r\n", "\n")
    hits = [e for e in suite if e.task and e.task in text]
    return max(hits, key=lambda e: len(e.task), default=None)
