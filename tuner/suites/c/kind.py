"""The C suite kind: C11 functions under ``src/``, graded filesystem → compile → build → tests.

``compile`` checks every answer ``.c`` file with the system gcc and the warnings a careful C
programmer keeps on (``-std=c11 -Wall -Wextra -Werror``); ``build`` compiles the eval's
``test_grader.c`` against the answer's headers and links it with the answer, under AddressSanitizer
and UndefinedBehaviorSanitizer; ``tests`` runs it. Every gcc and every test binary runs in the
grading jail (``tuner.grading.sandbox``), in a build folder of its own per output.
"""

from __future__ import annotations

import functools
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tuner.hashing import sha256_bytes, sha256_json
from tuner.suites.c import steps as _steps
from tuner.suites.c.harness import TEST_SECONDS

__all__ = ["CKind", "OUTPUT_FORMAT", "grader_code", "gcc_version"]

_WORKERS = 2

_C_ONLY = "- C11 with the standard library only; no `main` function (the grader has its own)."
OUTPUT_FORMAT = (
    "Answer format:\n"
    "- Start with a line `# Files`.\n"
    "- For each file, a line `## <path>` (for example `## src/strutil.c`), relative to the project\n"
    "  root, followed by the complete file content in one fenced code block (```c).\n"
    "- Write complete files, not fragments or diffs. Put no prose inside the code blocks.\n"
    f"{_C_ONLY}"
)


class CKind:
    name = "c"
    steps = _steps.STEPS
    grader_file = _steps.GRADER_FILE
    answer_roots = _steps.ROOTS
    answer_extensions = ("c", "h")
    published_name = "c_rules"
    file_globs = "src/**/*.c,src/**/*.h"

    def output_format(self) -> str:
        return OUTPUT_FORMAT

    def tool_format(self) -> str:
        from tuner.models.answers import tool_instructions

        return tool_instructions(self.answer_roots, "src/strutil.c") + "\n" + _C_ONLY

    def grader_id(self, suite) -> str:
        """Everything besides the eval that decides a verdict: the code that grades (this package,
        the sandbox, the filesystem checks, the cache, the result models), gcc's version, the flags
        of each step and the timeouts."""
        return sha256_json({
            "kind": "c",
            "code": {path.name: sha256_bytes(path.read_bytes()) for path in grader_code()},
            "gcc": gcc_version(),
            "flags": {"compile": _steps.COMPILE_FLAGS, "build": _steps.BUILD_FLAGS, "env": _steps.TEST_ENV},
            "timeout_s": _steps.TIMEOUT_S,
            "test_seconds": TEST_SECONDS,
        })

    def grade(self, suite, requests, *, cache_dir: Path, use_cache: bool = True, progress=None,
              timeout_s: float | None = None):
        from tuner.errors import ToolchainError
        from tuner.grading import GradeResult, sandbox
        from tuner.grading.cache import graded_with_cache

        def infrastructure(todo, message: str):
            return [(key, GradeResult.infrastructure(r.eval.id, _steps.STEPS, message)) for key, r in todo.items()]

        try:
            grader_id = self.grader_id(suite)
        except ToolchainError as e:  # no gcc: the grader cannot run, which is never the model's fault
            return [GradeResult.infrastructure(r.eval.id, _steps.STEPS, str(e)) for r in requests]

        def grade_missing(todo):
            try:
                sandbox.check_available()  # here, not earlier: cached verdicts need no jail
            except ToolchainError as e:
                yield from infrastructure(todo, str(e))
                return
            with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
                yield from zip(todo, pool.map(lambda r: _steps.grade_one(r, timeout_s or _steps.TIMEOUT_S), todo.values()))

        return graded_with_cache(requests, grader_id, cache_dir, grade_missing, use_cache=use_cache, progress=progress)


def grader_code() -> list[Path]:
    """The source files whose text can change a C verdict."""
    from tuner.grading import cache, filesystem, models, sandbox

    here = Path(__file__).parent
    return [*sorted(here.glob("*.py")), *(Path(m.__file__) for m in (sandbox, filesystem, cache, models))]


@functools.lru_cache(maxsize=1)
def gcc_version() -> str:
    from tuner.errors import ToolchainError

    try:
        done = subprocess.run(["gcc", "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ToolchainError(f"gcc cannot run ({e}): apt-get install gcc") from e
    if done.returncode != 0 or not done.stdout.strip():
        raise ToolchainError(f"`gcc --version` failed (exit {done.returncode}): apt-get install gcc")
    return done.stdout.splitlines()[0].strip()
