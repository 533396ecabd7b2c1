"""Pass rates per category and overall, each with a 95% interval (tasks are the unit).

Results become ``{eval id: [pass?, ...]}`` maps in sample-index order; infrastructure failures are
left out of the maps (they say nothing about the model) and counted on the side.
"""

from __future__ import annotations


from pydantic import BaseModel

from tuner.runs.runner import outcomes_by_task
from tuner.stats import Estimate, rate_interval
from tuner.store import ResultRecord

__all__ = ["OVERALL", "RateRow", "rate_rows", "is_simulated", "model_label"]

OVERALL = "overall"


class RateRow(BaseModel):
    """One category (or ``overall``) of one run."""

    category: str
    estimate: Estimate
    infra: int


def is_simulated(model: str) -> bool:
    from tuner.models.panel import is_sim_model

    return is_sim_model(model)


def model_label(model: str, params: dict | None = None) -> str:
    """A readable name for a model *and its parameters* (one model at two temperatures is two
    rows); simulated models are always named as such, in every output."""
    shown = ", ".join(f"{k}={params[k]}" for k in sorted(params or {}) if k != "sim_file")
    name = f"{model} [{shown}]" if shown else model
    return f"{name} (simulator)" if is_simulated(model) else name


def rate_rows(results: list[ResultRecord], categories: list[str] | None = None) -> list[RateRow]:
    """One row per category present (in ``categories`` order when given), then ``overall``."""
    present = {r.category for r in results}
    order = [c for c in (categories or []) if c in present] + sorted(present - set(categories or []))
    rows = [
        RateRow(
            category=cat,
            estimate=rate_interval(outcomes_by_task(results, cat)),
            infra=sum(1 for r in results if r.category == cat and r.outcome == "infra"),
        )
        for cat in order
    ]
    rows.append(
        RateRow(category=OVERALL, estimate=rate_interval(outcomes_by_task(results)), infra=sum(r.outcome == "infra" for r in results))
    )
    return rows
