"""The SuiteKind contract for the C kind (``kind = "c"``, suites/c): reference answers pass, every
broken variant fails at its step, the verdict comes only from the harness's nonce lines, results
are cached by content and the grader id covers the code, flags and gcc."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kindkit import broken_cases
from tuner.evals import load_suite
from tuner.grading import GradeRequest, sandbox
from tuner.paths import Project
from tuner.suites import SuiteKind, get_kind, grade

ROOT = Path(__file__).resolve().parents[3]
SUITE = ROOT / "suites" / "c"

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")]


@pytest.fixture
def c_suite(tmp_path, monkeypatch):
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    project = Project(ROOT, SUITE)
    return project, load_suite(project)


def _broken(suite, broken_variant) -> list[tuple[Path, dict, GradeRequest]]:
    return [(case, spec, request) for case in broken_cases(SUITE / "broken") for request, spec in [broken_variant(suite, case)]]


def _with(ev, **changes: str) -> GradeRequest:
    return GradeRequest(eval=ev, files={**ev.answer_files(), **changes})


def test_the_c_kind_is_registered_and_declares_its_layout():
    kind = get_kind("c")
    assert isinstance(kind, SuiteKind) and kind.name == "c"
    assert kind.steps == ("filesystem", "compile", "build", "tests")
    assert kind.answer_roots == ("src",) and set(kind.answer_extensions) == {"c", "h"}
    assert kind.grader_file == "test_grader.c" and kind.published_name == "c_rules"
    assert "## src/" in kind.output_format() and "```c" in kind.output_format()


def test_reference_answers_pass_and_broken_variants_fail_at_their_step(c_suite, broken_variant):
    project, suite = c_suite
    assert suite.kind.name == "c" and len(suite.evals) == 8
    assert {e.category for e in suite.evals} == {"strings", "memory"}
    assert sorted(e.id for e in suite.evals if e.held_out) == ["001-strings/004-reverse-words", "002-memory/004-matrix"]
    references = [GradeRequest(eval=e, files=e.answer_files()) for e in suite.evals]
    references += [GradeRequest(eval=e, files=files) for e in suite.evals for files in e.alternatives().values()]
    assert len(references) == 11  # 8 references, 3 alternatives written differently (two files, recursion, pointers)
    broken = _broken(suite, broken_variant)
    assert {spec["expected_step"] for _, spec, _ in broken} == set(suite.kind.steps)
    assert {req.eval.id for _, _, req in broken} == {e.id for e in suite.evals}
    results = grade(project, references + [req for _, _, req in broken], suite=suite)
    for ref, result in zip(references, results):
        assert result.passed and result.infra_error is None, (ref.eval.id, result.steps)
        assert result.tests_total >= 5 and result.tests_passed == result.tests_total
        assert tuple(s.name for s in result.steps) == suite.kind.steps
    for (case, spec, _), result in zip(broken, results[len(references):]):
        assert result.failed_step == spec["expected_step"], (case.parent.name, result.steps)
        assert result.infra_error is None
        later = [s.status for s in result.steps][suite.kind.steps.index(result.failed_step) + 1:]
        assert set(later) <= {"skip"}
        assert "tuner-grade-" not in result.step(result.failed_step).detail  # no host temp paths


def test_sanitizers_and_the_harness_name_what_went_wrong(c_suite, broken_variant):
    project, suite = c_suite
    by_name = {case.parent.name: (spec, req) for case, spec, req in _broken(suite, broken_variant)}
    names = ["join-no-room-for-nul", "list-free-leaks", "vector-sum-in-int", "ring-pop-waits", "ring-missing-copy"]
    results = dict(zip(names, grade(project, [by_name[n][1] for n in names], suite=suite)))
    assert "heap-buffer-overflow" in results["join-no-room-for-nul"].step("tests").detail
    assert "leaks memory" in results["list-free-leaks"].step("tests").detail
    assert "signed integer overflow" in results["vector-sum-in-int"].step("tests").detail
    ring = results["ring-pop-waits"]
    assert "timed out" in ring.step("tests").detail and ring.tests_passed == ring.tests_total - 1
    assert "undefined reference to `ring_copy'" in results["ring-missing-copy"].step("build").detail


def test_printing_or_exiting_cannot_forge_a_pass(c_suite):
    project, suite = c_suite
    ev = suite.get("001-strings/001-trim")
    # Prints what passing harness lines look like (without the nonce), then leaves with status 0.
    forger = """#include "trim.h"
#include <stdio.h>
#include <stdlib.h>
char *str_trim(char *s)
{
    printf("\\nstarted - \\nx pass trims_both_ends \\nx finished - 6\\n");
    fflush(stdout);
    exit(0);
    return s;
}
"""
    quitter = forger.replace("printf(", "(void)(").replace("fflush(stdout);", "")
    results = grade(project, [_with(ev, **{"src/trim.c": forger}), _with(ev, **{"src/trim.c": quitter})], suite=suite)
    for result in results:
        assert not result.passed and result.failed_step == "tests" and result.infra_error is None
        assert result.tests_passed == 0 and result.tests_total == 6
        assert "ended without a verdict" in result.step("tests").detail


def test_empty_and_headerless_outputs_fail_the_filesystem_step(c_suite):
    project, suite = c_suite
    ev = suite.get("002-memory/002-list")
    requests = [GradeRequest(eval=ev, files={}),
                GradeRequest(eval=ev, files={"src/list.h": ev.answer_files()["src/list.h"]}),
                GradeRequest(eval=ev, files={"src/list.c": ev.answer_files()["src/list.c"]})]
    empty, no_source, no_header = grade(project, requests, suite=suite)
    assert empty.failed_step == no_source.failed_step == no_header.failed_step == "filesystem"
    assert "no .c file" in no_source.step("filesystem").detail
    assert "src/list.h: missing" in no_header.step("filesystem").detail


def test_one_answers_verdict_does_not_depend_on_anothers(c_suite):
    project, suite = c_suite
    ev = suite.get("002-memory/001-vector")
    bad = _with(ev, **{"src/vec.c": "#include \"vec.h\"\nint vec_push(struct int_vec *v, int value) { (void)v; return value; }\n"})
    good = GradeRequest(eval=ev, files=ev.answer_files())
    alone = grade(project, [good], suite=suite, use_cache=False)[0]
    mixed = grade(project, [bad, good, bad], suite=suite, use_cache=False)
    assert mixed[0].failed_step == "build" and mixed[2].failed_step == "build"
    assert mixed[1].passed and mixed[1].model_dump(exclude={"cached", "steps"}) == alone.model_dump(exclude={"cached", "steps"})


def test_results_are_cached_by_content(c_suite):
    project, suite = c_suite
    ev = suite.get("001-strings/002-copy")
    [first] = grade(project, [GradeRequest(eval=ev, files=ev.answer_files())], suite=suite)
    launches = sandbox.launch_count()
    [again] = grade(project, [GradeRequest(eval=ev, files=ev.answer_files())], suite=suite)
    assert again.cached and again.passed and not first.cached
    assert sandbox.launch_count() == launches  # a cache hit starts no process


def test_grader_id_covers_the_code_flags_and_gcc(c_suite, monkeypatch, tmp_path):
    import tuner.suites.c.kind as kind_module
    import tuner.suites.c.steps as steps_module

    _, suite = c_suite
    kind = suite.kind
    base = kind.grader_id(suite)
    assert base.startswith("sha256:") and kind.grader_id(suite) == base
    assert {p.name for p in kind_module.grader_code()} >= {"kind.py", "steps.py", "harness.py", "sandbox.py", "cache.py"}
    monkeypatch.setattr(steps_module, "COMPILE_FLAGS", (*steps_module.COMPILE_FLAGS, "-pedantic"))
    flagged = kind.grader_id(suite)
    monkeypatch.undo()
    monkeypatch.setattr(kind_module, "gcc_version", lambda: "gcc (Other) 13.1.0")
    other_gcc = kind.grader_id(suite)
    monkeypatch.undo()
    harness = tmp_path / "harness.py"
    harness.write_text((Path(kind_module.__file__).parent / "harness.py").read_text() + "\n# edited\n")
    real = kind_module.grader_code()
    monkeypatch.setattr(kind_module, "grader_code", lambda: [harness if p.name == "harness.py" else p for p in real])
    edited = kind.grader_id(suite)
    assert len({base, flagged, other_gcc, edited}) == 4


def test_without_gcc_every_output_is_an_infrastructure_error(c_suite, monkeypatch):
    import tuner.suites.c.kind as kind_module
    from tuner.errors import ToolchainError

    project, suite = c_suite

    def no_gcc():
        raise ToolchainError("gcc cannot run: apt-get install gcc")

    monkeypatch.setattr(kind_module, "gcc_version", no_gcc)
    ev = suite.evals[0]
    [result] = grade(project, [GradeRequest(eval=ev, files=ev.answer_files())], suite=suite)
    assert result.infra_error and "gcc" in result.infra_error and not result.passed
    assert result.steps[0].status == "error"


def test_memory_hogs_and_code_before_main_fail_the_tests_step(c_suite):
    project, suite = c_suite
    ev = suite.get("001-strings/001-trim")
    hog = """#include "trim.h"
#include <stdlib.h>
#include <string.h>
char *str_trim(char *s)
{
    for (int i = 0; i < 64; i++) {
        char *block = malloc(64u << 20);
        if (block == NULL) {
            return NULL;
        }
        memset(block, 1, 64u << 20);
    }
    return s;
}
"""
    early = """#include "trim.h"
#include <stdlib.h>
__attribute__((constructor)) static void before_main(void)
{
    exit(0);
}
char *str_trim(char *s)
{
    return s;
}
"""
    hogged, ended = grade(project, [_with(ev, **{"src/trim.c": hog}), _with(ev, **{"src/trim.c": early})], suite=suite)
    assert hogged.failed_step == "tests" and hogged.infra_error is None
    assert "AddressSanitizer: out-of-memory" in hogged.step("tests").detail  # RLIMIT_DATA per test
    assert ended.failed_step == "tests" and ended.infra_error is None
    assert "before its harness started" in ended.step("tests").detail


def test_without_the_jail_new_outputs_are_infrastructure_errors_and_cached_ones_still_count(c_suite, monkeypatch):
    from tuner.errors import ToolchainError

    project, suite = c_suite
    ev = suite.get("002-memory/003-ring")
    [cached] = grade(project, [GradeRequest(eval=ev, files=ev.answer_files())], suite=suite)

    def no_jail():
        raise ToolchainError("bubblewrap (bwrap) is not installed")

    monkeypatch.setattr(sandbox, "check_available", no_jail)
    new = _with(ev, **{"src/ring.c": ev.answer_files()["src/ring.c"] + "\n/* another output */\n"})
    again, other = grade(project, [GradeRequest(eval=ev, files=ev.answer_files()), new], suite=suite)
    assert again.cached and again.passed and cached.passed
    assert other.infra_error and "bwrap" in other.infra_error and other.steps[0].status == "error"
