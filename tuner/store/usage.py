"""What the store recorded as spent: provider calls, tokens and cost, summed per run or per experiment's
design points (``tuner.runs.usage`` says how the figures are read and adds them up per experiment).

Contract (every backend): every provider call is recorded on the result (a run's) or the point (a
design's) it answered, as ``attempts`` (retries included; 0 for a cache hit; null in a store from
before attempts were recorded, which counts as paid). ``run_usage`` and ``points_usage`` return a
``Usage`` for every id asked for (empty when nothing is recorded): calls are the attempts summed;
tokens and cost those of the paid answers; an answer is priced when its cost is known or its model
is the simulator's (``sim/``, $0). ``run_states`` gives each stored run's last write and status.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from pydantic import BaseModel
from sqlalchemy import case, func, select

from tuner.store.schema import DesignPointRow, ResultRow, RunRow

__all__ = ["SIM_PREFIX", "Usage", "fmt_cost", "run_usage", "points_usage", "run_states", "total_usage"]

SIM_PREFIX = "sim/"


def fmt_cost(usd: float | None) -> str:
    """A cost as every summary prints it (``None``: unknown)."""
    return "unknown" if usd is None else f"${usd:,.4f}"


class Usage(BaseModel):
    results: int = 0  # results or points counted
    calls: int = 0  # provider calls made (cache hits made none)
    prompt_tokens: int = 0  # tokens of the answers a call was made for
    completion_tokens: int = 0
    paid: int = 0  # results or points a call was made for
    priced: int = 0  # of those, the ones whose price is known (the simulator's is $0)
    cost_usd: float = 0.0  # the priced ones' cost

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def cost_known(self) -> bool:
        return self.priced == self.paid

    def as_json(self) -> dict:
        return {
            "results": self.results,
            "calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "tokens": self.tokens,
            "cost_usd": round(self.cost_usd, 6) if self.cost_known else None,
            "priced_results": self.priced,
            "paid_results": self.paid,
        }

    def cost_text(self) -> str:
        if self.cost_known:
            return fmt_cost(self.cost_usd)
        if not self.priced:
            return "unknown"
        return f">= {fmt_cost(self.cost_usd)} ({self.priced}/{self.paid} priced)"

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(
            results=self.results + other.results,
            calls=self.calls + other.calls,
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            paid=self.paid + other.paid,
            priced=self.priced + other.priced,
            cost_usd=self.cost_usd + other.cost_usd,
        )


def _columns(t, model):
    """The aggregate columns of ``t`` (results or points); ``model`` says whether it is the simulator's."""
    # An answer is paid when a call was made for it; a store from before attempts were recorded
    # (v1: null) cannot say, so its answers count as paid (their tokens are what was bought).
    paid = t.c.attempts.is_(None) | (t.c.attempts > 0)
    priced = paid & (t.c.cost_usd.isnot(None) | model.startswith(SIM_PREFIX))
    return (
        func.count(),
        func.coalesce(func.sum(t.c.attempts), 0),
        func.coalesce(func.sum(case((paid, t.c.prompt_tokens), else_=0)), 0),
        func.coalesce(func.sum(case((paid, t.c.completion_tokens), else_=0)), 0),
        func.sum(case((paid, 1), else_=0)),
        func.sum(case((priced, 1), else_=0)),
        func.coalesce(func.sum(case((paid, t.c.cost_usd), else_=0.0)), 0.0),
    )


def _usage(row) -> Usage:
    n, calls, pt, ct, paid, priced, cost = row
    return Usage(
        results=int(n),
        calls=int(calls),
        prompt_tokens=int(pt),
        completion_tokens=int(ct),
        paid=int(paid or 0),
        priced=int(priced or 0),
        cost_usd=float(cost or 0.0),
    )


def total_usage(usages: Iterable[Usage]) -> Usage:
    return sum(usages, Usage())


def run_usage(store, run_ids: Iterable[str]) -> dict[str, Usage]:
    """{run id: Usage} for the given runs (runs without results get an empty Usage)."""
    ids = list(dict.fromkeys(run_ids))
    out = {rid: Usage() for rid in ids}
    r = ResultRow.__table__
    q = select(r.c.run_id, *_columns(r, RunRow.model)).join(RunRow, RunRow.id == r.c.run_id)
    with store.reading() as s:
        for chunk in (ids[i : i + 500] for i in range(0, len(ids), 500)):
            for row in s.execute(q.where(r.c.run_id.in_(chunk)).group_by(r.c.run_id)):
                out[row[0]] = _usage(row[1:])
    return out


def points_usage(store, exp_ids: Iterable[str]) -> dict[str, Usage]:
    """{experiment id: Usage} of its design points (experiments without points get an empty Usage)."""
    ids = list(dict.fromkeys(exp_ids))
    out = {e: Usage() for e in ids}
    p = DesignPointRow.__table__
    q = select(p.c.experiment_id, *_columns(p, p.c.model))
    with store.reading() as s:
        for chunk in (ids[i : i + 500] for i in range(0, len(ids), 500)):
            for row in s.execute(q.where(p.c.experiment_id.in_(chunk)).group_by(p.c.experiment_id)):
                out[row[0]] = _usage(row[1:])
    return out


def run_states(store, run_ids: Iterable[str]) -> dict[str, tuple[datetime, str]]:
    """{run id: (last written, status)} for the given runs that are stored."""
    ids = list(dict.fromkeys(run_ids))
    state: dict[str, tuple[datetime, str]] = {}
    with store.reading() as s:
        for chunk in (ids[i : i + 500] for i in range(0, len(ids), 500)):
            for rid, updated, status in s.execute(
                select(RunRow.id, RunRow.updated_at, RunRow.status).where(RunRow.id.in_(chunk))
            ):
                state[rid] = (updated, status)
    return state
