"""The comparison table: one cell per model × category (and overall), tested together.

Each cell is a paired comparison (``tuner.stats.paired_compare``: an interval of the delta
over tasks, exact McNemar p-value). All cells of the table form one family for Benjamini–Hochberg,
overall rows included, so looking at many categories and models does not manufacture discoveries.
A significant regression anywhere makes the comparison fail (exit code 1 in the CLI). A cell with
fewer measured pairs than planned (a provider or grader failure on either side) is *not measured*:
it gets no verdict, stays out of the BH family, and makes the comparison exit 4, so a CI gate never
reads an outage as "no change".
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from tuner.compare.rates import OVERALL, is_simulated, model_label
from tuner.runs.pairing import Paired
from tuner.stats import ALPHA, Estimate, bh_adjust, paired_compare, rate_interval, verdict

__all__ = ["Flip", "Cell", "SideInfo", "PlaceboArm", "Comparison", "build_cells", "finalize", "NOT_MEASURED"]

NOT_MEASURED = "not measured"


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
    repeated: int = 0  # pairs identical to an earlier one of their eval (temperature 0, a fixed seed): counted once
    expected: int | None = None  # pairs planned (evals x samples) less the repeated ones; fewer measured = not measured

    @property
    def measured(self) -> bool:
        return self.pairs > 0 and (self.expected is None or self.pairs >= self.expected)


class SideInfo(BaseModel):
    """What one side of the comparison was: a rule set run now, or a stored run."""

    token: str
    label: str
    kind: str  # "set" | "run"
    offset: int = 0
    runs: dict[str, str] = Field(default_factory=dict)  # model -> run id
    prompts: dict[str, str] = Field(default_factory=dict)  # model -> prompt hash


class PlaceboArm(BaseModel):
    """The placebo arm (``tuner.compare.placebo``): matched to which set, seed, tokens, domain, its
    runs, and its cells (placebo → after, per model × category, a BH family of their own)."""

    matches: str  # the after side's label
    seed: int
    tokens: int
    domain: str
    side: SideInfo
    cells: list[Cell] = Field(default_factory=list)


class Comparison(BaseModel):
    before: SideInfo
    after: SideInfo
    samples: int
    category: str | None
    alpha: float = ALPHA
    cells: list[Cell]
    notes: list[str] = Field(default_factory=list)
    identity: str = ""  # hash of both sides' run ids: names the report files
    placebo: PlaceboArm | None = None  # compare --placebo
    # The repair loop: turns each sample had, the turn the cells are read at, and per turn
    # [{turn, calls: {before, after}, cells: [{model, category, delta, q, verdict}]}].
    turns: int = 1
    at_turn: int = 1
    by_turn: list[dict] = Field(default_factory=list)

    @property
    def regressions(self) -> list[Cell]:
        return [c for c in self.cells if c.verdict == "regressed"]

    @property
    def improvements(self) -> list[Cell]:
        return [c for c in self.cells if c.verdict == "improved"]

    @property
    def not_measured(self) -> list[Cell]:
        return [c for c in self.cells if c.verdict == NOT_MEASURED]

    @property
    def exit_code(self) -> int:
        """1: a significant regression; 4: some cell (placebo cells too) was not measured; 0: neither."""
        placebo_missing = self.placebo is not None and any(c.verdict == NOT_MEASURED for c in self.placebo.cells)
        return 1 if self.regressions else 4 if self.not_measured or placebo_missing else 0

    @property
    def helps(self) -> list:
        """With a placebo arm: each cell against none and against the placebo (``Helps`` rows)."""
        from tuner.compare.placebo import helps_rows

        return helps_rows(self.cells, self.placebo.cells) if self.placebo is not None else []

    @property
    def simulated_models(self) -> list[str]:
        return sorted({c.model for c in self.cells if c.simulated})

    def to_json(self) -> dict:
        data = self.model_dump(mode="json")
        data.update(
            simulated_models=self.simulated_models,
            improvements=len(self.improvements),
            regressions=len(self.regressions),
            not_measured=[
                {"model": c.model_label, "category": c.category, "pairs": c.pairs, "expected": c.expected}
                for c in self.not_measured
            ],
            exit_code=self.exit_code,
        )
        if self.placebo is not None:
            data["helps"] = [row.model_dump(mode="json") for row in self.helps]
        else:
            data.pop("placebo")  # the shape a comparison without the arm always had
        return data


def _cell(spec, category: str, paired: Paired) -> Cell:
    result = paired_compare(paired.before, paired.after)
    flips = {
        ev: Flip(fail_to_pass=result.fail_to_pass.get(ev, 0), pass_to_fail=result.pass_to_fail.get(ev, 0))
        for ev in sorted(result.fail_to_pass.keys() | result.pass_to_fail.keys())
    }
    return Cell(
        model=spec.model,
        model_key=spec.key,
        model_label=model_label(spec.model, spec.params),
        simulated=is_simulated(spec.model),
        category=category,
        before=rate_interval(paired.before),
        after=rate_interval(paired.after),
        delta=result.delta,
        lo=result.lo,
        hi=result.hi,
        p_value=result.p_value,
        pairs=result.pairs,
        tasks=result.tasks,
        flips=flips,
        infra_before=paired.infra_before,
        infra_after=paired.infra_after,
        unpaired=paired.unpaired,
        repeated=paired.repeated,
        expected=None if paired.expected is None else paired.expected - paired.repeated,
    )


def build_cells(spec, by_category: dict[str, Paired], overall: Paired | None) -> list[Cell]:
    """Cells of one model: each category, then overall (when there is more than one category)."""
    cells = [_cell(spec, cat, p) for cat, p in by_category.items()]
    if overall is not None and len(by_category) > 1:
        cells.append(_cell(spec, OVERALL, overall))
    return cells


def finalize(cells: list[Cell], alpha: float = ALPHA) -> list[Cell]:
    """Adjust the measured cells' p-values together (BH) and give each cell its verdict."""
    measured = [c for c in cells if c.measured]
    qs = dict(zip((id(c) for c in measured), bh_adjust([c.p_value for c in measured])))
    return [
        c.model_copy(update={"q_value": qs[id(c)], "verdict": verdict(c.delta, qs[id(c)], alpha)})
        if id(c) in qs
        else c.model_copy(update={"q_value": None, "verdict": NOT_MEASURED})
        for c in cells
    ]
