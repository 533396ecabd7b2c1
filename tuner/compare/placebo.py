"""The placebo arm of a comparison: every "helps" against none *and* against a length-matched placebo.

The placebo (``tuner.guidelines.placebo``) has the after set's template and token count and rules
of another domain. Its cells pair the placebo run with the after run (same evals, same sample
positions) and use the compare's own paired statistics (``build_cells``: cluster-robust Δ interval,
exact McNemar p).

Error control. The placebo cells are one Benjamini–Hochberg family of their own, apart from the
before → after table, so adding the arm never changes a before → after verdict or exit code. A
"helps beyond priming" claim needs both: after improved against before *and* against the placebo.
That is an intersection–union test: the claim is false only if one of the two nulls is true, and
each family keeps its own error at ``alpha``, so the claim's error is at most ``alpha`` with no
further correction. In a world where the placebo is as good as the set (the calibration test's
A/A world), every placebo null is true and BH then bounds the chance of *any* "beats placebo" claim
in the table by ``alpha``.
"""

from __future__ import annotations

from pydantic import BaseModel

from tuner.compare.table import NOT_MEASURED, Cell, finalize
from tuner.stats import ALPHA

__all__ = ["Helps", "finalize_arms", "helps_rows", "BEYOND", "NO_MORE", "claim_of"]

BEYOND = "helps beyond priming"
NO_MORE = "helps, but no more than the placebo"


class Helps(BaseModel):
    """One model × category: after against none (before) and against the placebo."""

    model_label: str
    category: str
    vs_none: str | None
    delta_none: float | None
    q_none: float | None
    vs_placebo: str | None
    delta_placebo: float | None
    q_placebo: float | None
    claim: str


def finalize_arms(main: list[Cell], placebo: list[Cell], alpha: float = ALPHA) -> tuple[list[Cell], list[Cell]]:
    """The before → after cells and the placebo → after cells, each BH-adjusted as its own family."""
    return finalize(main, alpha), finalize(placebo, alpha)


def claim_of(vs_none: str | None, vs_placebo: str | None) -> str:
    """What may be said of one cell: both verdicts read together."""
    if NOT_MEASURED in (vs_none, vs_placebo):
        return NOT_MEASURED
    if vs_none != "improved":
        return "no help to check"
    return BEYOND if vs_placebo == "improved" else NO_MORE


def helps_rows(main: list[Cell], placebo: list[Cell]) -> list[Helps]:
    """One row per cell of ``main``, with its placebo cell (same model and category)."""
    by_key = {(c.model_key, c.category): c for c in placebo}
    rows = []
    for c in main:
        p = by_key.get((c.model_key, c.category))
        rows.append(
            Helps(
                model_label=c.model_label,
                category=c.category,
                vs_none=c.verdict,
                delta_none=c.delta,
                q_none=c.q_value,
                vs_placebo=p.verdict if p else None,
                delta_placebo=p.delta if p else None,
                q_placebo=p.q_value if p else None,
                claim=claim_of(c.verdict, p.verdict if p else NOT_MEASURED),
            )
        )
    return rows
