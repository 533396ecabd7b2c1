"""Written reports in the store (failure analyses, rule proposals): recorded once per file.

Kept beside ``Store`` rather than in it: a report is a record about a run, read and written only by
``tuner analyze`` and ``tuner propose``.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel
from sqlalchemy import select

from tuner.hashing import sha256_json
from tuner.store.schema import ReportRow

__all__ = ["ReportRecord", "save_report", "list_reports"]


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
            row = ReportRow(id=rid, kind=report.kind, run_id=report.run_id, model=report.model,
                            author_model=report.author_model, path=report.path, body=report.body)
            s.add(row)
        else:
            row.body, row.model = report.body, report.model
        s.flush()
        return _record(row)


def list_reports(store, *, kind: str | None = None, model: str | None = None, run_id: str | None = None) -> list[ReportRecord]:
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
    return ReportRecord(id=row.id, kind=row.kind, run_id=row.run_id, model=row.model, author_model=row.author_model,
                        path=row.path, body=row.body, created_at=row.created_at)
