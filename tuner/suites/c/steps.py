"""Grading one output of the C kind: filesystem → compile → build → tests.

One output, one temporary folder: ``p/`` holds the answer's ``src/``, the eval's grader and the
harness header (read-only in the jail), ``build/`` receives the test program (the only folder a
step writes on disk), ``.home`` is the jail's bounded tmpfs scratch. Nothing is shared between
outputs, so one answer's verdict never depends on another's.
"""

from __future__ import annotations

import re
import secrets
import time
from pathlib import Path

from tuner.suites.c.harness import HEADER, HEADER_NAME, TEST_MEMORY_MB, TEST_SECONDS

__all__ = ["STEPS", "ROOTS", "GRADER_FILE", "COMPILE_FLAGS", "BUILD_FLAGS", "TEST_ENV", "TIMEOUT_S", "grade_one"]

STEPS = ("filesystem", "compile", "build", "tests")
ROOTS = ("src",)
GRADER_FILE = "test_grader.c"
TIMEOUT_S = 60.0
_DETAIL_LINES = 20
# The answer alone, with the warnings a careful C programmer keeps on and turns into errors.
COMPILE_FLAGS = ("-std=c11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only")
# The grader against the answer: a mismatch between the answer's header and how the task says the
# function is called is an error, and the test program runs under the sanitizers (overflows,
# use-after-free, leaks, undefined behaviour become test failures).
BUILD_FLAGS = ("-std=c11", "-O1", "-g", "-pipe", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
               "-fno-sanitize-recover=all", "-Werror=implicit-function-declaration",
               "-Werror=incompatible-pointer-types", "-Werror=int-conversion", f"-DTUNER_TEST_SECONDS={TEST_SECONDS}",
               f"-DTUNER_TEST_MEMORY_MB={TEST_MEMORY_MB}")
TEST_ENV = {"ASAN_OPTIONS": "detect_leaks=1:print_summary=1:color=never",
            "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=0:color=never"}
_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)
_SANITIZER_START = re.compile(r"ReserveShadowMemoryRange|Shadow memory range|Sanitizer: CHECK failed|failed to mmap")
_SANITIZER = re.compile(r"^(SUMMARY: \w+Sanitizer: .*|.*runtime error: .*)$", re.MULTILINE)


def grade_one(request, timeout_s: float):
    from tuner.grading import GradeResult, StepResult, sandbox
    from tuner.grading.filesystem import check_files, write_files

    found: dict[str, StepResult] = {}
    infra = None
    passed = total = 0

    def record(name: str, start: float, problems: list[str]) -> bool:
        found[name] = StepResult(name=name, status="fail" if problems else "pass", detail=_detail(problems),
                                 duration_s=round(time.monotonic() - start, 3))
        return not problems

    start = time.monotonic()
    ok = record("filesystem", start, check_files(request.files, request.symlinks, roots=ROOTS) or _missing(request))
    if ok:
        with sandbox.temp_dir() as root:
            project, build = root / "p", sandbox.hand_over(root / "build")
            home = sandbox.hand_over(root / ".home")
            write_files(project, request.files)
            (project / GRADER_FILE).write_text(request.eval.grader, encoding="utf-8")
            (project / HEADER_NAME).write_text(HEADER, encoding="utf-8")
            sources = sorted(p for p in request.files if p.endswith(".c"))

            def gcc(flags, *args):
                return sandbox.run(["gcc", *flags, "-I", "src", *args], cwd=project, home=home, scratch=home,
                                   writable=[build], timeout_s=timeout_s)

            start = time.monotonic()
            if record("compile", start, _gcc_problems(gcc(COMPILE_FLAGS, *sources), timeout_s, project)):
                start = time.monotonic()
                binary = build / "tests"
                done = gcc(BUILD_FLAGS, "-o", str(binary), GRADER_FILE, *sources, "-lm")
                if record("build", start, _gcc_problems(done, timeout_s, project)):
                    found["tests"], passed, total, infra = _run_tests(sandbox, binary, home, timeout_s)
    ordered = [found.get(n) or StepResult(name=n, status="skip") for n in STEPS]
    return GradeResult(eval_id=request.eval.id, passed=all(s.status == "pass" for s in ordered), steps=ordered,
                       tests_passed=passed, tests_total=total, infra_error=infra)


def _detail(lines: list[str]) -> str:
    return "\n".join(lines[:_DETAIL_LINES])


def _missing(request) -> list[str]:
    """Headers the grader includes that the output lacks, and an output with no C source at all."""
    wanted = sorted({h for h in _INCLUDE.findall(request.eval.grader) if h != HEADER_NAME})
    problems = [f"src/{h}: missing (the task asks for it and the grader includes it)"
                for h in wanted if f"src/{h}" not in request.files]
    if not any(p.endswith(".c") for p in request.files):
        problems.append("no .c file under src/: nothing to compile")
    return problems


def _gcc_problems(done, timeout_s: float, project: Path) -> list[str]:
    if done.timed_out:
        return [f"gcc timed out after {timeout_s:g}s"]
    if done.returncode == 0:
        return []
    # The linker names files by their full path: the output's temporary folder says nothing.
    text = (done.stderr or done.stdout).replace(f"{project}/", "")
    lines = [line for line in text.splitlines() if line.strip()]
    return lines or [f"gcc failed (exit {done.returncode}) without a message"]


def _run_tests(sandbox, binary: Path, home: Path, timeout_s: float):
    """The test program in the jail; the verdict comes only from the harness's nonce lines."""
    from tuner.grading import StepResult

    nonce = secrets.token_hex(16)
    done = sandbox.run([str(binary)], cwd=home, home=home, scratch=home, timeout_s=timeout_s, stdin=nonce + "\n",
                       visible=[binary.parent], env=dict(TEST_ENV))

    def result(status: str, problems: list[str], passed: int = 0, total: int = 0, infra: str | None = None):
        step = StepResult(name="tests", status=status, detail=_detail(problems), duration_s=round(done.duration_s, 3))
        return step, passed, total, infra

    if done.timed_out:
        return result("fail", [f"timed out after {timeout_s:g}s: the tests never finished"])
    if done.overflowed:
        return result("fail", [f"printed more than {sandbox.MAX_OUTPUT_BYTES // 2**20} MB: output limit exceeded"])
    records = [r for r in (line.split(" ", 3) for line in done.stdout.splitlines()) if len(r) == 4 and r[0] == nonce]
    if not any(r[1] == "started" for r in records):
        tail = done.stderr.strip()[-300:]
        if _SANITIZER_START.search(done.stderr) or done.returncode in (126, 127):  # the machine, not the answer
            message = f"the test program could not start (exit {done.returncode}): {tail}"
            return result("error", [message], infra=message)
        # Only code that runs before main (a constructor) can stop the harness before its first line.
        return result("fail", [f"the test program ended before its harness started (exit {done.returncode}): "
                               f"code that runs before main? {tail}"])
    finished = next((r for r in records if r[1] == "finished"), None)
    failures = [f"{name}: {message}" for _, status, name, message in records if status == "fail"]
    # What the sanitizers said (stderr, not per test) goes next to the first failure.
    found = list(dict.fromkeys(_SANITIZER.findall(done.stderr)))[:5]
    failures = [*failures[:1], *found, *failures[1:]] if failures else []
    passed = sum(1 for r in records if r[1] == "pass")
    if finished is None:
        return result("fail", [f"the test program ended before its tests finished (exit {done.returncode})", *failures], passed)
    total = int(finished[3]) if finished[3].strip().isdigit() else 0
    ok = total > 0 and passed == total and not failures
    return result("pass" if ok else "fail", failures or ([] if ok else ["the grader ran no test"]), passed, total)
