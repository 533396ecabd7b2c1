"""The Convex kind's filesystem step: a bad file set fails it before any tool runs, and the files
the grader imports must be in the answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from counter_variants import answer, counter_eval
from tuner.evals import load_suite
from tuner.grading import GradeRequest, sandbox
from tuner.paths import Project
from tuner.suites import grade
from tuner.suites.convex.files import missing_for_grader

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("path", ["/tmp/x.ts", "convex/../x.ts", "convex/_generated/server.js", "README.md"])
def test_filesystem_failure_runs_no_tool(path, tmp_path, monkeypatch):
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path))
    files = {**answer(), path: "export {}"}
    before = sandbox.launch_count()
    [result] = grade(Project(ROOT), [GradeRequest(eval=counter_eval(), files=files)], suite=load_suite(Project(ROOT)))
    assert sandbox.launch_count() == before
    assert [s.status for s in result.steps] == ["fail"] + ["skip"] * 5
    assert path in result.steps[0].detail and not result.passed and result.infra_error is None


def test_symlink_request_fails_filesystem(tmp_path, monkeypatch):
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path))
    request = GradeRequest(eval=counter_eval(), files=answer(), symlinks=["convex/leak.ts"])
    [result] = grade(Project(ROOT), [request], suite=load_suite(Project(ROOT)))
    assert result.steps[0].status == "fail" and "symlink" in result.steps[0].detail


def test_files_the_grader_imports_must_exist():
    grader = 'import schema from "./convex/schema";\nimport { api } from "./convex/_generated/api";\n' \
             'import { make } from "./src/client";\nconst m = import.meta.glob("./convex/**/*.*s");\n'
    assert missing_for_grader(grader, {"convex/schema.ts": "", "src/client.tsx": ""}) == []
    missing = missing_for_grader(grader, {"convex/schema.ts": ""})
    assert len(missing) == 1 and missing[0].startswith("src/client")


@pytest.mark.node
def test_grading_a_folder_leaves_out_what_the_convex_cli_generated(tmp_path, monkeypatch, cli):
    """An output folder where someone ran the Convex CLI holds convex/_generated/: `tuner grade DIR`
    does not read it (the kind's ``generated_dirs``), so the answer is graded as written."""
    from counter_variants import FIXTURE

    monkeypatch.setenv("TUNER_HOME", str(ROOT))
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TUNER_SUITE", raising=False)
    folder = tmp_path / "out"
    for rel, text in answer().items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    (folder / "convex" / "_generated").mkdir()
    (folder / "convex" / "_generated" / "api.js").write_text("export const api = 'stale';\n")
    r = cli("grade", str(folder), "--eval", str(FIXTURE), "--json")
    assert r.exit_code == 0, r.output
    assert '"passed": true' in r.stdout
