"""The pytest suite kind: Python answers under ``app/``, graded filesystem → syntax → tests.

Each eval's ``test_grader.py`` imports the answer (``from app.slug import slugify``) and runs under
pytest in its own temporary folder, through the same sandbox as the Convex tools (scrubbed
environment, its own HOME, a timeout that kills the whole process group). A test run that hangs
past the timeout is the answer's failure (code that never returns), recorded on the tests step.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tuner.hashing import sha256_bytes, sha256_json
from tuner.models.messages import answer_format

__all__ = ["PytestKind", "OUTPUT_FORMAT"]

STEPS = ("filesystem", "syntax", "tests")
_GRADER_IMPORT = re.compile(r"^\s*(?:from\s+(app(?:\.\w+)+)\s+import|import\s+(app(?:\.\w+)+))", re.MULTILINE)
TIMEOUT_S = 60.0
_WORKERS = 2

OUTPUT_FORMAT = answer_format("app/slug.py")


class PytestKind:
    name = "pytest"
    steps = STEPS
    grader_file = "test_grader.py"
    answer_roots = ("app",)
    published_name = "python_rules"
    file_globs = "app/**/*.py"

    def output_format(self) -> str:
        return OUTPUT_FORMAT

    def grader_id(self, suite) -> str:
        python, versions = interpreter()
        return sha256_json({
            "kind": "pytest",
            "code": sha256_bytes(Path(__file__).read_bytes()),
            "python+pytest": versions,
            "timeout_s": TIMEOUT_S,
        })

    def grade(self, suite, requests, *, cache_dir: Path, use_cache: bool = True, progress=None, timeout_s: float | None = None):
        from tuner.errors import ToolchainError
        from tuner.grading.cache import graded_with_cache
        from tuner.grading.models import GradeResult

        try:
            grader_id = self.grader_id(suite)
        except ToolchainError as e:  # the grader cannot run at all: infrastructure, never the model's
            return [GradeResult.infrastructure(r.eval.id, STEPS, str(e)) for r in requests]

        def grade_missing(todo):
            with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
                yield from zip(todo, pool.map(lambda r: _grade_one(r, timeout_s or TIMEOUT_S), todo.values()))

        return graded_with_cache(requests, grader_id, cache_dir, grade_missing, use_cache=use_cache, progress=progress)


def _grade_one(request, timeout_s: float):
    from tuner.grading import sandbox
    from tuner.grading.checks import _detail
    from tuner.grading.filesystem import check_files, write_files
    from tuner.grading.models import GradeResult, StepResult

    steps: dict[str, StepResult] = {}
    start = time.monotonic()
    problems = check_files(request.files, request.symlinks, roots=("app",)) or _missing_modules(request)
    steps["filesystem"] = StepResult(name="filesystem", status="fail" if problems else "pass",
                                     detail=_detail(problems), duration_s=round(time.monotonic() - start, 3))
    if not problems:
        start = time.monotonic()
        problems = _syntax_problems(request.files)
        steps["syntax"] = StepResult(name="syntax", status="fail" if problems else "pass",
                                     detail=_detail(problems), duration_s=round(time.monotonic() - start, 3))
    passed = total = 0
    infra = None
    if not problems:
        with sandbox.temp_dir("tuner-pytest-") as root:
            home = root / ".home"
            home.mkdir()
            project = root / "p"
            write_files(project, request.files)
            (project / "test_grader.py").write_text(request.eval.grader, encoding="utf-8")
            steps["tests"], passed, total, infra = _run_pytest(sandbox, project, home, timeout_s)
    ordered = [steps.get(n) or StepResult(name=n, status="skip") for n in STEPS]
    return GradeResult(eval_id=request.eval.id, passed=all(s.status == "pass" for s in ordered), steps=ordered,
                       tests_passed=passed, tests_total=total, infra_error=infra)


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


def _run_pytest(sandbox, project: Path, home: Path, timeout_s: float):
    from tuner.grading.checks import _detail
    from tuner.grading.models import StepResult

    report = home / "report.xml"  # the jail writes only under home
    argv = [interpreter()[0], "-m", "pytest", "-q", "-p", "no:cacheprovider", "--no-header",
            f"--junitxml={report}", "test_grader.py"]
    done = sandbox.run(argv, cwd=project, home=home, timeout_s=timeout_s, visible=[project.parent],
                       env={"PYTHONDONTWRITEBYTECODE": "1"})
    duration = round(done.duration_s, 3)
    if done.timed_out:
        why = f"timed out after {timeout_s:g}s: the code never returns (an infinite loop?)"
        return StepResult(name="tests", status="fail", detail=why, duration_s=duration), 0, 0, None
    if not report.is_file():
        message = f"pytest gave no report (exit {done.returncode}): {(done.stderr or done.stdout).strip()[-300:]}"
        return StepResult(name="tests", status="error", detail=message, duration_s=duration), 0, 0, message
    suite = ET.parse(report).getroot()
    suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
    total = int(suite.get("tests", 0))
    bad = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
    passed = total - bad - int(suite.get("skipped", 0))
    failures = [f"{case.get('name')}: {(el.get('message') or el.tag).splitlines()[0][:300]}"
                for case in suite.iter("testcase") for el in case if el.tag in ("failure", "error")]
    ok = total > 0 and passed == total
    detail = _detail(failures or ([] if ok else ["the grader ran no test"]))
    return StepResult(name="tests", status="pass" if ok else "fail", detail=detail, duration_s=duration), passed, total, None
