"""The comparison table: one cell per model × category (and overall), tested together.

Each cell is a paired comparison (``tuner.stats.paired_compare``: bootstrap interval of the delta
over tasks, exact McNemar p-value). All cells of the table form one family for Benjamini–Hochberg,
overall rows included, so looking at many categories and models does not manufacture discoveries.
A significant regression anywhere makes the comparison fail (exit code 1 in the CLI).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from tuner.compare.pairing import Paired
from tuner.compare.rates import OVERALL, is_simulated, model_label
from tuner.stats import ALPHA, Estimate, bh_adjust, paired_compare, rate_interval, verdict

__all__ = ["Flip", "Cell", "SideInfo", "Comparison", "build_cells", "finalize"]


class Flip(BaseModel):
    fail_to_pass: int = 0
    pass_to_fail: int = 0


class Cell(BaseModel):
    model: str
    model_key: str = ""  # hash of model + parameters: what identifies a model (and groups rows)
    model_label: str
    simulated: bool
    category: str
    before: Estimate
    after: Estimate
    delta: float | None
    lo: float | None
    hi: float | None
    p_value: float
    q_value: float | None = None
    verdict: str | None = None
    pairs: int
    tasks: int
    flips: dict[str, Flip] = Field(default_factory=dict)  # eval id -> flips (only evals that flipped)
    infra_before: int = 0
    infra_after: int = 0
    unpaired: int = 0


class SideInfo(BaseModel):
    """What one side of the comparison was: a rule set run now, or a stored run."""

    token: str
    label: str
    kind: str  # "set" | "run"
    offset: int = 0
    runs: dict[str, str] = Field(default_factory=dict)  # model -> run id
    prompts: dict[str, str] = Field(default_factory=dict)  # model -> prompt hash


class Comparison(BaseModel):
    before: SideInfo
    after: SideInfo
    samples: int
    category: str | None
    alpha: float = ALPHA
    cells: list[Cell]
    notes: list[str] = Field(default_factory=list)
    identity: str = ""  # hash of both sides' run ids: names the report files

    @property
    def regressions(self) -> list[Cell]:
        return [c for c in self.cells if c.verdict == "regressed"]

    @property
    def improvements(self) -> list[Cell]:
        return [c for c in self.cells if c.verdict == "improved"]

    @property
    def exit_code(self) -> int:
        return 1 if self.regressions else 0

    @property
    def simulated_models(self) -> list[str]:
        return sorted({c.model for c in self.cells if c.simulated})

    def to_json(self) -> dict:
        data = self.model_dump(mode="json")
        data.update(
            simulated_models=self.simulated_models,
            improvements=len(self.improvements),
            regressions=len(self.regressions),
            exit_code=self.exit_code,
        )
        return data


def _cell(spec, category: str, paired: Paired) -> Cell:
    result = paired_compare(paired.before, paired.after)
    flips = {
        ev: Flip(fail_to_pass=result.fail_to_pass.get(ev, 0), pass_to_fail=result.pass_to_fail.get(ev, 0))
        for ev in sorted(result.fail_to_pass.keys() | result.pass_to_fail.keys())
    }
    return Cell(
        model=spec.model, model_key=spec.key, model_label=model_label(spec.model, spec.params),
        simulated=is_simulated(spec.model), category=category,
        before=rate_interval(paired.before), after=rate_interval(paired.after),
        delta=result.delta, lo=result.lo, hi=result.hi, p_value=result.p_value,
        pairs=result.pairs, tasks=result.tasks, flips=flips,
        infra_before=paired.infra_before, infra_after=paired.infra_after, unpaired=paired.unpaired,
    )


def build_cells(spec, by_category: dict[str, Paired], overall: Paired | None) -> list[Cell]:
    """Cells of one model: each category, then overall (when there is more than one category)."""
    cells = [_cell(spec, cat, p) for cat, p in by_category.items()]
    if overall is not None and len(by_category) > 1:
        cells.append(_cell(spec, OVERALL, overall))
    return cells


def finalize(cells: list[Cell], alpha: float = ALPHA) -> list[Cell]:
    """Adjust the whole table's p-values together (BH) and give each cell its verdict."""
    qs = bh_adjust([c.p_value for c in cells])
    return [c.model_copy(update={"q_value": q, "verdict": verdict(c.delta, q, alpha)}) for c, q in zip(cells, qs)]
