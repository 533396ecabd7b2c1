"""What was spent: provider calls, tokens and cost, from what the store recorded. The one source of
these figures for the CLI's summaries (``runs list``/``runs show``), the viewer's home and
experiment pages: a command's own "spent" line counts the same calls as they are made.

Every provider call is recorded on the result (a run's) or the point (a design's) it answered, as
``attempts`` (retries included; 0 for a cache hit). So:

- **calls** are the attempts summed;
- **tokens** are those of the answers a call was made for (a cache hit sent nothing; a command's
  spent line counts the same way);
- **cost** is litellm's price of each paid answer; the simulator's price is $0 (as the plan says),
  a model litellm does not price is unknown, and a sum over answers some of which are unpriced is
  shown as a lower bound, never as the whole.

An experiment's figures are what *it* spent: the calls on the runs it made and on its design
points. A run belongs to the first experiment that linked it (the command that made it); a later
experiment that reads it again (a compare reusing a `tuner run`) lists it as reused, and its calls
are not counted twice.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from pydantic import BaseModel, Field
from sqlalchemy import case, func, select

from tuner.store.schema import DesignPointRow, ExperimentRow, ExperimentRunRow, ResultRow, RunRow

__all__ = ["Usage", "ExperimentUsage", "run_usage", "points_usage", "experiment_usage", "total_usage", "fmt_cost",
           "plural", "UsageCache"]

SIM_PREFIX = "sim/"


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 provider call``, ``2 provider calls`` (thousands separated)."""
    return f"{n:,} {word if n == 1 else words or word + 's'}"


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
        return {"results": self.results, "calls": self.calls, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "tokens": self.tokens,
                "cost_usd": round(self.cost_usd, 6) if self.cost_known else None, "priced_results": self.priced,
                "paid_results": self.paid}

    def cost_text(self) -> str:
        if self.cost_known:
            return fmt_cost(self.cost_usd)
        if not self.priced:
            return "unknown"
        return f">= {fmt_cost(self.cost_usd)} ({self.priced}/{self.paid} priced)"

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(results=self.results + other.results, calls=self.calls + other.calls,
                     prompt_tokens=self.prompt_tokens + other.prompt_tokens,
                     completion_tokens=self.completion_tokens + other.completion_tokens, paid=self.paid + other.paid,
                     priced=self.priced + other.priced, cost_usd=self.cost_usd + other.cost_usd)


def total_usage(usages: Iterable[Usage]) -> Usage:
    return sum(usages, Usage())


def _columns(t, model):
    """The aggregate columns of ``t`` (results or points); ``model`` says whether it is the simulator's."""
    # An answer is paid when a call was made for it; a store from before attempts were recorded
    # (v1: null) cannot say, so its answers count as paid (their tokens are what was bought).
    paid = t.c.attempts.is_(None) | (t.c.attempts > 0)
    priced = paid & (t.c.cost_usd.isnot(None) | model.startswith(SIM_PREFIX))
    return (func.count(), func.coalesce(func.sum(t.c.attempts), 0),
            func.coalesce(func.sum(case((paid, t.c.prompt_tokens), else_=0)), 0),
            func.coalesce(func.sum(case((paid, t.c.completion_tokens), else_=0)), 0),
            func.sum(case((paid, 1), else_=0)), func.sum(case((priced, 1), else_=0)),
            func.coalesce(func.sum(case((paid, t.c.cost_usd), else_=0.0)), 0.0))


def _usage(row) -> Usage:
    n, calls, pt, ct, paid, priced, cost = row
    return Usage(results=int(n), calls=int(calls), prompt_tokens=int(pt), completion_tokens=int(ct), paid=int(paid or 0),
                 priced=int(priced or 0), cost_usd=float(cost or 0.0))


def run_usage(store, run_ids: Iterable[str]) -> dict[str, Usage]:
    """{run id: Usage} for the given runs (runs without results get an empty Usage)."""
    ids = list(dict.fromkeys(run_ids))
    out = {rid: Usage() for rid in ids}
    r = ResultRow.__table__
    q = select(r.c.run_id, *_columns(r, RunRow.model)).join(RunRow, RunRow.id == r.c.run_id)
    with store.reading() as s:
        for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
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
        for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
            for row in s.execute(q.where(p.c.experiment_id.in_(chunk)).group_by(p.c.experiment_id)):
                out[row[0]] = _usage(row[1:])
    return out


class ExperimentUsage(BaseModel):
    """What one experiment spent, and what it read from runs other experiments made."""

    spent: Usage = Field(default_factory=Usage)  # its own runs' results + its design points
    runs: int = 0  # runs it made
    points: int = 0  # design points it recorded
    reused: Usage = Field(default_factory=Usage)  # calls recorded on the runs it reused (spent by their maker)
    reused_runs: int = 0
    owned: list[str] = Field(default_factory=list)  # the ids of the runs it made


def owners(store, run_ids: Iterable[str]) -> dict[str, str]:
    """{run id: the experiment that made it}: the first (by when it was recorded) to link it."""
    ids = list(dict.fromkeys(run_ids))
    out: dict[str, tuple] = {}
    q = (select(ExperimentRunRow.run_id, ExperimentRunRow.experiment_id, ExperimentRow.created_at)
         .join(ExperimentRow, ExperimentRow.id == ExperimentRunRow.experiment_id))
    with store.reading() as s:
        for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
            for rid, eid, when in s.execute(q.where(ExperimentRunRow.run_id.in_(chunk))):
                key = (when, eid)
                if rid not in out or key < out[rid]:
                    out[rid] = key
    return {rid: key[1] for rid, key in out.items()}


def experiment_usage(store, links: dict[str, list[str]], *, cache: "UsageCache | None" = None) -> dict[str, ExperimentUsage]:
    """{experiment id: ExperimentUsage} given each experiment's linked runs (``links``)."""
    all_runs = list(dict.fromkeys(r for rs in links.values() for r in rs))
    by_run = cache.usage(store, all_runs) if cache is not None else run_usage(store, all_runs)
    made_by = owners(store, all_runs)
    points = points_usage(store, links)
    out = {}
    for eid, runs in links.items():
        runs = list(dict.fromkeys(runs))
        mine = [r for r in runs if made_by.get(r, eid) == eid]
        other = [r for r in runs if made_by.get(r, eid) != eid]
        pts = points[eid]
        out[eid] = ExperimentUsage(spent=total_usage([by_run[r] for r in mine]) + pts, runs=len(mine), points=pts.results,
                                   reused=total_usage(by_run[r] for r in other), reused_runs=len(other), owned=mine)
    return out


def experiment_links(store, exp_ids: Iterable[str]) -> dict[str, list[str]]:
    """{experiment id: [linked run ids]}."""
    ids = list(dict.fromkeys(exp_ids))
    links: dict[str, list[str]] = defaultdict(list)
    with store.reading() as s:
        for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
            for eid, rid in s.execute(select(ExperimentRunRow.experiment_id, ExperimentRunRow.run_id)
                                      .where(ExperimentRunRow.experiment_id.in_(chunk))):
                links[eid].append(rid)
    return {e: list(dict.fromkeys(links.get(e, []))) for e in ids}


class UsageCache:
    """Usage of finished runs, kept in memory (the viewer's pages sum it for many runs at once).

    Summing a run's results reads every one of its rows, which on a large store takes long enough
    to matter when a page needs a hundred runs; a finished run's results no longer change, so its
    sum is kept, keyed by the run's last write (a resumed run is written again, so it is summed
    again). Running runs are always summed afresh.
    """

    def __init__(self, max_runs: int = 20_000):
        self._kept: dict[tuple[str, object], Usage] = {}
        self._max = max_runs

    def usage(self, store, run_ids: Iterable[str]) -> dict[str, Usage]:
        ids = list(dict.fromkeys(run_ids))
        state: dict[str, tuple[object, str]] = {}
        with store.reading() as s:
            for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
                for rid, updated, status in s.execute(select(RunRow.id, RunRow.updated_at, RunRow.status)
                                                      .where(RunRow.id.in_(chunk))):
                    state[rid] = (updated, status)
        out = {rid: self._kept[(rid, state[rid][0])] for rid in ids if rid in state and (rid, state[rid][0]) in self._kept}
        fresh = run_usage(store, [rid for rid in ids if rid not in out])
        for rid, u in fresh.items():
            out[rid] = u
            if rid in state and state[rid][1] != "running":
                if len(self._kept) >= self._max:
                    self._kept.clear()  # crude, and rare: a store with more finished runs than this
                self._kept[(rid, state[rid][0])] = u
        return out
