"""Written reports in the store (failure analyses, rule proposals): recorded once per file.

Kept beside ``Store`` rather than in it: a report is a record about a run, written only by
``tuner analyze`` and ``tuner propose``.

Contract (every backend): ``save_report`` inserts or replaces the report written to a file (the same
kind, run, author and path is the same report); ``list_reports`` lists reports oldest first, filtered
by kind, model or run; ``report_heads`` lists the newest reports' small columns (no body) for pages.
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from pydantic import BaseModel
from sqlalchemy import select

from tuner.hashing import sha256_json
from tuner.store.schema import ReportRow

__all__ = ["ReportRecord", "ReportHead", "save_report", "list_reports", "report_heads"]


class ReportRecord(BaseModel):
    id: str = ""
    kind: str
    run_id: str | None
    model: str
    author_model: str
    path: str
    body: dict
    created_at: datetime | None = None


def save_report(store, report: ReportRecord) -> ReportRecord:
    """Insert or replace the report written to ``report.path`` (the same file is the same report)."""
    rid = sha256_json({"kind": report.kind, "run": report.run_id, "author": report.author_model, "path": report.path})
    with store.session() as s:
        row = s.get(ReportRow, rid)
        if row is None:
            row = ReportRow(
                id=rid,
                kind=report.kind,
                run_id=report.run_id,
                model=report.model,
                author_model=report.author_model,
                path=report.path,
                body=report.body,
            )
            s.add(row)
        else:
            row.body, row.model = report.body, report.model
        s.flush()
        return _record(row)


def list_reports(
    store, *, kind: str | None = None, model: str | None = None, run_id: str | None = None
) -> list[ReportRecord]:
    """Reports, oldest first."""
    with store.reading() as s:
        q = select(ReportRow).order_by(ReportRow.created_at, ReportRow.id)
        if kind:
            q = q.where(ReportRow.kind == kind)
        if model:
            q = q.where(ReportRow.model == model)
        if run_id:
            q = q.where(ReportRow.run_id == run_id)
        return [_record(r) for r in s.execute(q).scalars()]


def _record(row: ReportRow) -> ReportRecord:
    return ReportRecord(
        id=row.id,
        kind=row.kind,
        run_id=row.run_id,
        model=row.model,
        author_model=row.author_model,
        path=row.path,
        body=row.body,
        created_at=row.created_at,
    )


class ReportHead(NamedTuple):
    id: str
    kind: str
    run_id: str | None
    model: str
    path: str
    created_at: datetime


def report_heads(store, limit: int) -> list[ReportHead]:
    """The newest ``limit`` reports, newest first, without their bodies."""
    with store.reading() as s:
        rows = s.execute(
            select(
                ReportRow.id, ReportRow.kind, ReportRow.run_id, ReportRow.model, ReportRow.path, ReportRow.created_at
            )
            .order_by(ReportRow.created_at.desc())
            .limit(limit)
        ).all()
    return [ReportHead(*r) for r in rows]
