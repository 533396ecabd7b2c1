"""Queries over results: the rows of one run a page shows, results by id, why a result failed.

Contract (every backend): results are returned as stored, detached (``ResultRecord`` with its steps
in pipeline order) or as plain dicts of their small columns; unknown ids are left out. A result's
failure text is its first failed or errored step's detail, else its own error (a parse or provider
failure).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from tuner.store.records import ResultRecord
from tuner.store.schema import ResultRow, StepRow

__all__ = ["category_rows", "eval_results", "results_by_id", "result_outlines", "failure_details", "failure_text"]

_R, _ST = ResultRow.__table__, StepRow.__table__
_FAILED = ("fail", "error")


def category_rows(store, run_id: str, category: str) -> list[dict]:
    """[{eval_id, sample_index, outcome, failed_step, error, response_key, tests_passed, tests_total,
    detail}] for one category of one run, by eval and sample; ``detail`` is the first failed step's
    detail of a result that did not pass (None otherwise)."""
    q = (
        select(
            _R.c.id,
            _R.c.eval_id,
            _R.c.sample_index,
            _R.c.outcome,
            _R.c.failed_step,
            _R.c.error,
            _R.c.response_key,
            _R.c.tests_passed,
            _R.c.tests_total,
        )
        .where(_R.c.run_id == run_id, _R.c.category == category)
        .order_by(_R.c.eval_id, _R.c.sample_index)
    )
    with store.reading() as s:
        rows = [dict(row._mapping) for row in s.execute(q)]
        details = _details(s, [m["id"] for m in rows if m["outcome"] != "pass"])
    for m in rows:
        m["detail"] = details.get(m.pop("id"))
    return rows


def _details(s, ids: list[int]) -> dict[int, str]:
    details: dict[int, str] = {}
    for chunk in (ids[i : i + 500] for i in range(0, len(ids), 500)):
        steps = s.execute(
            select(_ST.c.result_id, _ST.c.detail)
            .where(_ST.c.result_id.in_(chunk), _ST.c.status.in_(_FAILED), _ST.c.detail.isnot(None))
            .order_by(_ST.c.result_id, _ST.c.position)
        )
        for rid, detail in steps:
            details.setdefault(rid, detail)
    return details


def failure_details(store, result_ids: list[int]) -> dict[int, str]:
    """{result id: the first failed step's detail} (results without one are left out)."""
    with store.reading() as s:
        return _details(s, list(result_ids))


def eval_results(store, run_id: str, eval_id: str) -> list[ResultRecord]:
    """Every sample of one eval in one run, by sample index."""
    with store.reading() as s:
        rows = s.execute(
            select(ResultRow)
            .where(ResultRow.run_id == run_id, ResultRow.eval_id == eval_id)
            .options(selectinload(ResultRow.steps))
            .order_by(ResultRow.sample_index)
        ).scalars()
        return [ResultRecord.from_row(x) for x in rows]


def results_by_id(store, ids: list[int]) -> dict[int, ResultRecord]:
    if not ids:
        return {}
    with store.reading() as s:
        rows = s.execute(
            select(ResultRow).where(ResultRow.id.in_(ids)).options(selectinload(ResultRow.steps))
        ).scalars()
        return {x.id: ResultRecord.from_row(x) for x in rows}


def result_outlines(store, run_id: str) -> dict[tuple[str, int], dict]:
    """{(eval id, sample index): {id, eval_id, category, sample_index, outcome, failed_step}} of one run."""
    with store.reading() as s:
        rows = s.execute(
            select(_R.c.id, _R.c.eval_id, _R.c.category, _R.c.sample_index, _R.c.outcome, _R.c.failed_step).where(
                _R.c.run_id == run_id
            )
        ).all()
    return {(x.eval_id, x.sample_index): dict(x._mapping) for x in rows}


def failure_text(store, result_id: int) -> str | None:
    """The first failed step's detail, else the result's own error; None when neither says anything."""
    with store.reading() as db:
        error = db.execute(select(ResultRow.error).where(ResultRow.id == result_id)).scalar_one_or_none()
        detail = db.execute(
            select(StepRow.detail)
            .where(StepRow.result_id == result_id, StepRow.status.in_(_FAILED))
            .order_by(StepRow.position)
            .limit(1)
        ).scalar_one_or_none()
    text = (detail or error or "").strip()
    return text or None
