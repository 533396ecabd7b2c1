"""Plain records read from and written to the store (detached from database sessions)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from tuner.hashing import sha256_json

__all__ = ["RunSpec", "RunRecord", "ResultRecord", "StepRecord", "LabelRecord"]


class _RunFields(BaseModel):
    experiment_id: str | None = None
    prompt_hash: str
    set_name: str
    model: str
    model_key: str
    params: dict
    suite: str
    suite_hash: str
    grader_hash: str
    eval_ids: list[str]
    samples: int
    sample_offset: int = 0
    git_rev: str | None = None
    inputs_hash: str | None = None
    call_settings: dict | None = None


class RunSpec(_RunFields):
    """Everything that defines a run; its hash is the run id."""

    model_config = ConfigDict(frozen=True)

    @property
    def id(self) -> str:
        # The experiment, set name and git revision are context, not identity: the same prompt,
        # model, suite, evals and samples is the same run whoever asks for it.
        return sha256_json(
            self.model_dump(
                include={
                    "prompt_hash",
                    "model_key",
                    "suite_hash",
                    "grader_hash",
                    "eval_ids",
                    "samples",
                    "sample_offset",
                    "inputs_hash",
                }
            )
        )


class RunRecord(_RunFields):
    """A stored run."""

    id: str
    status: str
    summary: dict | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None

    @classmethod
    def from_row(cls, row) -> RunRecord:
        data = {c: getattr(row, c) for c in cls.model_fields if hasattr(row, c)}
        return cls.model_validate(data)


class StepRecord(BaseModel):
    name: str
    status: str
    duration_s: float = 0.0
    detail: str | None = None
    warnings: list[str] | None = None


class LabelRecord(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    result_id: int
    label: str
    note: str
    author: str
    created_at: datetime


class ResultRecord(BaseModel):
    id: int | None = None
    eval_id: str
    category: str
    sample_index: int
    outcome: str  # pass | fail | infra
    failed_step: str | None = None
    output: str | None = None
    files: dict | None = None
    error: str | None = None
    tests_passed: int | None = None
    tests_total: int | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None
    latency_s: float | None = None
    response_key: str | None = None
    grade_key: str | None = None
    messages: list[dict] | None = None  # the system message by prompt hash; see Store.chat_messages
    response_model: str | None = None
    finish_reason: str | None = None
    attempts: int | None = None
    reasoning: str | None = None  # v6: kept apart from the answer's text
    tool_calls: list[dict] | None = None  # v6: [{id, name, arguments}]
    pass_turn: int | None = None  # v7: the turn of the repair loop at which it passed (None: failed, or one turn)
    turns: list[dict] | None = None  # v7: every turn of the repair loop (tuner.runs.repair); None: one turn
    steps: list[StepRecord] = Field(default_factory=list)

    @classmethod
    def from_row(cls, row) -> ResultRecord:
        data = {c: getattr(row, c) for c in cls.model_fields if c != "steps"}
        data["steps"] = [
            StepRecord(name=s.name, status=s.status, duration_s=s.duration_s, detail=s.detail, warnings=s.warnings)
            for s in row.steps
        ]
        return cls.model_validate(data)
