"""What goes in and comes out of grading: plain pydantic models the store can persist.

Every kind's results have the same shape; the step names are the kind's (``SuiteKind.steps``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, SkipValidation

__all__ = ["GradeRequest", "GradeResult", "GradedEval", "StepOutcome", "StepResult", "StepStatus"]

StepStatus = Literal["pass", "fail", "skip", "error"]


class GradedEval(Protocol):
    """What grading reads of an eval (``tuner.evals.Eval`` is one): grading sits below the suite
    loader, so it names the attributes it uses instead of importing it."""

    id: str
    path: Path

    @property
    def grader(self) -> str: ...

    @property
    def grader_hash(self) -> str: ...

    def answer_files(self) -> dict[str, str]: ...


class GradeRequest(BaseModel):
    """Grade ``files`` (relative paths under the kind's answer roots) against ``eval``."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    eval: SkipValidation[GradedEval]
    files: dict[str, str]
    # Symlinks found when the output was read from a folder: the filesystem step rejects them.
    symlinks: list[str] = []


class StepResult(BaseModel):
    name: str
    status: StepStatus
    duration_s: float = 0.0
    # The first ~20 lines of the error output, paths relative to the graded project.
    detail: str = ""
    # Findings that do not fail the step (lint warnings), one line each.
    warnings: list[str] = []


class GradeResult(BaseModel):
    eval_id: str
    passed: bool
    steps: list[StepResult]
    tests_passed: int = 0
    tests_total: int = 0
    # Set when the grader itself failed (toolchain crash, hang even when run alone, a tool missing):
    # an infrastructure failure, excluded from scores and never counted against the model.
    infra_error: str | None = None
    cache_key: str = ""
    cached: bool = False

    @classmethod
    def infrastructure(cls, eval_id: str, steps: tuple[str, ...], message: str) -> GradeResult:
        """The grader could not run: the first step is ``error`` with ``message``, the rest skipped."""
        return cls(
            eval_id=eval_id,
            passed=False,
            infra_error=message,
            steps=[
                StepResult(name=n, status="error" if i == 0 else "skip", detail=message if i == 0 else "")
                for i, n in enumerate(steps)
            ],
        )

    def step(self, name: str) -> StepResult:
        return next(s for s in self.steps if s.name == name)

    @property
    def failed_step(self) -> str | None:
        """The first step that did not pass (fail or error), or None."""
        return next((s.name for s in self.steps if s.status in ("fail", "error")), None)


class StepOutcome(BaseModel):
    """What one step said about one answer, before a kind assembles its ``StepResult`` list."""

    model_config = ConfigDict(frozen=True)

    status: StepStatus
    detail: str = ""
    duration_s: float = 0.0
    tests_passed: int = 0
    tests_total: int = 0
    infra_error: str | None = None
    warnings: tuple[str, ...] = ()
