"""What the bundle step is asked to check: entry points, convex.config.ts, client files and the
packages an eval provides (the checks themselves run in node/bundle.mjs; the broken corpus holds
an undeclared-package case)."""

from __future__ import annotations

from pathlib import Path

from tuner.evals import load_suite
from tuner.grading import GradeRequest
from tuner.suites.convex.workspace import SubProject
from tuner.paths import Project

ROOT = Path(__file__).resolve().parents[3]


def _job(eval_id: str, files: dict[str, str]) -> dict:
    ev = load_suite(Project(ROOT)).get(eval_id)
    return SubProject(0, GradeRequest(eval=ev, files=files), Path("/tmp/p000")).bundle_job(Path("/tmp/out"))


def test_component_config_is_bundled_but_is_no_function_module():
    ev_id = "008-components/001-aggregate-leaderboard"
    files = load_suite(Project(ROOT)).get(ev_id).answer_files()
    job = _job(ev_id, files)
    assert job["allowed"] == ["@convex-dev/aggregate"]
    assert "convex/convex.config.ts" in job["browser"]
    assert "convex/leaderboard.ts" in job["browser"] and job["node"] == []


def test_client_files_are_import_checked_and_plain_evals_allow_no_packages():
    files = {"convex/a.ts": "export const a = 1;\n", "src/client.tsx": "export {}\n", "src/types.d.ts": "export {}\n"}
    job = _job("001-fundamentals/001-hello-query", files)
    assert job["allowed"] == []
    assert job["src"] == ["src/client.tsx"]
