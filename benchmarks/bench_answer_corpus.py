"""The answer corpus (tests/models/answer_corpus.py) read by today's answer reader and by the parser
before issue 34 (``tuner/models/parser.py`` at ``--old``), as the runner would have used each:
how many real answer shapes each one mis-reads, and how long reading takes.

Run: .venv/bin/python benchmarks/bench_answer_corpus.py [--old REV]
A mis-read is other files graded than the answer writes, a failure where its files are unambiguous,
or a grade where the verdict is a failure (a cut-off answer graded as if whole). Counted apart: a
failure whose reason names another cause, and reasoning lost (the provider's field dropped, or a
<think> block left in the answer).
Tool-call shapes are a format the old pipeline did not have: counted for today's reader only.
Measured (2 cores shared, load ~25): of the corpus's 40 text shapes the parser before issue 34
mis-read 16, failed 3 with a reason naming another cause and lost the reasoning of 4 more; today's
reader gets all 40 (and the 5 tool-call shapes) right. Reading one answer: 0.5 ms today, 0.16 ms
before (nothing beside a model call or a grading step).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "models"))

from answer_corpus import SHAPES, verdict_problems  # noqa: E402

from tuner.models import read_answer  # noqa: E402


def _old_parser(rev: str):
    source = subprocess.run(
        ["git", "show", f"{rev}:tuner/models/parser.py"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    module = types.ModuleType("old_parser")
    module.__dict__["__name__"] = "old_parser"
    exec(compile(source, "old_parser.py", "exec"), module.__dict__)
    return module


def _old_read(old, shape):
    """What the runner recorded before issue 34: the content parsed, the finish reason ignored."""
    out = old.parse_files(shape.text, shape.kind["extensions"])
    # The old client kept no reasoning (a <think> block stayed in the text) and no warnings.
    return types.SimpleNamespace(files=out.files, error=out.error, reasoning=None, warnings=[])


def _new_read(shape):
    return read_answer(
        shape.text,
        extensions=shape.kind["extensions"],
        roots=shape.kind["roots"],
        reasoning=shape.provider_reasoning,
        tool_calls=shape.tool_calls,
        finish_reason=shape.finish_reason,
    )


def _judge(shape, out) -> str:
    """ok | MIS-READ (other files graded, or a failure instead of a grade, or a grade instead of a
    failure) | wrong reason (a failure, as it should be, whose reason names another cause) |
    reasoning lost."""
    problems = verdict_problems(shape, out)
    if any(p.startswith(("graded", "failed (")) for p in problems):
        return "MIS-READ"
    if any(p.startswith("failed with") for p in problems):
        return "wrong reason"
    return "reasoning lost" if any(p.startswith("reasoning") for p in problems) else "ok"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="684eb2d", help="a revision holding the old tuner/models/parser.py")
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    old = _old_parser(args.old)
    text = [s for s in SHAPES if "tool" not in s.tags]
    tools = [s for s in SHAPES if "tool" in s.tags]
    rows = [(shape.name, _judge(shape, _old_read(old, shape)), _judge(shape, _new_read(shape))) for shape in text]
    print(f"{'shape':55} {'old':15} today")
    for name, before, after in rows:
        print(f"{name:55} {before:15} {after}")
    for label, col in (("old parser", 1), ("today", 2)):
        counts = {k: sum(r[col] == k for r in rows) for k in ("ok", "MIS-READ", "wrong reason", "reasoning lost")}
        print(f"{label}: of {len(text)} text shapes " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"tool-call shapes (today only): {len(tools)}, not ok: {sum(_judge(s, _new_read(s)) != 'ok' for s in tools)}")
    for label, fn in (("today", _new_read), ("old", lambda s: _old_read(old, s))):
        start = time.perf_counter()
        for _ in range(args.repeat):
            for shape in text:
                fn(shape)
        per = (time.perf_counter() - start) / (args.repeat * len(text))
        print(f"reading one answer ({label}): {per * 1000:.3f} ms")


if __name__ == "__main__":
    main()
