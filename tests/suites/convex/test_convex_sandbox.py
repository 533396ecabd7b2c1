"""The sandbox's scrubbed environment holds for a real Convex grading (see tests/grading/test_sandbox.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from counter_variants import FIXTURE, answer
from tuner.evals import load_eval, load_suite
from tuner.grading import GradeRequest
from tuner.paths import Project
from tuner.suites import get_kind, grade


@pytest.mark.node
def test_grader_process_env_is_scrubbed(monkeypatch, tmp_path):
    """The same holds for a real grading: a grader test that asserts no secret is visible passes; the
    Convex kind adds its Node settings (the heap bound) itself."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    monkeypatch.setenv("FOO_TOKEN", "t0k3n")
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    ev_dir = tmp_path / "001-fundamentals" / "001-env"
    shutil.copytree(FIXTURE, ev_dir)
    (ev_dir / "grader.test.ts").write_text(
        'import { expect, test } from "vitest";\n'
        'test("no secrets", () => {\n'
        '  const names = Object.keys(process.env);\n'
        '  expect(names.filter((n) => /KEY|TOKEN|SECRET|PASSWORD/.test(n))).toEqual([]);\n'
        '  expect(process.env.HOME).not.toBe(' + json.dumps(str(Path.home())) + ");\n"
        # The kind's own setting for its Node tools (not the shared sandbox's): a bounded V8 heap.
        '  expect(process.env.NODE_OPTIONS ?? "").toContain("--max-old-space-size=");\n'
        "});\n"
    )
    project = Project(Path(__file__).resolve().parents[3])
    ev = load_eval(ev_dir, kind=get_kind("convex"))
    [result] = grade(project, [GradeRequest(eval=ev, files=answer())], suite=load_suite(project))
    assert result.passed, result.steps
