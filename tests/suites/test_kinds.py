"""The SuiteKind contract, tested once per kind (the Convex suite and the Python/pytest suite),
and the second suite through the CLI: validate, its broken corpus, and tune → publish."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from tuner.evals import load_suite
from tuner.grading import GradeRequest, read_output_dir
from tuner.paths import Project
from tuner.suites import SuiteKind, get_kind, grade, kind_names

ROOT = Path(__file__).resolve().parents[2]
SUITES = {"convex": ROOT / "evals", "pytest": ROOT / "suites" / "python"}

pytestmark = [pytest.mark.slow]


def _project(kind: str) -> Project:
    return Project(ROOT, SUITES[kind])


def _broken_cases(suite_root: Path) -> list[Path]:
    return sorted((suite_root / "broken").glob("**/broken.toml"))


def _broken_request(suite, case: Path) -> tuple[GradeRequest, dict]:
    spec = tomllib.loads(case.read_text())
    ev = suite.get(spec["eval"])
    if "files" in spec:  # the whole output, given as a table (path mistakes)
        return GradeRequest(eval=ev, files=spec["files"]), spec
    changed, symlinks = read_output_dir(case.parent, suite.kind.answer_roots)
    files = {p: t for p, t in ev.answer_files().items() if p not in set(spec.get("removed", []))}
    return GradeRequest(eval=ev, files={**files, **changed}, symlinks=symlinks), spec


def test_every_shipped_kind_is_a_suite_kind():
    assert kind_names() == ["c", "convex", "pytest"]
    for name in kind_names():
        kind = get_kind(name)
        assert isinstance(kind, SuiteKind) and kind.name == name
        assert kind.steps[0] == "filesystem" and kind.steps[-1] == "tests"
        assert "## " in kind.output_format() and kind.published_name


@pytest.mark.parametrize("kind", ["convex", "pytest"])
def test_kind_contract(kind, tmp_path, monkeypatch):
    if shutil.which("node") is None and kind == "convex":
        pytest.skip("node is not installed")
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    project = _project(kind)
    suite = load_suite(project)
    assert suite.kind.name == kind and suite.manifest.kind == kind
    # Answers live under the kind's roots; the grader file is the kind's.
    ev = suite.evals[0]
    assert all(p.split("/")[0] in suite.kind.answer_roots for p in ev.answer_files())
    assert (ev.path / suite.kind.grader_file).is_file()
    assert suite.kind.grader_id(suite).startswith("sha256:")  # what it covers: test_pytest_grader_id_covers_*
    good = GradeRequest(eval=ev, files=ev.answer_files())
    broken_req, spec = _broken_request(suite, _broken_cases(suite.root)[0]) if kind == "pytest" else (
        GradeRequest(eval=ev, files={"convex/schema.ts": "export default 1 +;\n"}), {"expected_step": None})
    empty = GradeRequest(eval=ev, files={})
    requests = [good, broken_req, empty, good]
    results = grade(project, requests, suite=suite)
    assert [r.eval_id for r in results] == [q.eval.id for q in requests]  # one per request, in order
    for r in results:
        assert tuple(s.name for s in r.steps) == suite.kind.steps
        first_bad = r.failed_step
        if first_bad:  # after the first step that does not pass, every step is skipped
            later = [s.status for s in r.steps][suite.kind.steps.index(first_bad) + 1:]
            assert set(later) <= {"skip"}
    assert results[0].passed and results[0].tests_total > 0 and results[0].infra_error is None
    assert not results[1].passed and results[1].infra_error is None
    assert results[2].failed_step == "filesystem"
    assert results[3].model_dump(exclude={"cached"}) == results[0].model_dump(exclude={"cached"})
    [again] = grade(project, [good], suite=suite)
    assert again.cached and again.passed  # graded once, then cached by content


def test_pytest_grader_id_covers_every_file_of_code_it_runs(tmp_path, monkeypatch):
    """Editing any file that decides a pytest verdict (the kind, its plugin, the sandbox, the
    filesystem checks, the cache) gives a new grader id; the same files give the same id."""
    import tuner.suites.pytest as kind_module

    code = kind_module.grader_code()
    assert {p.name for p in code} >= {"pytest.py", "tuner_pytest_report.py", "sandbox.py", "filesystem.py", "cache.py"}
    copies = []
    for i, path in enumerate(code):
        copy = tmp_path / str(i) / path.name
        copy.parent.mkdir()
        copy.write_bytes(path.read_bytes())
        copies.append(copy)
    monkeypatch.setattr(kind_module, "grader_code", lambda: copies)
    suite = load_suite(_project("pytest"))
    seen = {suite.kind.grader_id(suite)}
    for copy in copies:
        copy.write_bytes(copy.read_bytes() + b"\n# edited\n")
        new = suite.kind.grader_id(suite)
        assert new not in seen, copy.name
        seen.add(new)
    assert suite.kind.grader_id(suite) == new


def test_python_suite_broken_corpus_fails_at_expected_steps(tmp_path, monkeypatch):
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    project = _project("pytest")
    suite = load_suite(project)
    cases = _broken_cases(suite.root)
    assert len(cases) >= len(suite.evals)
    requests, specs = zip(*(_broken_request(suite, c) for c in cases))
    for case, spec, r in zip(cases, specs, grade(project, list(requests), suite=suite)):
        assert r.failed_step == spec["expected_step"], (case, r.steps)
        assert r.infra_error is None


def test_python_suite_validates_tunes_and_publishes_through_the_cli(cli, tmp_path, monkeypatch):
    root = tmp_path / "proj"
    shutil.copytree(ROOT / "suites" / "python", root / "suites" / "python")
    (root / "guidelines").mkdir()
    (root / "evals").mkdir()
    (root / "experiments").mkdir()
    monkeypatch.setenv("TUNER_HOME", str(root))
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TUNER_DB", f"sqlite:///{root / 'experiments' / 'tuner.db'}")
    monkeypatch.delenv("TUNER_SUITE", raising=False)
    monkeypatch.chdir(root)
    suite = str(root / "suites" / "python")

    r = cli("evals", "validate", "--suite", suite)
    assert r.exit_code == 0, r.output
    assert "8/8 answers pass every step" in r.output

    r = cli("tune", "--suite", suite, "--category", "data", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    # Fresh samples confirm the target (the other categories had tune's regression check); the
    # held-out evals of every category confirm too.
    assert data["category"] == "data" and {row["category"] for row in data["fresh"]} == {"data"}
    assert {row["category"] for row in data["held_out"]} == {"text", "data"}
    # The candidate rule that alone cures a planted data gap is what tuning finds.
    assert "py.copy-inputs" in data["best_selection"] and data["decision"] == "accepted"

    r = cli("publish", "--suite", suite, "--json")
    assert r.exit_code == 0, r.output
    published = root / "suites" / "python" / "guidelines" / "published" / "python_rules"
    assert (published / "python_rules.md").is_file() and (published / "manifest.json").is_file()
    manifest = json.loads((published / "manifest.json").read_text())
    assert manifest["source"]["kind"] == "study" and manifest["source"]["name"] == data["study"]
    assert "py.copy-inputs" in {rule["id"] for rule in manifest["rules"]}
    assert "convex" not in (published / "python_rules.md").read_text().lower()
