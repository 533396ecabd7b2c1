"""Evidence tables shared by tuning, ablation and publishing.

``paired_table`` turns two sets of runs (same models, evals and sample indices) into per model ×
category rows: both rates with their intervals (tuner.stats) and the paired difference, with
Benjamini–Hochberg q-values across the whole table.
"""

from __future__ import annotations

from pydantic import BaseModel

from tuner.compare.rates import model_label
from tuner.runs import outcomes_by_task, pair_outcomes
from tuner.stats import Estimate, PairedResult, bh_adjust, paired_compare, rate_interval, verdict

__all__ = ["CategoryRow", "by_category", "paired_table", "apply_bh"]


class CategoryRow(BaseModel):
    model: str
    category: str
    before: Estimate
    after: Estimate
    paired: PairedResult
    infra: int = 0  # results of either side lost to an infrastructure failure: the row is then not measured

    @property
    def measured(self) -> bool:
        return self.infra == 0 and self.paired.pairs > 0


def apply_bh(results: list[PairedResult]) -> None:
    """Fill ``q_value`` and ``verdict`` in place, adjusting across all of ``results``."""
    for r, q in zip(results, bh_adjust([r.p_value for r in results])):
        r.q_value = q
        r.verdict = verdict(r.delta, q)


def by_category(results: list) -> dict[str, list]:
    """Results grouped by category (one pass; the per-category helpers then read only their own)."""
    out: dict[str, list] = {}
    for r in results:
        out.setdefault(r.category, []).append(r)
    return out


def paired_table(before_runs: dict, after_runs: dict, categories: list[str] | None = None) -> list[CategoryRow]:
    """``before_runs``/``after_runs``: {model key: RunOutcome} for the same models. ``categories``:
    a row for each of these, measured or not (default: the categories either side has results in)."""
    rows: list[CategoryRow] = []
    for key, after in after_runs.items():
        before = before_runs[key]
        b_by, a_by = by_category(before.results), by_category(after.results)
        cats = categories or sorted(set(a_by) | set(b_by))
        for cat in cats:
            bs, as_ = b_by.get(cat, []), a_by.get(cat, [])
            b, a = pair_outcomes(bs, as_, cat)
            rows.append(
                CategoryRow(
                    model=model_label(after.run.model, after.run.params),
                    category=cat,
                    before=rate_interval(outcomes_by_task(bs, cat)),
                    after=rate_interval(outcomes_by_task(as_, cat)),
                    paired=paired_compare(b, a),
                    infra=sum(r.outcome == "infra" for r in (*bs, *as_)),
                )
            )
    apply_bh([row.paired for row in rows])
    return rows
