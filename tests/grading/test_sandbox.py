from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tuner.grading import sandbox


def test_scrubbed_env_is_minimal(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    monkeypatch.setenv("FOO_TOKEN", "t")
    monkeypatch.setenv("MY_PASSWORD", "p")
    monkeypatch.setenv("RANDOM_SETTING", "r")
    env = sandbox.scrubbed_env(tmp_path)
    assert env["HOME"] == str(tmp_path) and env["CI"] == "1"
    assert not {"OPENAI_API_KEY", "FOO_TOKEN", "MY_PASSWORD", "RANDOM_SETTING"} & env.keys()
    assert "AWS_SECRET" not in sandbox.scrubbed_env(tmp_path, {"AWS_SECRET": "x"})


def _print_env_argv() -> list[str]:
    if shutil.which("node"):
        return [shutil.which("node"), "-e", "process.stdout.write(JSON.stringify(process.env))"]
    return [sys.executable, "-c", "import json, os; print(json.dumps(dict(os.environ)))"]


def test_a_child_process_does_not_see_secrets(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    monkeypatch.setenv("FOO_TOKEN", "t0k3n")
    with sandbox.temp_dir() as home:
        done = sandbox.run(_print_env_argv(), cwd=home, home=home, timeout_s=30)
        seen = json.loads(done.stdout)
        assert done.returncode == 0
        assert "OPENAI_API_KEY" not in seen and "FOO_TOKEN" not in seen
        assert "sk-secret" not in done.stdout and "t0k3n" not in done.stdout
        assert seen["HOME"] == str(home)
    assert not Path(home).exists(), "the temp dir is removed afterwards"


def test_timeout_kills_the_process_group():
    with sandbox.temp_dir() as home:
        done = sandbox.run([sys.executable, "-c", "import time; time.sleep(30)"], cwd=home, home=home, timeout_s=0.5)
    assert done.timed_out and done.duration_s < 10


@pytest.mark.node
def test_grader_process_env_is_scrubbed(monkeypatch, tmp_path):
    """The same holds for a real grading: a grader test that asserts no secret is visible passes."""
    from counter_variants import FIXTURE, answer
    from tuner.evals import load_eval
    from tuner.grading import GradeRequest, grade
    from tuner.paths import Project

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
        "});\n"
    )
    [result] = grade(Project(Path(__file__).resolve().parents[2]), [GradeRequest(eval=load_eval(ev_dir), files=answer())])
    assert result.passed, result.steps
