"""A tool that gives an output no result even alone: the output's failure when the eval's
reference answer gets a pass from the same tool, an infrastructure error otherwise (no Node
needed: the tool is a stand-in)."""

from __future__ import annotations

from pathlib import Path

from tuner.evals import load_suite
from tuner.grading import GradeRequest, StepOutcome
from tuner.suites.convex.pipeline import _blame, _no_result
from tuner.suites.convex.toolchain import Toolchain
from tuner.suites.convex.workspace import Workspace
from tuner.paths import Project

ROOT = Path(__file__).resolve().parents[3]
EVAL = "001-fundamentals/001-hello-query"


def _workspace(tmp_path: Path) -> tuple[Workspace, object]:
    (tmp_path / "toolchain" / "node_modules").mkdir(parents=True)
    root = tmp_path / "batch"
    root.mkdir()
    ws = Workspace(root, Toolchain(tmp_path / "toolchain", "node"), {})
    ev = load_suite(Project(ROOT)).get(EVAL)
    files = {**ev.answer_files(), "convex/schema.ts": "process.kill(process.ppid, 'SIGKILL');\n"}
    return ws, ws.new_subproject(0, GradeRequest(eval=ev, files=files))


class _Tool:
    """Gives the reference answer ``reference`` (a pass, a failure, or nothing) and counts runs."""

    def __init__(self, reference: str | None) -> None:
        self.reference = reference
        self.seen: list[list[str]] = []

    def __call__(self, ws, subs, timeout_s):
        self.seen.append([s.name for s in subs])
        (sub,) = subs
        assert sub.request.files == sub.request.eval.answer_files()  # the reference, never the output
        assert (sub.dir / "convex" / "schema.ts").is_file()  # written like any output
        return {} if self.reference is None else {sub.name: StepOutcome(status=self.reference)}


def test_the_output_is_to_blame_when_the_reference_passes_the_same_tool(tmp_path):
    ws, sub = _workspace(tmp_path)
    died = StepOutcome(status="error", detail="its test process exited unexpectedly", infra_error="x")
    tool = _Tool("pass")
    outcome = _blame(ws, "tests", sub, died, tool)
    assert outcome.status == "fail" and outcome.infra_error is None
    assert outcome.detail.startswith("its test process exited unexpectedly")
    assert "the reference answer passes the same tools" in outcome.detail
    # Another output of the same eval: the reference is not run again.
    assert _blame(ws, "tests", sub, died, tool).status == "fail" and len(tool.seen) == 1


def test_it_stays_infrastructure_when_the_reference_fails_or_gets_no_result(tmp_path):
    ws, sub = _workspace(tmp_path)
    crashed = _no_result("tests", "the tool crashed")
    for reference in (None, "fail"):
        ws.reference_passes.clear()
        outcome = _blame(ws, "tests", sub, crashed, _Tool(reference))
        assert outcome == crashed and outcome.infra_error


def test_a_result_is_never_second_guessed(tmp_path):
    ws, sub = _workspace(tmp_path)
    tool = _Tool("pass")
    failed = StepOutcome(status="fail", detail="✗ list returns all messages oldest first")
    assert _blame(ws, "tests", sub, failed, tool) == failed and tool.seen == []
