"""What `tune` reports: the winner, its confirmation, the decision, and which rules do what."""

from __future__ import annotations

from pydantic import BaseModel, Field

from tuner.ablation.effects import Effect as RuleEffect
from tuner.tuning.acceptance import Acceptance
from tuner.tuning.evidence import CategoryRow
from tuner.tuning.records import Confirmation, Evidence, PlaceboArm, Screening

__all__ = ["Acceptance", "RuleEffect", "TuneReport"]


class TuneReport(BaseModel):
    """One tune invocation's result: recorded as the experiment's result, printed by ``--json``."""

    study: str = Field(description="The study's name (``publish --from`` takes it).")
    category: str = Field(description="The target category.")
    baseline: str = Field(description="Where the baseline came from: a published name or a set.")
    trials: int = Field(description="Complete trials of the study: the selections the regression check measured.")
    best_trial: int | None = Field(description="The winner's trial number; None when nothing was recorded.")
    baseline_selection: dict[str, str] = Field(description="The baseline's rules {id: phrasing}.")
    best_selection: dict[str, str] = Field(description="The winner's rules (the baseline's when nothing changed).")
    baseline_tokens: int = Field(description="The baseline prompt's tokens.")
    best_tokens: int = Field(description="The winner prompt's tokens.")
    fresh: list[CategoryRow] = Field(description="Confirmation rows on fresh samples of the tuning evals.")
    held_out: list[CategoryRow] = Field(description="Confirmation rows on the held-out evals.")
    rule_effects: list[RuleEffect] = Field(
        description="The screening's verdict on every rule and phrasing of the pool."
    )
    importance: dict[str, float] = Field(
        description="PED-ANOVA importance over the study's trials ({} under 4 distinct ones, as the check records 1-3)."
    )
    found_helpful: list[str] = Field(description="Rules (and phrasings) decided to help the target.")
    found_harmful: list[str] = Field(description="Rules decided to hurt some category.")
    calls: int = Field(description="Every provider call of this invocation, whichever phase made it.")
    evidence: Evidence | None = Field(default=None, description="Where the rule effects came from.")
    confirmation: Confirmation | None = Field(default=None, description="How the confirmation ran (or why not).")
    tolerance: float = Field(description="The study's non-inferiority margin (``TuneConfig.tolerance``).")
    acceptance: Acceptance | None = Field(
        default=None, description="Whether the winner may be offered (``tuner.tuning.acceptance``)."
    )
    screening: Screening | None = Field(default=None, description="The screening's record (``tuning/screen.py``).")
    placebo: PlaceboArm | None = Field(
        default=None, description="tune --placebo: the winner against a length-matched placebo; None without it."
    )

    @property
    def accepted(self) -> bool:
        return self.acceptance is not None and self.acceptance.accepted
