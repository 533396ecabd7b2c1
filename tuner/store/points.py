"""An adaptive design's observations, stored as points of its experiment (schema v5).

A point is one prompt x one model x one eval x one sample. ``record_points`` follows the rule of
results: a recorded pass/fail is never replaced by an infrastructure failure, an infra outcome is
replaced by any later outcome, so re-running a design resumes it.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict
from sqlalchemy import select

from tuner.store.schema import DesignPointRow

__all__ = ["PointRecord", "PointKey"]

PointKey = tuple[str, str, str, str, int]
"""(prompt hash, model key, inputs key, eval id, sample index): a point within its experiment."""


class PointRecord(BaseModel):
    """One observation of a design (see ``DesignPointRow`` for what each field means)."""

    model_config = ConfigDict(extra="forbid", from_attributes=True)

    prompt_hash: str
    model_key: str
    model: str
    inputs_key: str
    eval_id: str
    category: str
    sample_index: int
    dropped: list[str]
    outcome: str
    failed_step: str | None = None
    error: str | None = None
    response_key: str | None = None
    grade_key: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None
    attempts: int | None = None

    @property
    def key(self) -> PointKey:
        return (self.prompt_hash, self.model_key, self.inputs_key, self.eval_id, self.sample_index)


def _key(row: DesignPointRow) -> PointKey:
    return (row.prompt_hash, row.model_key, row.inputs_key, row.eval_id, row.sample_index)


class _PointsMixin:
    """``Store`` methods for design points (kept apart so the store module stays readable)."""

    def design_points(self, exp_id: str) -> dict[PointKey, PointRecord]:
        """Every point recorded for ``exp_id``, by key."""
        with self.reading() as s:
            rows = s.execute(select(DesignPointRow).where(DesignPointRow.experiment_id == exp_id)).scalars()
            return {_key(r): PointRecord.model_validate(r) for r in rows}

    def record_points(self, exp_id: str, points: Iterable[PointRecord]) -> int:
        """Insert or update points of ``exp_id`` (which must be recorded); returns rows written."""
        from tuner.store.store import _insert_once

        points = list(points)
        if not points:
            return 0
        written = 0
        with self.session() as s:
            have = {
                _key(r): r
                for r in s.execute(
                    select(DesignPointRow).where(
                        DesignPointRow.experiment_id == exp_id,
                        DesignPointRow.eval_id.in_(sorted({p.eval_id for p in points})),
                    )
                ).scalars()
            }
            for point in points:
                row = have.get(point.key)
                if row is not None and point.outcome == "infra" and row.outcome != "infra":
                    continue  # keep what the model really did; an outage later says nothing about it
                if row is None:
                    row = DesignPointRow(experiment_id=exp_id, **point.model_dump())
                    if not _insert_once(s, row):
                        continue  # a concurrent worker recorded the same point a moment ago
                    have[point.key] = row
                else:
                    for field, value in point.model_dump().items():
                        setattr(row, field, value)
                written += 1
        return written
