"""The recorded schema: every table tuner writes, in one module.

``SCHEMA_VERSION`` is stored in ``tuner_meta``; ``tuner.store.migrations`` moves an older store
forward and refuses a newer one. Identity columns hold content hashes (see ``tuner.hashing``), never
timestamps: re-running the same configuration addresses the same run.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = [
    "SCHEMA_VERSION",
    "Base",
    "Meta",
    "ExperimentRow",
    "ExperimentRunRow",
    "PromptRow",
    "RunRow",
    "ResultRow",
    "StepRow",
    "LabelRow",
    "SessionLabelRow",
    "ReportRow",
    "ApiKeyRow",
    "DesignPointRow",
]

SCHEMA_VERSION = 7


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


class Base(DeclarativeBase):
    type_annotation_map = {dict: JSON, list: JSON}


class Meta(Base):
    """Key/value facts about the store itself (``schema_version``)."""

    __tablename__ = "tuner_meta"
    key: Mapped[str] = mapped_column(String(64), primary_key=True, doc="Name of the fact.")
    value: Mapped[str] = mapped_column(Text, doc="Its value, as text.")


class ExperimentRow(Base):
    """A named piece of work that groups runs: a compare, a tuning study, an ablation."""

    __tablename__ = "experiments"
    id: Mapped[str] = mapped_column(String(80), primary_key=True, doc="Content hash of kind + config.")
    name: Mapped[str] = mapped_column(String(200), doc="Human name (study name, compare label).")
    kind: Mapped[str] = mapped_column(String(32), doc="run | compare | tune | ablate | publish.")
    config: Mapped[dict] = mapped_column(doc="The configuration that defines it (no secrets).")
    result: Mapped[dict | None] = mapped_column(nullable=True, doc="Its summary once finished.")
    created_at: Mapped[datetime] = mapped_column(default=_now, doc="When first recorded (UTC).")
    # v4: an experiment is recorded when it starts, so an interrupted one is visible as such.
    status: Mapped[str | None] = mapped_column(
        String(16),
        nullable=True,
        doc="running | finished | failed | interrupted (null: recorded by a v3 store, finished).",
    )
    updated_at: Mapped[datetime | None] = mapped_column(
        nullable=True,
        default=_now,
        onupdate=_now,
        doc="Last written (UTC); the latest *finished* experiment is found by it.",
    )


class ExperimentRunRow(Base):
    """v4: which runs an experiment made or read, and in what role (baseline, trial, confirm, ...).

    A run can belong to several experiments (a cached run replayed by a second compare), so this is
    a link table rather than ``runs.experiment_id``, which only keeps the first.
    """

    __tablename__ = "experiment_runs"
    __table_args__ = (Index("ix_experiment_runs_run", "run_id"),)
    experiment_id: Mapped[str] = mapped_column(
        ForeignKey("experiments.id", ondelete="CASCADE"), primary_key=True, doc="The experiment."
    )
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True, doc="The run.")
    role: Mapped[str] = mapped_column(
        String(32),
        primary_key=True,
        doc="What the run was to the experiment: before | after | baseline | trial | confirm | gate | design | run.",
    )


class PromptRow(Base):
    """A composed system prompt, stored once by the hash of its exact text."""

    __tablename__ = "prompts"
    hash: Mapped[str] = mapped_column(String(80), primary_key=True, doc="sha256 of the text.")
    set_name: Mapped[str] = mapped_column(String(200), doc="The set it was composed from ('' if ad hoc).")
    template: Mapped[str] = mapped_column(String(200), doc="Template name.")
    rules: Mapped[list] = mapped_column(doc="[[rule id, variant, rule hash], ...] in prompt order.")
    tokens: Mapped[int] = mapped_column(Integer, doc="Token count (o200k_base).")
    text: Mapped[str] = mapped_column(Text, doc="The exact prompt text.")


class RunRow(Base):
    """One model × one prompt × one selection of evals × K samples."""

    __tablename__ = "runs"
    # v3: the viewer and `tuner sessions` filter by model.
    __table_args__ = (Index("ix_runs_model", "model"),)
    id: Mapped[str] = mapped_column(String(80), primary_key=True, doc="Hash of everything defining the run.")
    experiment_id: Mapped[str | None] = mapped_column(
        ForeignKey("experiments.id"), nullable=True, doc="Grouping, if any."
    )
    prompt_hash: Mapped[str] = mapped_column(ForeignKey("prompts.hash"), doc="The system prompt.")
    set_name: Mapped[str] = mapped_column(String(200), doc="Set name as the user gave it.")
    model: Mapped[str] = mapped_column(String(200), doc="litellm model string, e.g. sim/careful.")
    model_key: Mapped[str] = mapped_column(String(80), doc="Hash of model + parameters.")
    params: Mapped[dict] = mapped_column(doc="Model parameters (never API keys).")
    suite: Mapped[str] = mapped_column(String(200), doc="Suite name.")
    suite_hash: Mapped[str] = mapped_column(String(80), doc="Hash of the suite's tasks, graders, answers.")
    grader_hash: Mapped[str] = mapped_column(
        String(80), doc="Grader identity: hash of every input outside the evals that can change a verdict."
    )
    eval_ids: Mapped[list] = mapped_column(doc="The evals in the run.")
    samples: Mapped[int] = mapped_column(Integer, doc="Samples per eval (K).")
    sample_offset: Mapped[int] = mapped_column(
        Integer, default=0, doc="First sample index (fresh samples use a new offset)."
    )
    git_rev: Mapped[str | None] = mapped_column(String(64), nullable=True, doc="Git revision of the project, if any.")
    # v4: what else reaches the model or decides a simulated answer is part of the run's identity.
    inputs_hash: Mapped[str | None] = mapped_column(
        String(80),
        nullable=True,
        doc="Hash of the suite kind's answer-format text and, for sim/* models, the planted truth (null: v3 run).",
    )
    call_settings: Mapped[dict | None] = mapped_column(
        nullable=True,
        doc="How the model was called (api_base, concurrency, rpm, timeout_s, max_retries, backoff_s): not identity "
        "beyond api_base, but needed to call it again the same way.",
    )
    status: Mapped[str] = mapped_column(String(16), default="running", doc="running | complete | partial.")
    summary: Mapped[dict | None] = mapped_column(nullable=True, doc="Pass rates, counts, cache hits.")
    created_at: Mapped[datetime] = mapped_column(default=_now, doc="First started (UTC).")
    updated_at: Mapped[datetime] = mapped_column(default=_now, onupdate=_now, doc="Last written (UTC).")
    results: Mapped[list[ResultRow]] = relationship(back_populates="run", cascade="all, delete-orphan")


class ResultRow(Base):
    """One sample of one eval in one run: the model's output and its grade."""

    __tablename__ = "results"
    __table_args__ = (
        UniqueConstraint("run_id", "eval_id", "sample_index"),
        Index("ix_results_run", "run_id"),
        # v3: sessions (recorded generations) are listed newest first, one row per response_key;
        # this partial index answers "is there a newer row for this generation?" from the index alone.
        Index(
            "ix_results_session",
            "response_key",
            "id",
            sqlite_where=text("response_key IS NOT NULL"),
            postgresql_where=text("response_key IS NOT NULL"),
        ),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), doc="The run.")
    eval_id: Mapped[str] = mapped_column(String(200), doc="Eval path under evals/.")
    category: Mapped[str] = mapped_column(String(64), doc="Eval category.")
    sample_index: Mapped[int] = mapped_column(Integer, doc="Sample index (pairs results across runs).")
    outcome: Mapped[str] = mapped_column(String(16), doc="pass | fail (model) | infra (excluded from scores).")
    failed_step: Mapped[str | None] = mapped_column(String(32), nullable=True, doc="First failing step, if any.")
    output: Mapped[str | None] = mapped_column(
        Text,
        nullable=True,
        doc="The model's answer text as written, its reasoning split off (v6; before, a <think> block stayed in it).",
    )
    files: Mapped[dict | None] = mapped_column(nullable=True, doc="Parsed files {path: content}.")
    error: Mapped[str | None] = mapped_column(Text, nullable=True, doc="Infra error or parse error, first lines.")
    tests_passed: Mapped[int | None] = mapped_column(Integer, nullable=True, doc="Grader tests passed.")
    tests_total: Mapped[int | None] = mapped_column(Integer, nullable=True, doc="Grader tests run.")
    prompt_tokens: Mapped[int | None] = mapped_column(Integer, nullable=True, doc="Tokens in.")
    completion_tokens: Mapped[int | None] = mapped_column(Integer, nullable=True, doc="Tokens out.")
    cost_usd: Mapped[float | None] = mapped_column(
        Float, nullable=True, doc="Cost from litellm's price map; null if unknown."
    )
    latency_s: Mapped[float | None] = mapped_column(Float, nullable=True, doc="Provider latency.")
    response_key: Mapped[str | None] = mapped_column(String(80), nullable=True, doc="Response cache key.")
    grade_key: Mapped[str | None] = mapped_column(String(80), nullable=True, doc="Grading cache key.")
    created_at: Mapped[datetime] = mapped_column(default=_now, doc="When recorded (UTC).")
    # v2: what was sent and how it came back (null for results recorded by a v1 store).
    messages: Mapped[list | None] = mapped_column(
        nullable=True,
        doc="The messages sent, in order: "
        "{role: system, prompt_hash} (text in prompts) or {role, content} verbatim (user, tool, ...).",
    )
    response_model: Mapped[str | None] = mapped_column(
        String(200), nullable=True, doc="Model name the provider says answered."
    )
    finish_reason: Mapped[str | None] = mapped_column(
        String(32), nullable=True, doc="Provider's finish reason (stop, length, ...)."
    )
    attempts: Mapped[int | None] = mapped_column(
        Integer, nullable=True, doc="Provider calls made for it (0 = cache hit)."
    )
    # v6: an answer's parts besides its text (null for results recorded by a v5 store).
    reasoning: Mapped[str | None] = mapped_column(
        Text,
        nullable=True,
        doc="The model's reasoning, kept apart from "
        "its answer: the provider's reasoning field and any <think> block of the text (never read as files).",
    )
    tool_calls: Mapped[list | None] = mapped_column(
        nullable=True,
        doc="The tool calls of the answer, in order: "
        "[{id, name, arguments}] with arguments as the JSON text sent (the write_file answer format).",
    )
    # v7: the repair loop (``--turns N``; null for one-turn results and results of a v6 store).
    pass_turn: Mapped[int | None] = mapped_column(
        Integer,
        nullable=True,
        doc="The turn at which the answer passed (null: it failed every turn, or the run had one turn).",
    )
    turns: Mapped[list | None] = mapped_column(
        nullable=True,
        doc="Every turn of the repair loop, in order: {turn, "
        "outcome, failed_step, feedback (what the model was told next) or error, attempts, tokens, response_key}; "
        "the answers themselves are the assistant messages of ``messages`` and, last, ``output``.",
    )
    run: Mapped[RunRow] = relationship(back_populates="results")
    steps: Mapped[list[StepRow]] = relationship(
        back_populates="result", cascade="all, delete-orphan", order_by="StepRow.position"
    )


class StepRow(Base):
    """One grading step of one result."""

    __tablename__ = "steps"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    result_id: Mapped[int] = mapped_column(ForeignKey("results.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer, doc="Order in the pipeline.")
    name: Mapped[str] = mapped_column(String(32), doc="One of the suite kind's steps (SuiteKind.steps).")
    status: Mapped[str] = mapped_column(String(16), doc="pass | fail | skip | error.")
    duration_s: Mapped[float] = mapped_column(Float, default=0.0, doc="Wall time of the step.")
    detail: Mapped[str | None] = mapped_column(Text, nullable=True, doc="First lines of its error.")
    warnings: Mapped[list | None] = mapped_column(
        nullable=True, doc="v2: findings that did not fail the step (lint warnings)."
    )
    result: Mapped[ResultRow] = relationship(back_populates="steps")


class LabelRow(Base):
    """A person's label on a result (for failure analysis and exports)."""

    __tablename__ = "labels"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    result_id: Mapped[int] = mapped_column(ForeignKey("results.id", ondelete="CASCADE"), index=True)
    label: Mapped[str] = mapped_column(String(64), doc="e.g. good | bad | grader-bug | flaky.")
    note: Mapped[str] = mapped_column(Text, default="", doc="Free text.")
    author: Mapped[str] = mapped_column(String(120), default="", doc="Who labelled it.")
    created_at: Mapped[datetime] = mapped_column(default=_now, doc="When (UTC).")


# v3 ------------------------------------------------------------------------------------------------


class SessionLabelRow(Base):
    """A person's review of one session (one recorded generation), for exports and the viewer.

    Keyed by the generation, not by the result row: the same answer graded again (a new grader, a
    new run id) is the same session, so its review follows it.
    """

    __tablename__ = "session_labels"
    __table_args__ = (Index("ix_session_labels_status", "eval_status", "eval_ready"),)
    session_key: Mapped[str] = mapped_column(
        String(80),
        primary_key=True,
        doc="The generation's identity: the result's response_key (hash of model, parameters, messages, sample).",
    )
    eval_ready: Mapped[bool] = mapped_column(Boolean, default=False, doc="Whether it may be exported as an eval case.")
    eval_status: Mapped[str] = mapped_column(
        String(16), default="needs_review", doc="golden | correct | incorrect | needs_review."
    )
    eval_notes: Mapped[str] = mapped_column(Text, default="", doc="Free text from the reviewer.")
    eval_tags: Mapped[list] = mapped_column(default=list, doc="Tags, sorted and unique.")
    expected_output: Mapped[str | None] = mapped_column(
        Text, nullable=True, doc="What the answer should have been, if the reviewer gave it."
    )
    reviewed_at: Mapped[datetime | None] = mapped_column(
        nullable=True, doc="Last review (UTC); null if never reviewed."
    )


class ReportRow(Base):
    """A written report (a failure analysis of a run, a proposal of rules): where it is, what it said."""

    __tablename__ = "reports"
    __table_args__ = (Index("ix_reports_run", "run_id"),)
    id: Mapped[str] = mapped_column(String(80), primary_key=True, doc="Hash of kind, run and the analyst's identity.")
    kind: Mapped[str] = mapped_column(String(32), doc="analysis | proposal.")
    run_id: Mapped[str | None] = mapped_column(String(80), nullable=True, doc="The run it is about, if one.")
    model: Mapped[str] = mapped_column(String(200), doc="The analysed model (litellm string).")
    author_model: Mapped[str] = mapped_column(String(200), doc="The analyst or proposer model that wrote it.")
    path: Mapped[str] = mapped_column(Text, doc="Markdown file written, relative to the project.")
    body: Mapped[dict] = mapped_column(doc="The report as data (the JSON twin's content).")
    created_at: Mapped[datetime] = mapped_column(default=_now, doc="When written (UTC).")


class ApiKeyRow(Base):
    """A key for the export API. Only a hash is kept: the key itself is shown once, at creation."""

    __tablename__ = "api_keys"
    id: Mapped[str] = mapped_column(String(32), primary_key=True, doc="Public id (shown in lists, used to revoke).")
    name: Mapped[str] = mapped_column(String(200), doc="What the key is for.")
    key_hash: Mapped[str] = mapped_column(String(128), unique=True, doc="sha256 of the secret key (hex).")
    created_at: Mapped[datetime] = mapped_column(default=_now, doc="When created (UTC).")
    revoked_at: Mapped[datetime | None] = mapped_column(nullable=True, doc="When revoked (UTC); null while valid.")


# v5 ------------------------------------------------------------------------------------------------


class DesignPointRow(Base):
    """One observation of an adaptive design: one prompt x one model x one eval x one sample.

    Stored as a result of its experiment, not as a run of its own: a design sends thousands of
    distinct prompts once each, and a run (plus its result and step rows) per point made an
    ablation write tens of thousands of runs. The answer and the grade are not copied here: they
    are found by ``response_key`` (response cache) and ``grade_key`` (grading cache), and a
    re-run of the design replays them from there. A recorded pass/fail is never replaced by an
    infrastructure failure, so an interrupted design resumes where it stopped.
    """

    __tablename__ = "design_points"
    __table_args__ = (
        UniqueConstraint("experiment_id", "prompt_hash", "model_key", "inputs_key", "eval_id", "sample_index"),
        Index("ix_design_points_experiment", "experiment_id"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    experiment_id: Mapped[str] = mapped_column(
        ForeignKey("experiments.id", ondelete="CASCADE"),
        doc="The experiment (ablation, tuning study) whose design the point belongs to.",
    )
    prompt_hash: Mapped[str] = mapped_column(
        ForeignKey("prompts.hash"), doc="The system prompt sent (text in prompts)."
    )
    model_key: Mapped[str] = mapped_column(String(80), doc="Hash of model + parameters (as runs.model_key).")
    model: Mapped[str] = mapped_column(String(200), doc="litellm model string, e.g. sim/careful.")
    inputs_key: Mapped[str] = mapped_column(
        String(80),
        doc="Hash of the suite, the grader identity and the inputs hash (answer format, simulator truth): "
        "what besides prompt, model and eval decides the outcome (a run's id covers the same).",
    )
    eval_id: Mapped[str] = mapped_column(String(200), doc="Eval path under evals/.")
    category: Mapped[str] = mapped_column(String(64), doc="Eval category.")
    sample_index: Mapped[int] = mapped_column(Integer, doc="Sample index (the design's replicate plus its offset).")
    dropped: Mapped[list] = mapped_column(doc="The rule ids left out of the design's pool in this prompt, sorted.")
    outcome: Mapped[str] = mapped_column(String(16), doc="pass | fail (model) | infra (excluded, retried on resume).")
    failed_step: Mapped[str | None] = mapped_column(String(32), nullable=True, doc="First failing step, if any.")
    error: Mapped[str | None] = mapped_column(Text, nullable=True, doc="Infra or parse error, first lines.")
    response_key: Mapped[str | None] = mapped_column(
        String(80), nullable=True, doc="Response cache key of the generation."
    )
    grade_key: Mapped[str | None] = mapped_column(String(80), nullable=True, doc="Grading cache key of its grade.")
    prompt_tokens: Mapped[int | None] = mapped_column(Integer, nullable=True, doc="Tokens in.")
    completion_tokens: Mapped[int | None] = mapped_column(Integer, nullable=True, doc="Tokens out.")
    cost_usd: Mapped[float | None] = mapped_column(
        Float, nullable=True, doc="Cost from litellm's price map; null if unknown."
    )
    attempts: Mapped[int | None] = mapped_column(
        Integer, nullable=True, doc="Provider calls made for it (0 = cache hit)."
    )
    created_at: Mapped[datetime] = mapped_column(default=_now, doc="When recorded (UTC).")
