"""``tuner/grading`` holds only what every suite kind shares, and a kind needs nothing outside its
own folder but its entry point: one written here, in a folder of its own, runs through the suite
loader, ``tuner.suites.grade`` and ``tuner evals validate`` without any other edit."""

from __future__ import annotations

import ast
import re
import sys
import textwrap
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import tuner.grading
import tuner.suites as suites

GRADING = Path(tuner.grading.__file__).parent

# A kind in a package of its own: answers are text files under notes/, the eval's grader
# (must.txt) lists words the answer must contain. It uses only tuner.grading's public names.
_KIND = """
from pathlib import Path

from tuner.grading import GradeResult, StepResult, check_files, graded_with_cache, step_detail
from tuner.hashing import sha256_bytes

STEPS = ("filesystem", "tests")


class NotesKind:
    name = "notes"
    steps = STEPS
    grader_file = "must.txt"
    answer_roots = ("notes",)
    answer_extensions = ("txt",)
    published_name = "notes_rules"
    file_globs = "notes/**/*.txt"

    def output_format(self):
        return "# Files\\n\\n## notes/answer.txt\\n\\n```txt\\n...\\n```\\n"

    def grader_id(self, suite):
        return sha256_bytes(Path(__file__).read_bytes())

    def grade(self, suite, requests, *, cache_dir, use_cache=True, progress=None, timeout_s=None):
        def grade_missing(todo):
            for key, request in todo.items():
                yield key, _grade(request)

        return graded_with_cache(requests, self.grader_id(suite), cache_dir, grade_missing,
                                 use_cache=use_cache, progress=progress)


def _grade(request):
    problems = check_files(request.files, request.symlinks, roots=NotesKind.answer_roots)
    text = " ".join(request.files.values())
    missing = [] if problems else [w for w in request.eval.grader.split() if w not in text]
    steps = [StepResult(name="filesystem", status="fail" if problems else "pass", detail=step_detail(problems)),
             StepResult(name="tests", status="skip" if problems else ("fail" if missing else "pass"),
                        detail=step_detail([f"missing: {w}" for w in missing]))]
    return GradeResult(eval_id=request.eval.id, passed=not problems and not missing, steps=steps,
                       tests_passed=0 if problems or missing else 1, tests_total=0 if problems else 1)
"""


def _modules() -> list[Path]:
    return sorted(GRADING.rglob("*.py"))


# What one kind's grader knows (its tools, files and folders): none of it belongs in the shared code.
_KIND_WORDS = re.compile(
    r"convex|vitest|\btsc\b|eslint|\bnpm|\bnode\b|grader\.test|test_grader|_generated|pytest|"
    r"junit|__pycache__|\bgcc\b|sanitiz",
    re.IGNORECASE,
)


def test_no_grading_module_knows_a_kind():
    for path in _modules():
        text = path.read_text(encoding="utf-8")
        assert "convex" not in text.lower(), f"{path} mentions Convex: it belongs in tuner/suites/convex/"
        for number, line in enumerate(text.splitlines(), 1):
            found = _KIND_WORDS.search(line)
            assert found is None, f"{path}:{number} names {found.group()!r}, one kind's business: {line.strip()}"
        for node in ast.walk(ast.parse(text)):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            )
            assert not any(n == "tuner.suites" or n.startswith("tuner.suites.") for n in names), (
                f"{path}:{node.lineno} imports {names}: grading sits below the kinds"
            )


@pytest.fixture
def notes_kind(tmp_path, monkeypatch):
    """The kind above as an installed package (``notes_kind``) registered by its entry point."""
    package = tmp_path / "site" / "notes_kind"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(textwrap.dedent(_KIND))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    real = suites.entry_points
    ep = EntryPoint("notes", "notes_kind:NotesKind", suites.ENTRY_POINT_GROUP)
    monkeypatch.setattr(suites, "entry_points", lambda *, group: [*real(group=group), ep])
    suites._kinds.cache_clear()
    yield
    suites._kinds.cache_clear()
    sys.modules.pop("notes_kind", None)


def _suite(root: Path) -> Path:
    suite = root / "notes-suite"
    (suite).mkdir()
    (suite / "suite.toml").write_text('name = "notes"\nversion = "1"\nkind = "notes"\ncategories = ["words"]\n')
    for number, words in (("001", "apple pear"), ("002", "plum")):
        ev = suite / "001-words" / f"{number}-say"
        (ev / "answer" / "notes").mkdir(parents=True)
        (ev / "TASK.txt").write_text(f"Write a note that says {words}.\n")
        (ev / "must.txt").write_text(words + "\n")
        (ev / "answer" / "notes" / "answer.txt").write_text(f"I say {words}.\n")
    return suite


def test_a_kind_needs_no_edit_outside_its_folder_but_its_entry_point(notes_kind, tmp_path, monkeypatch, cli):
    from tuner.evals import load_suite
    from tuner.grading import GradeRequest
    from tuner.paths import Project
    from tuner.suites import grade

    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    root = _suite(tmp_path)
    suite = load_suite(root)
    assert suite.kind.name == "notes" and suite.steps == ("filesystem", "tests")
    ev = suite.get("001-words/001-say")
    good, bad, outside = (
        GradeRequest(eval=ev, files=f)
        for f in ({"notes/a.txt": "apple and pear"}, {"notes/a.txt": "apple only"}, {"other/a.txt": "apple pear"})
    )
    results = grade(Project(tmp_path), [good, bad, outside], suite=suite)
    assert [r.passed for r in results] == [True, False, False]
    assert [r.failed_step for r in results] == [None, "tests", "filesystem"]
    assert "missing: pear" in results[1].steps[1].detail
    r = cli("evals", "validate", "--suite", str(root))
    assert r.exit_code == 0, r.output
    assert "2/2 answers pass every step" in r.output
