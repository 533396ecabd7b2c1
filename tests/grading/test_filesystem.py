from __future__ import annotations

import os
from pathlib import Path

import pytest

from counter_variants import answer, counter_eval
from tuner.grading import GradeRequest, grade, read_output_dir, sandbox
from tuner.grading.filesystem import check_files
from tuner.paths import Project

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "path, why",
    [
        ("/etc/passwd", "absolute"),
        ("C:/x/convex/a.ts", "absolute"),
        ("convex/../../escape.ts", ".."),
        ("convex\\a.ts", "backslash"),
        ("lib/a.ts", "outside"),
        ("package.json", "outside"),
        ("convex", "outside"),
        ("convex/_generated/api.d.ts", "_generated"),
        ("convex//a.ts", "empty"),
        ("convex/./a.ts", "empty"),
    ],
)
def test_bad_paths_are_rejected(path, why):
    problems = check_files({"convex/ok.ts": "export {}", path: "x"})
    assert problems and why in problems[0]


def test_good_files_pass_and_empty_set_fails():
    assert check_files({"convex/a.ts": "", "convex/lib/b.ts": "", "src/App.tsx": ""}) == []
    assert "no files" in check_files({})[0]
    assert any("both a file and a folder" in p for p in check_files({"convex/a": "", "convex/a/b.ts": ""}))


def test_symlinks_are_listed_not_followed(tmp_path: Path):
    (tmp_path / "convex").mkdir()
    (tmp_path / "convex" / "a.ts").write_text("export const a = 1;\n")
    (tmp_path / "convex" / "_generated").mkdir()
    (tmp_path / "convex" / "_generated" / "api.js").write_text("ignored")
    os.symlink("/etc/passwd", tmp_path / "convex" / "leak.ts")
    files, symlinks = read_output_dir(tmp_path)
    assert files == {"convex/a.ts": "export const a = 1;\n"}
    assert symlinks == ["convex/leak.ts"]
    assert "symlink" in check_files(files, symlinks)[0]


@pytest.mark.parametrize("path", ["/tmp/x.ts", "convex/../x.ts", "convex/_generated/server.js", "README.md"])
def test_filesystem_failure_runs_no_tool(path, tmp_path, monkeypatch):
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path))
    files = {**answer(), path: "export {}"}
    before = sandbox.launch_count()
    [result] = grade(Project(ROOT), [GradeRequest(eval=counter_eval(), files=files)])
    assert sandbox.launch_count() == before
    assert [s.status for s in result.steps] == ["fail"] + ["skip"] * 5
    assert path in result.steps[0].detail and not result.passed and result.infra_error is None


def test_symlink_request_fails_filesystem(tmp_path, monkeypatch):
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path))
    request = GradeRequest(eval=counter_eval(), files=answer(), symlinks=["convex/leak.ts"])
    [result] = grade(Project(ROOT), [request])
    assert result.steps[0].status == "fail" and "symlink" in result.steps[0].detail


def test_files_the_grader_imports_must_exist():
    from tuner.grading.filesystem import missing_for_grader

    grader = 'import schema from "./convex/schema";\nimport { api } from "./convex/_generated/api";\n' \
             'import { make } from "./src/client";\nconst m = import.meta.glob("./convex/**/*.*s");\n'
    assert missing_for_grader(grader, {"convex/schema.ts": "", "src/client.tsx": ""}) == []
    missing = missing_for_grader(grader, {"convex/schema.ts": ""})
    assert len(missing) == 1 and missing[0].startswith("src/client")
