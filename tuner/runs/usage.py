"""What runs consumed: provider calls, tokens and cost, summed from their results in one query.

Cost is litellm's price for each answer, recorded per result; a simulator or a model litellm does
not price records none. A sum over results of which some have no price would understate the cost,
so it is reported as unknown unless every answered result was priced (``priced`` says how many were).
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel
from sqlalchemy import case, func, select

from tuner.store.schema import ResultRow

__all__ = ["Usage", "run_usage", "total_usage"]


class Usage(BaseModel):
    results: int = 0
    calls: int = 0  # provider calls actually made (cache hits made none)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    priced: int = 0  # results with a known cost
    answered: int = 0  # results that hold tokens (a cost could be known)
    cost_usd: float | None = None

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def cost_known(self) -> bool:
        return self.answered > 0 and self.priced == self.answered

    def as_json(self) -> dict:
        return {"results": self.results, "calls": self.calls, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "tokens": self.tokens,
                "cost_usd": self.cost_usd if self.cost_known else None, "priced_results": self.priced}

    def cost_text(self) -> str:
        if not self.answered:
            return "n/a"
        if not self.cost_known:
            return "unknown" if not self.priced else f">= ${self.cost_usd or 0:.4f} ({self.priced}/{self.answered} priced)"
        return f"${self.cost_usd:.4f}"


def _add(a: Usage, b: Usage) -> Usage:
    cost = None if a.cost_usd is None and b.cost_usd is None else (a.cost_usd or 0) + (b.cost_usd or 0)
    return Usage(results=a.results + b.results, calls=a.calls + b.calls, prompt_tokens=a.prompt_tokens + b.prompt_tokens,
                 completion_tokens=a.completion_tokens + b.completion_tokens, priced=a.priced + b.priced,
                 answered=a.answered + b.answered, cost_usd=cost)


def total_usage(usages: Iterable[Usage]) -> Usage:
    out = Usage()
    for u in usages:
        out = _add(out, u)
    return out


def run_usage(store, run_ids: Iterable[str]) -> dict[str, Usage]:
    """{run id: Usage} for the given runs (runs without results get an empty Usage)."""
    ids = list(dict.fromkeys(run_ids))
    out = {rid: Usage() for rid in ids}
    r = ResultRow.__table__
    answered = (r.c.prompt_tokens.isnot(None)) | (r.c.completion_tokens.isnot(None))
    q = select(r.c.run_id, func.count(), func.coalesce(func.sum(r.c.attempts), 0),
               func.coalesce(func.sum(r.c.prompt_tokens), 0), func.coalesce(func.sum(r.c.completion_tokens), 0),
               func.sum(case((r.c.cost_usd.isnot(None), 1), else_=0)), func.sum(case((answered, 1), else_=0)),
               func.sum(r.c.cost_usd))
    with store.reading() as s:
        for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
            for rid, n, calls, pt, ct, priced, ans, cost in s.execute(q.where(r.c.run_id.in_(chunk)).group_by(r.c.run_id)):
                out[rid] = Usage(results=n, calls=int(calls), prompt_tokens=int(pt), completion_tokens=int(ct),
                                 priced=int(priced or 0), answered=int(ans or 0),
                                 cost_usd=None if cost is None else float(cost))
    return out
