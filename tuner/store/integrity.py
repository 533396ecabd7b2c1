"""Is the store consistent? The checks a crash, a kill or two racing workers could break.

Each check is one query over the recorded tables and returns the offending rows (a few examples
and their count). A store that passes has: one result per (run, eval, sample); no result, step or
label without its parent; every run marked ``complete`` holding a scored result for each of its
evals × samples and no infrastructure failure; no result outside its run's evals and sample
range; every graded result with its steps; every run's prompt stored.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tuner.hashing import short
from tuner.store.schema import LabelRow, PromptRow, ResultRow, RunRow, StepRow

__all__ = ["Problem", "IntegrityReport", "check_store"]

_EXAMPLES = 5


class Problem(BaseModel):
    check: str
    description: str
    count: int
    examples: list[str]


class IntegrityReport(BaseModel):
    store: str
    runs: int
    results: int
    problems: list[Problem]

    @property
    def ok(self) -> bool:
        return not self.problems


def _duplicates(s: Session) -> list[str]:
    q = (
        select(ResultRow.run_id, ResultRow.eval_id, ResultRow.sample_index, func.count())
        .group_by(ResultRow.run_id, ResultRow.eval_id, ResultRow.sample_index)
        .having(func.count() > 1)
    )
    return [f"run {short(r[0])} {r[1]} sample {r[2]} ×{r[3]}" for r in s.execute(q)]


def _orphan_results(s: Session) -> list[str]:
    q = select(ResultRow.id, ResultRow.run_id).where(ResultRow.run_id.not_in(select(RunRow.id)))
    return [f"result {r[0]} of unknown run {short(r[1])}" for r in s.execute(q)]


def _orphan_steps(s: Session) -> list[str]:
    q = select(StepRow.id, StepRow.result_id).where(StepRow.result_id.not_in(select(ResultRow.id)))
    return [f"step {r[0]} of unknown result {r[1]}" for r in s.execute(q)]


def _orphan_labels(s: Session) -> list[str]:
    q = select(LabelRow.id, LabelRow.result_id).where(LabelRow.result_id.not_in(select(ResultRow.id)))
    return [f"label {r[0]} of unknown result {r[1]}" for r in s.execute(q)]


def _unknown_prompts(s: Session) -> list[str]:
    q = select(RunRow.id, RunRow.prompt_hash).where(RunRow.prompt_hash.not_in(select(PromptRow.hash)))
    return [f"run {short(r[0])} names prompt {short(r[1])}" for r in s.execute(q)]


def _by_run(s: Session) -> dict[str, list[tuple[str, int, str]]]:
    out: dict[str, list[tuple[str, int, str]]] = {}
    for run_id, eval_id, sample, outcome in s.execute(
        select(ResultRow.run_id, ResultRow.eval_id, ResultRow.sample_index, ResultRow.outcome)
    ):
        out.setdefault(run_id, []).append((eval_id, sample, outcome))
    return out


def _incomplete_complete(s: Session) -> list[str]:
    """Runs marked complete that lack a scored result for some (eval, sample), or hold infra ones."""
    found = _by_run(s)
    bad = []
    for run in s.execute(select(RunRow).where(RunRow.status == "complete")).scalars():
        scored = {(e, k) for e, k, o in found.get(run.id, []) if o != "infra"}
        expected = {(e, k) for e in run.eval_ids for k in range(run.sample_offset, run.sample_offset + run.samples)}
        missing = expected - scored
        if missing:
            e, k = sorted(missing)[0]
            bad.append(f"run {short(run.id)} is complete but misses {len(missing)} result(s), e.g. {e} sample {k}")
    return bad


def _outside_run(s: Session) -> list[str]:
    """Results for an eval or sample index the run does not define."""
    found = _by_run(s)
    bad = []
    for run in s.execute(select(RunRow)).scalars():
        evals = set(run.eval_ids)
        samples = range(run.sample_offset, run.sample_offset + run.samples)
        for e, k, _ in found.get(run.id, []):
            if e not in evals or k not in samples:
                bad.append(f"run {short(run.id)} holds {e} sample {k}, outside its evals × samples")
    return bad


def _graded_without_steps(s: Session) -> list[str]:
    """A pass, or a fail past the answer's parsing, was graded: its steps must be there."""
    has_steps = select(StepRow.result_id)
    q = select(ResultRow.id, ResultRow.run_id, ResultRow.eval_id, ResultRow.outcome).where(
        ResultRow.outcome.in_(("pass", "fail")), ResultRow.id.not_in(has_steps)
    )
    return [f"result {r[0]} ({r[3]}) of run {short(r[1])} {r[2]} has no grading steps" for r in s.execute(q)]


_CHECKS: list[tuple[str, str, Callable[[Session], list[str]]]] = [
    ("duplicate-results", "more than one result for a (run, eval, sample)", _duplicates),
    ("orphan-results", "results of runs that do not exist", _orphan_results),
    ("orphan-steps", "grading steps of results that do not exist", _orphan_steps),
    ("orphan-labels", "labels of results that do not exist", _orphan_labels),
    ("unknown-prompts", "runs whose system prompt is not stored", _unknown_prompts),
    (
        "complete-but-missing",
        "runs marked complete with results missing or infrastructure failures",
        _incomplete_complete,
    ),
    ("outside-run", "results outside their run's evals × samples", _outside_run),
    ("graded-without-steps", "graded results without their grading steps", _graded_without_steps),
]


def check_store(store) -> IntegrityReport:
    """Run every check on ``store`` (a ``tuner.store.Store``)."""
    problems = []
    with store.reading() as s:
        runs = s.execute(select(func.count()).select_from(RunRow)).scalar_one()
        results = s.execute(select(func.count()).select_from(ResultRow)).scalar_one()
        for name, description, check in _CHECKS:
            found = check(s)
            if found:
                problems.append(
                    Problem(check=name, description=description, count=len(found), examples=found[:_EXAMPLES])
                )
    return IntegrityReport(store=store.url, runs=runs, results=results, problems=problems)
