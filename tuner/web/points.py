"""An experiment's design points as its page shows them: a summary of the whole design and a page
of points grouped by eval.

An adaptive or screening ablation and a tune's evidence step record their observations as points of
the experiment (schema v5), not as runs, so the runs the page lists leave them out. A design can hold
thousands of points: the summary counts all of them, the table shows one page at a time, and only
when asked for (the page leads with what the design decided, not with its observations).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from pydantic import BaseModel, Field

from tuner.runs.usage import Usage

__all__ = ["PointRow", "PointsView", "POINTS_PAGE", "design_points_view"]

POINTS_PAGE = 100


class PointRow(BaseModel):
    """One point as a table row; ``session`` is its generation's key when the store holds it."""

    prompt_hash: str
    model: str
    sample_index: int
    dropped: list[str]
    outcome: str
    failed_step: str | None = None
    error: str | None = None
    session: str | None = None


class PointsView(BaseModel):
    points: int
    outcomes: dict[str, int]
    pass_rate: float | None  # pass / (pass + fail): infra outcomes measured nothing
    usage: Usage
    models: list[str]
    categories: list[str]
    # {model: {category: [passed, measured, infra]}}
    cells: dict[str, dict[str, list[int]]]
    evals: int
    offset: int
    shown: int
    page_size: int
    rows: bool = True  # whether the page of rows was asked for
    by_eval: dict[str, list[PointRow]] = Field(default_factory=dict)

    @property
    def next_offset(self) -> int | None:
        return self.offset + self.page_size if self.offset + self.shown < self.points else None

    @property
    def prev_offset(self) -> int | None:
        return max(0, self.offset - self.page_size) if self.offset else None


def _usage(points) -> Usage:
    """What the points cost, counted as every other figure is (``tuner.runs.usage``)."""
    from tuner.runs.usage import SIM_PREFIX

    paid = [p for p in points if p.attempts is None or p.attempts > 0]
    priced = [p for p in paid if p.cost_usd is not None or p.model.startswith(SIM_PREFIX)]
    return Usage(
        results=len(points),
        calls=sum(p.attempts or 0 for p in points),
        prompt_tokens=sum(p.prompt_tokens or 0 for p in paid),
        completion_tokens=sum(p.completion_tokens or 0 for p in paid),
        paid=len(paid),
        priced=len(priced),
        cost_usd=sum(p.cost_usd or 0.0 for p in priced),
    )


def _sessions_held(store, keys: list[str]) -> set[str]:
    """The keys among ``keys`` whose generation the store holds as a session (a result with its answer)."""
    from tuner.sessions import SessionFilter, iter_sessions

    held: set[str] = set()
    for chunk in (keys[i : i + 500] for i in range(0, len(keys), 500)):
        held |= {s.key for s in iter_sessions(store, SessionFilter(keys=tuple(chunk)))}
    return held


def design_points_view(
    store, exp_id: str, *, offset: int = 0, page_size: int = POINTS_PAGE, rows: bool = True
) -> PointsView | None:
    """The points of ``exp_id`` (None if it has none), with the page of rows starting at ``offset``
    (no rows unless ``rows``)."""
    points = list(store.design_points(exp_id).values())
    if not points:
        return None
    # Within an eval, the prompts that leave out fewest rules first: the full prompt, then each rule's absence.
    points.sort(key=lambda p: (p.eval_id, len(p.dropped), p.dropped, p.model, p.sample_index, p.inputs_key))
    outcomes = Counter(p.outcome for p in points)
    measured = outcomes["pass"] + outcomes["fail"]
    cells: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for p in points:
        cell = cells[p.model][p.category]
        if p.outcome == "infra":
            cell[2] += 1
        else:
            cell[0] += p.outcome == "pass"
            cell[1] += 1
    offset = min(max(0, offset), (len(points) - 1) // page_size * page_size)
    page = points[offset : offset + page_size] if rows else []
    held = _sessions_held(store, sorted({p.response_key for p in page if p.response_key}))
    by_eval: dict[str, list[PointRow]] = defaultdict(list)
    for p in page:
        by_eval[p.eval_id].append(
            PointRow(
                prompt_hash=p.prompt_hash,
                model=p.model,
                sample_index=p.sample_index,
                dropped=p.dropped,
                outcome=p.outcome,
                failed_step=p.failed_step,
                error=p.error,
                session=p.response_key if p.response_key in held else None,
            )
        )
    return PointsView(
        points=len(points),
        outcomes=dict(outcomes),
        pass_rate=outcomes["pass"] / measured if measured else None,
        usage=_usage(points),
        models=sorted(cells),
        categories=sorted({p.category for p in points}),
        cells={m: dict(c) for m, c in cells.items()},
        evals=len({p.eval_id for p in points}),
        offset=offset,
        shown=len(page),
        page_size=page_size,
        by_eval=dict(by_eval),
        rows=rows,
    )
