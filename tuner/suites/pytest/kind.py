"""The pytest suite kind: Python answers under ``app/``, graded filesystem → syntax → tests.

Each eval's ``test_grader.py`` imports the answer (``from app.slug import slugify``) and runs under
pytest in its own temporary folder, through the same sandbox as every kind's tools (scrubbed
environment, its own HOME, a timeout that kills the whole process group). A test run that hangs
past the timeout is the answer's failure (code that never returns), recorded on the tests step.
"""

from __future__ import annotations

import functools
import os
import re
import secrets
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tuner.hashing import sha256_bytes, sha256_json
from tuner.models.answers import tool_instructions
from tuner.models.messages import answer_format

__all__ = ["PytestKind", "OUTPUT_FORMAT", "grader_code"]

STEPS = ("filesystem", "syntax", "tests")
_GRADER_IMPORT = re.compile(r"^\s*(?:from\s+(app(?:\.\w+)+)\s+import|import\s+(app(?:\.\w+)+))", re.MULTILINE)
TIMEOUT_S = 60.0
_WORKERS = 2

OUTPUT_FORMAT = answer_format("app/slug.py")
# The pytest plugin that reports to the host (``-p tuner_pytest_report``), on the jail's PYTHONPATH.
_PLUGIN_DIR = Path(__file__).parent / "pytest_plugin"
_PLUGIN = "tuner_pytest_report"


class PytestKind:
    name = "pytest"
    steps = STEPS
    grader_file = "test_grader.py"
    answer_roots = ("app",)
    answer_extensions = ("py", "pyi", "json", "toml", "txt", "csv")
    published_name = "python_rules"
    file_globs = "app/**/*.py"

    def output_format(self) -> str:
        return OUTPUT_FORMAT

    def tool_format(self) -> str:
        return tool_instructions(self.answer_roots, "app/slug.py")

    def generated_paths(self, files: dict[str, str]) -> list[str]:
        """Python's bytecode caches: an answer folder someone ran holds them, and the answer did not write them."""
        return sorted(p for p in files if "__pycache__" in p.split("/"))

    def grader_id(self, suite) -> str:
        """Everything that decides a verdict besides the eval: the code that runs (this module,
        the plugin, the sandbox, the filesystem checks, the cache, the result models), the
        interpreter and pytest versions, the timeout and the jail's limits."""
        from tuner.grading.sandbox import check_reachable

        python, versions = interpreter()
        check_reachable([_PLUGIN_DIR, *_python_paths(python)], "the pytest grader's code")
        return sha256_json({
            "kind": "pytest",
            "code": {path.name: sha256_bytes(path.read_bytes()) for path in grader_code()},
            "python+pytest": versions,
            "timeout_s": TIMEOUT_S,
        })

    def grade(self, suite, requests, *, cache_dir: Path, use_cache: bool = True, progress=None, timeout_s: float | None = None):
        from tuner.errors import JailAccessError, ToolchainError
        from tuner.grading import GradeResult, graded_with_cache

        try:
            grader_id = self.grader_id(suite)
        except JailAccessError:
            raise  # refused up front, with what to do
        except ToolchainError as e:  # the grader cannot run at all: infrastructure, never the model's
            return [GradeResult.infrastructure(r.eval.id, STEPS, str(e)) for r in requests]

        def grade_missing(todo):
            with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
                yield from zip(todo, pool.map(lambda r: _grade_one(r, timeout_s or TIMEOUT_S), todo.values()))

        return graded_with_cache(requests, grader_id, cache_dir, grade_missing, use_cache=use_cache, progress=progress)


def _grade_one(request, timeout_s: float):
    from tuner.grading import GradeResult, StepResult, check_files, sandbox, step_detail, write_files

    steps: dict[str, StepResult] = {}
    start = time.monotonic()
    problems = check_files(request.files, request.symlinks, roots=PytestKind.answer_roots) or _missing_modules(request)
    steps["filesystem"] = StepResult(name="filesystem", status="fail" if problems else "pass",
                                     detail=step_detail(problems), duration_s=round(time.monotonic() - start, 3))
    if not problems:
        start = time.monotonic()
        problems = _syntax_problems(request.files)
        steps["syntax"] = StepResult(name="syntax", status="fail" if problems else "pass",
                                     detail=step_detail(problems), duration_s=round(time.monotonic() - start, 3))
    passed = total = 0
    infra = None
    if not problems:
        with sandbox.temp_dir("pytest") as root:
            home = sandbox.hand_over(root / ".home")
            project = root / "p"
            write_files(project, request.files)
            (project / "test_grader.py").write_text(request.eval.grader, encoding="utf-8")
            steps["tests"], passed, total, infra = _run_pytest(sandbox, project, home, timeout_s)
    ordered = [steps.get(n) or StepResult(name=n, status="skip") for n in STEPS]
    return GradeResult(eval_id=request.eval.id, passed=all(s.status == "pass" for s in ordered), steps=ordered,
                       tests_passed=passed, tests_total=total, infra_error=infra)


def grader_code() -> list[Path]:
    """The source files whose text can change a pytest verdict."""
    from tuner.grading import cache, filesystem, models, output, sandbox

    return [Path(__file__), _PLUGIN_DIR / f"{_PLUGIN}.py",
            *(Path(m.__file__) for m in (sandbox, filesystem, cache, output, models))]


@functools.lru_cache(maxsize=1)
def interpreter() -> tuple[str, str]:
    """(python, "python X / pytest Y") that runs graders: this process's Python, unless the jail's
    unprivileged user cannot run it (a Python under /root, as pyenv installs it for root); then
    the system's ``python3`` (Debian: ``apt-get install python3-pytest``)."""
    from tuner.errors import ToolchainError
    from tuner.grading import sandbox

    jailed_as_nobody = sandbox.enabled() and os.geteuid() == 0
    candidates = [sys.executable] + (["/usr/bin/python3"] if jailed_as_nobody else [])
    for python in candidates:
        if jailed_as_nobody and not _world_runnable(python):
            continue
        try:
            done = subprocess.run([python, "-c", "import sys, pytest; print(sys.version.split()[0], pytest.__version__)"],
                                  capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0:
            version, pytest_version = done.stdout.split()
            return python, f"python {version} / pytest {pytest_version}"
    raise ToolchainError("no Python with pytest that the grading jail's user can run: "
                         "apt-get install python3-pytest (or run with TUNER_SANDBOX=none)")


def _world_runnable(python: str) -> bool:
    """Every folder up to the real interpreter is searchable, and it is executable, by anyone."""
    real = Path(python).resolve()
    return real.is_file() and all(os.stat(p).st_mode & 0o001 for p in [real, *real.parents])


def _missing_modules(request) -> list[str]:
    """Modules the grader imports (``from app.lru import ...``) that the output lacks."""
    wanted = {m for pair in _GRADER_IMPORT.findall(request.eval.grader) for m in pair if m}
    missing = []
    for module in sorted(wanted):
        path = module.replace(".", "/")
        if f"{path}.py" not in request.files and f"{path}/__init__.py" not in request.files:
            missing.append(f"{path}.py: missing (the grader imports {module})")
    return missing


def _syntax_problems(files: dict[str, str]) -> list[str]:
    problems = []
    for path, text in sorted(files.items()):
        if path.endswith(".py"):
            try:
                compile(text, path, "exec", dont_inherit=True)  # parses only: nothing runs
            except (SyntaxError, ValueError) as exc:
                line = getattr(exc, "lineno", None)
                problems.append(f"{path}:{line or 0}: {type(exc).__name__}: {getattr(exc, 'msg', exc)}")
    return problems


def _python_paths(python: str) -> list[Path]:
    """What the jail must show for ``python`` to run pytest: this process's own interpreter lives
    in a virtual environment (its packages) over a base installation."""
    if Path(python) != Path(sys.executable):
        return []  # the system's python3, under /usr
    return sorted({Path(p).resolve() for p in (sys.prefix, sys.base_prefix)} | {Path(python).resolve().parents[1]})


def _run_pytest(sandbox, project: Path, home: Path, timeout_s: float):
    """pytest over the grader, in the jail; the verdict comes only from our plugin's records on
    the stdout pipe (with the nonce sent on stdin), never from a file or an exit code the answer
    controls. HOME is a bounded tmpfs: nothing the answer writes reaches the disk."""
    from tuner.grading import StepResult, nonce_records, step_detail

    nonce = secrets.token_hex(16)
    python = interpreter()[0]
    argv = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--no-header", "-p", _PLUGIN, "test_grader.py"]
    done = sandbox.run(argv, cwd=project, home=home, scratch=home, timeout_s=timeout_s, stdin=nonce + "\n",
                       visible=[project.parent, _PLUGIN_DIR, *_python_paths(python)],
                       env={"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(_PLUGIN_DIR)})
    duration = round(done.duration_s, 3)

    def result(status: str, detail: str, passed: int = 0, total: int = 0, infra: str | None = None):
        return StepResult(name="tests", status=status, detail=detail, duration_s=duration), passed, total, infra

    if done.timed_out:
        return result("fail", f"timed out after {timeout_s:g}s: the code never returns (an infinite loop?)")
    if done.overflowed:
        return result("fail", f"printed more than {sandbox.MAX_OUTPUT_BYTES // 2**20} MB: output limit exceeded (a print loop?)")
    records = nonce_records(done.stdout.splitlines(), nonce)
    if not records:  # the plugin never started: pytest itself could not run
        message = f"pytest gave no report (exit {done.returncode}): {(done.stderr or done.stdout).strip()[-300:]}"
        return result("error", message, infra=message)
    finished = next((r for r in records if r.get("finished")), None)
    failures = [f"{r.get('test')}: {r.get('message') or r.get('outcome')}" for r in records
                if "test" in r and r.get("outcome") == "failed"]
    if finished is None:
        why = (f"the test process ended before the tests finished (exit {done.returncode}): "
               "the code exits or kills the interpreter")
        return result("fail", step_detail([why, *failures]))
    passed = sum(1 for r in records if r.get("when") == "call" and r.get("outcome") == "passed")
    total = finished.get("collected") if isinstance(finished.get("collected"), int) else 0
    ok = total > 0 and passed == total and not failures
    return result("pass" if ok else "fail", step_detail(failures or ([] if ok else ["the grader ran no test"])), passed, total)

