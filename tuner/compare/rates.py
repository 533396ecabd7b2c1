"""Pass rates per category and overall, each with a 95% interval (tasks are the unit).

Results become ``{eval id: [pass?, ...]}`` maps in sample-index order; infrastructure failures are
left out of the maps (they say nothing about the model) and counted on the side.
"""

from __future__ import annotations

from pydantic import BaseModel

from tuner.models.labels import is_simulated, model_label
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
        RateRow(
            category=OVERALL,
            estimate=rate_interval(outcomes_by_task(results)),
            infra=sum(r.outcome == "infra" for r in results),
        )
    )
    return rows
