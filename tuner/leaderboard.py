"""The leaderboard: how each model scores on the current suite version, run after run.

Per model: mean ± standard deviation of the overall pass rate over its last N complete runs graded
against this suite version (the suite hash), with the number of runs behind it. By default only runs
of the whole suite count: a run of one category has a different difficulty, so mixing it in would
compare unlike things. The spread across runs shows how much a single run's score can be trusted.
"""

from __future__ import annotations

import statistics

from pydantic import BaseModel

from tuner.compare.rates import is_simulated, model_label

__all__ = ["LeaderboardRow", "leaderboard"]


class LeaderboardRow(BaseModel):
    model: str
    model_label: str
    simulated: bool
    mean: float | None
    sd: float | None  # None with fewer than two runs
    runs: int
    sets: list[str]
    run_ids: list[str]


def _rate(run) -> float | None:
    overall = (run.summary or {}).get("overall") or {}
    return overall.get("pass_rate")


def leaderboard(store, suite_hash: str, suite_evals: list[str] | None = None, last: int = 5) -> list[LeaderboardRow]:
    """Rows best first. ``suite_evals``: when given, only runs covering all of them count."""
    needed = set(suite_evals or [])
    by_model: dict[str, list] = {}
    for run in store.runs(suite_hash=suite_hash):  # newest first
        if run.status != "complete" or _rate(run) is None or not needed <= set(run.eval_ids):
            continue
        chosen = by_model.setdefault(run.model_key, [])
        if len(chosen) < last:
            chosen.append(run)
    rows = []
    for runs in by_model.values():
        rates = [_rate(r) for r in runs]
        model = runs[0].model
        rows.append(
            LeaderboardRow(
                model=model, model_label=model_label(model, runs[0].params), simulated=is_simulated(model),
                mean=statistics.fmean(rates), sd=statistics.stdev(rates) if len(rates) > 1 else None,
                runs=len(runs), sets=sorted({r.set_name for r in runs}), run_ids=[r.id for r in runs],
            )
        )
    return sorted(rows, key=lambda r: (-(r.mean or 0.0), r.model_label))
