"""The leaderboard: how each model scores with each rule set on the current suite version.

One row per model *and* prompt (the composed rule set, by its hash): a model run with no rules and
the same model with every rule are two different things, so their pass rates are never averaged
together. Per row: mean ± standard deviation of the overall pass rate over its last N complete runs
graded against this suite version (the suite hash), with the number of runs behind it. Runs of one
configuration differ by what else defines a run (samples, grader version, and with
``--include-partial`` the evals). By default only runs of the whole suite count: a run of one
category has a different difficulty, so mixing it in would compare unlike things.
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
    set_name: str
    prompt_hash: str
    mean: float | None
    sd: float | None  # None with fewer than two runs
    runs: int
    run_ids: list[str]


def _rate(run) -> float | None:
    overall = (run.summary or {}).get("overall") or {}
    return overall.get("pass_rate")


def leaderboard(store, suite_hash: str, suite_evals: list[str] | None = None, last: int = 5) -> list[LeaderboardRow]:
    """Rows best first. ``suite_evals``: when given, only runs covering all of them count."""
    needed = set(suite_evals or [])
    groups: dict[tuple[str, str], list] = {}
    for run in store.runs(suite_hash=suite_hash):  # newest first
        if run.status != "complete" or _rate(run) is None or not needed <= set(run.eval_ids):
            continue
        chosen = groups.setdefault((run.model_key, run.prompt_hash), [])
        if len(chosen) < last:
            chosen.append(run)
    rows = []
    for runs in groups.values():
        rates = [_rate(r) for r in runs]
        newest = runs[0]
        rows.append(
            LeaderboardRow(
                model=newest.model,
                model_label=model_label(newest.model, newest.params),
                simulated=is_simulated(newest.model),
                set_name=newest.set_name,
                prompt_hash=newest.prompt_hash,
                mean=statistics.fmean(rates),
                sd=statistics.stdev(rates) if len(rates) > 1 else None,
                runs=len(runs),
                run_ids=[r.id for r in runs],
            )
        )
    return sorted(rows, key=lambda r: (-(r.mean or 0.0), r.model_label, r.set_name, r.prompt_hash))
