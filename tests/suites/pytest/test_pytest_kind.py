"""The pytest kind: its grader identity, the Python suite's broken corpus, and the second suite
through the CLI: validate, tune → publish."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kindkit import broken_cases
from tuner.evals import load_suite
from tuner.paths import Project
from tuner.suites import grade

ROOT = Path(__file__).resolve().parents[3]
SUITE = ROOT / "suites" / "python"

pytestmark = [pytest.mark.slow]


def _project() -> Project:
    return Project(ROOT, SUITE)


def test_pytest_grader_id_covers_every_file_of_code_it_runs(tmp_path, monkeypatch):
    """Editing any file that decides a pytest verdict (the kind, its plugin, the sandbox, the
    filesystem checks, the cache) gives a new grader id; the same files give the same id."""
    import tuner.suites.pytest.kind as kind_module

    code = kind_module.grader_code()
    assert {p.name for p in code} >= {"kind.py", "tuner_pytest_report.py", "sandbox.py", "filesystem.py", "cache.py", "output.py"}
    copies = []
    for i, path in enumerate(code):
        copy = tmp_path / str(i) / path.name
        copy.parent.mkdir()
        copy.write_bytes(path.read_bytes())
        copies.append(copy)
    monkeypatch.setattr(kind_module, "grader_code", lambda: copies)
    suite = load_suite(_project())
    seen = {suite.kind.grader_id(suite)}
    for copy in copies:
        copy.write_bytes(copy.read_bytes() + b"\n# edited\n")
        new = suite.kind.grader_id(suite)
        assert new not in seen, copy.name
        seen.add(new)
    assert suite.kind.grader_id(suite) == new


def test_python_suite_broken_corpus_fails_at_expected_steps(tmp_path, monkeypatch, broken_variant):
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    project = _project()
    suite = load_suite(project)
    cases = broken_cases(suite.root / "broken")
    assert len(cases) >= len(suite.evals)
    requests, specs = zip(*(broken_variant(suite, c) for c in cases))
    for case, spec, r in zip(cases, specs, grade(project, list(requests), suite=suite)):
        assert r.failed_step == spec["expected_step"], (case, r.steps)
        assert r.infra_error is None


def test_bytecode_caches_are_the_kinds_output_not_the_answers(py_suite, cli):
    """An answer folder someone ran holds ``__pycache__/``: the pytest kind says so
    (``generated_paths``), so ``tuner grade DIR`` and the suite loader leave it out (the shared
    reader in tuner.grading knows no kind's tools)."""
    from tuner.suites import get_kind

    kind = get_kind("pytest")
    assert kind.generated_paths({"app/a.py": "", "app/__pycache__/a.cpython-311.pyc": "", "app/x/__pycache__/b.pyc": "",
                                 "app/not__pycache__.py": ""}) == ["app/__pycache__/a.cpython-311.pyc", "app/x/__pycache__/b.pyc"]
    answer = py_suite / "001-text" / "001-slugify" / "answer"
    before = load_suite(py_suite).get("001-text/001-slugify").content_hash()
    (answer / "app" / "__pycache__").mkdir()
    (answer / "app" / "__pycache__" / "slug.cpython-311.pyc").write_bytes(b"\xa7\r\r\n\x00\xff not text")
    ev = load_suite(py_suite).get("001-text/001-slugify")
    assert all("__pycache__" not in p for p in ev.answer_files())  # never read (it is not UTF-8 either)
    assert ev.content_hash() == before
    r = cli("grade", str(answer), "--eval", "001-text/001-slugify", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["passed"]


@pytest.mark.timeout(1800)  # known slow: validate, tune (its default flow) and publish, end to end
def test_python_suite_validates_tunes_and_publishes_through_the_cli(cli, suite_copy):
    copy = suite_copy("suites/python")
    suite = str(copy)

    r = cli("evals", "validate", "--suite", suite)
    assert r.exit_code == 0, r.output
    assert "8/8 answers pass every step" in r.output

    r = cli("tune", "--suite", suite, "--category", "data", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    # Fresh samples of every tuning eval confirm the change (the target for the gain, every other
    # category against harm); the held-out evals of every category confirm too.
    assert data["category"] == "data" and {row["category"] for row in data["fresh"]} == {"text", "data"}
    assert {row["category"] for row in data["held_out"]} == {"text", "data"}
    # The candidate rule that alone cures a planted data gap is what tuning finds.
    assert "py.copy-inputs" in data["best_selection"] and data["decision"] == "accepted"

    r = cli("publish", "--suite", suite, "--json")
    assert r.exit_code == 0, r.output
    published = copy / "guidelines" / "published" / "python_rules"
    assert (published / "python_rules.md").is_file() and (published / "manifest.json").is_file()
    manifest = json.loads((published / "manifest.json").read_text())
    assert manifest["source"]["kind"] == "study" and manifest["source"]["name"] == data["study"]
    assert "py.copy-inputs" in {rule["id"] for rule in manifest["rules"]}
    assert "convex" not in (published / "python_rules.md").read_text().lower()
