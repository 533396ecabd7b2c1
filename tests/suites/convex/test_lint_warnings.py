"""A lint rule the plugin only warns about is recorded with the result and does not fail the step."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from counter_variants import answer, counter_eval
from tuner.evals import load_suite
from tuner.grading import GradeRequest
from tuner.paths import Project
from tuner.suites import grade

pytestmark = [pytest.mark.node, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[3]
CRONS = """import { cronJobs } from "convex/server";
import { api } from "./_generated/api";

const crons = cronJobs();
crons.cron("tick", "0 * * * *", api.counters.increment, { name: "ticks" });
export default crons;
"""


def test_a_warning_is_recorded_and_the_step_passes(tmp_path, monkeypatch, cli):
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    project = Project(ROOT)
    ev = counter_eval()
    # A cron on the hour: @convex-dev/no-top-of-hour-crons warns (recommended level); not an error.
    files = {**answer(), "convex/crons.ts": CRONS}
    [result] = grade(project, [GradeRequest(eval=ev, files=files)], suite=load_suite(project))
    eslint = result.step("eslint")
    assert result.passed and eslint.status == "pass", result.steps
    assert any("no-top-of-hour-crons" in w for w in eslint.warnings), eslint

    out = tmp_path / "out"
    for path, text in files.items():
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_text(text)
    monkeypatch.chdir(ROOT)
    r = cli("grade", str(out), "--eval", str(ev.path))
    assert r.exit_code == 0, r.output
    assert "warning" in r.stdout and "no-top-of-hour-crons" in r.stdout
