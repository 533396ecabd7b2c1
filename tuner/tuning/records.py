"""What tune's steps hand each other, typed: screen → check → confirmation → acceptance → placebo → report.

Each record dumps to the JSON tune has always written (the store's experiment result, ``--json``,
the viewer's reads of them): the field names are the former dict keys. A few records gained keys
with defaults (a ``none`` confirmation now lists its empty rounds, a screening its empty ``leads``);
readers of older results use ``.get`` and are unaffected.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tuner.compare.table import Cell
from tuner.tuning.noninferior import NonInferior
from tuner.tuning.scoring import TrialScore

__all__ = [
    "Change",
    "Checked",
    "Confirmation",
    "EngineSpent",
    "Evidence",
    "PlaceboArm",
    "Screening",
    "Trial",
    "apply_changes",
]


class Change(BaseModel):
    """One change to the baseline's rules that the screening speaks for."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["add", "drop", "variant"] = Field(
        description="add a pool rule, drop a baseline rule, or switch a rule to another phrasing."
    )
    rule: str = Field(description="The rule id.")
    variant: str | None = Field(default=None, description="The phrasing it adds or switches to (None for a drop).")

    def describe(self) -> str:
        """How the report names it: ``rule@variant``, ``add rule``, ``drop rule``."""
        return f"{self.rule}@{self.variant}" if self.kind == "variant" else f"{self.kind} {self.rule}"


def apply_changes(selection: dict[str, str], changes: list[Change]) -> dict[str, str]:
    """``selection`` ({rule id: phrasing}) with ``changes`` applied in order, sorted by rule id."""
    out = dict(selection)
    for change in changes:
        if change.kind == "drop":
            out.pop(change.rule, None)
        else:
            out[change.rule] = change.variant or "default"
    return dict(sorted(out.items()))


class Trial(BaseModel):
    """A selection the study recorded (the check's baseline and candidates), read back from the study."""

    number: int = Field(description="The study's trial number.")
    complete: bool = Field(description="Measured (COMPLETE); False when nothing could be measured (FAIL).")
    value: float | None = Field(description="The target category's pooled pass rate at the check's samples.")
    selection: dict[str, str] = Field(description="Its rules: {rule id: phrasing}.")
    baseline: bool = Field(description="The baseline itself.")
    feasible: bool = Field(description="No drop established in another category, every answer measured.")
    tokens: int = Field(description="Its prompt's tokens.")
    calls: int = Field(description="Provider calls paid when it was measured.")
    run_ids: list[str] = Field(description="Its runs, one per model.")


class Checked(BaseModel):
    """What the regression check (``screen.check``) found."""

    winner: dict[str, str] | None = Field(
        default=None, description="The first candidate that passed; None: every candidate refused, or nothing to check."
    )
    trials: int = Field(default=0, description="Selections measured on every tuning eval, the baseline included.")
    refused: list[list[str]] = Field(
        default=[], description="Per refused candidate, the cells whose drop was established."
    )
    not_measured: list[str] = Field(default=[], description="Cells that lost an answer (the check then stops).")
    scores: list[TrialScore] = Field(default=[], description="Each candidate's score, in order.")
    calls: int = Field(default=0, description="Calls the check makes at most (replays included).")
    new_calls: int = Field(default=0, description="Calls paid now.")


class EngineSpent(BaseModel):
    """What the rule-effect engine spent on the screening (``tuner.ablation.engine_effects``)."""

    delta0: float = Field(description="The zone's edge of 'no meaningful effect'.")
    delta: float = Field(description="The effect the zone must decide with power 1 - beta.")
    alpha: float = Field(description="Error rate of a wrong-signed or false verdict.")
    beta: float = Field(description="1 - power at delta.")
    budget_calls: int = Field(description="The screening's share of the cap.")
    rounds: int = Field(description="Looks taken.")
    stopped: str | None = Field(description="Why it stopped (budget, decided, enough ...).")
    calls: int = Field(description="Calls made (replays included).")
    new_calls: int = Field(description="Calls paid now.")
    looks: list[int] = Field(default=[], description="Planned replicates at each look.")
    spending: str = Field(default="obrien-fleming", description="The error-spending function.")
    lost: int = Field(default=0, description="Answers lost to provider or grader failures.")


class Screening(BaseModel):
    """The screening's record: what the engine found on the target, the changes taken, the check."""

    model_config = ConfigDict(serialize_by_alias=True, validate_by_name=True)

    design: Literal["effects"] = Field(default="effects", description="The engine's effect design.")
    factors: int = Field(description="Questions screened per model: the pool's rules and their other phrasings.")
    target_evals: int = Field(description="The target's tuning evals it ran on.")
    baseline_rate: float = Field(description="The baseline's pass rate on them at the trials' samples.")
    chosen_by: Literal["decided", "promising", "none"] = Field(
        description="decided: verdicts; promising: no verdict, the best bet; none: nothing to try."
    )
    changes: list[str] = Field(description="The winner's changes, best first (``Change.describe``).")
    helped: list[str] = Field(description="Cells decided in the target's favour.")
    engine: EngineSpent = Field(description="What the engine spent.")
    candidates: int = Field(description="Selections the check would try.")
    checked: int = Field(description="Selections the check measured (the baseline included).")
    winner: dict[str, str] | None = Field(description="The check's winner; None: nothing passed, or nothing to check.")
    not_measured: list[str] = Field(description="Cells the check could not measure.")
    refused: list[list[str]] = Field(description="Per refused candidate, the cells that refused it.")
    calls: int = Field(description="The baseline's, the engine's and the check's calls (replays included).")
    new_calls: int = Field(description="Of those, paid now.")
    leads: list[dict] = Field(
        default=[],
        description="When not accepted: the leading open questions and the cap each "
        "needs (``tuner.planning.commands.open_leads``).",
    )
    continue_: str | None = Field(
        default=None, alias="continue", description="The command that goes on with the cap the leading question needs."
    )


class Confirmation(BaseModel):
    """The sequential confirmation on fresh samples (``confirmation.confirm``), or why it did not run."""

    design: Literal["sequential", "none"] = Field(description="none: nothing to confirm (no change, or not measured).")
    samples_per_round: list[int] = Field(default=[], description="Samples per eval drawn in each round.")
    planned_rounds: list[int] = Field(default=[], description="The rounds planned before the first call.")
    offset: int | None = Field(default=None, description="The first fresh sample index.")
    looks: int = Field(default=0, description="Rounds run.")
    calls: int = Field(default=0, description="Calls made (replays included).")
    new_calls: int = Field(default=0, description="Calls paid now.")
    budget_calls: int | None = Field(default=None, description="Its budget.")
    stopped: str = Field(description="decided | budget | no budget | no change.")
    fixed_calls: int = Field(default=0, description="What the fixed design would make.")
    saved_calls: int = Field(default=0, description="Fixed design's calls minus these, at least 0.")
    fixed_samples: int = Field(default=0, description="The fixed design's samples per eval (the evidence samples).")
    run_ids: list[str] = Field(default=[], description="Its runs (linked to the experiment).")
    delta0: float | None = Field(default=None, description="The zone's edge of 'no meaningful change'.")
    delta: float | None = Field(default=None, description="The change the zone decides with power 1 - beta.")
    alpha: float | None = Field(default=None, description="Error rate per family.")
    beta: float | None = Field(default=None, description="1 - power at delta.")
    spending: str | None = Field(default=None, description="The error-spending function.")
    looks_replayed: int = Field(
        default=0, description="Rounds an earlier invocation made on this selection, replayed (the same samples)."
    )
    alpha_spent_before: float = Field(
        default=0.0, description="The experiment's confirmation alpha spent by earlier invocations (any selection)."
    )
    alpha_spent: float = Field(
        default=0.0, description="The experiment's confirmation alpha spent so far, this invocation's looks included."
    )
    noninferiority: list[NonInferior] = Field(
        default=[],
        description="Per model x other category, whether a drop of the margin (--tolerance) is ruled out, "
        "tested at every look at its alpha share (``tuner.tuning.noninferior``); the acceptance needs every one.",
    )
    margin_continue: str | None = Field(
        default=None,
        description="When the margin was not ruled out everywhere: the command whose cap shows it in every "
        "other category with 80% chance where nothing moves (``noninferior.margin_cap``).",
    )


class Evidence(BaseModel):
    """Where the tune's rule evidence came from: the screening's verdicts (no separate step)."""

    design: Literal["screening"] = Field(default="screening", description="Always the screening.")
    calls: int = Field(default=0, description="Calls of its own (none: the screening paid them).")
    new_calls: int = Field(default=0, description="Calls paid now of its own.")
    rounds: int = Field(default=0, description="The screening's looks.")
    stopped: str | None = Field(default=None, description="Why the screening stopped.")
    budget_calls: int | None = Field(default=None, description="The screening's share of the cap.")


class PlaceboArm(BaseModel):
    """tune --placebo: the accepted winner against a length-matched placebo (``placebo.placebo_arm``)."""

    seed: int = Field(description="Seed of the placebo text.")
    ran: bool = Field(description="Whether the arm was measured.")
    claim: str | None = Field(description="beats the placebo | no more than the placebo | not measured; None: not run.")
    note: str | None = Field(default=None, description="Why it did not run.")
    cells: list[Cell] = Field(default=[], description="placebo → winner per model × category, the compare's cells.")
    calls: int = Field(default=0, description="Calls it makes (replays included).")
    new_calls: int = Field(default=0, description="Calls paid now.")
    run_ids: list[str] = Field(default=[], description="Its runs (linked to the experiment).")
    domain: str | None = Field(default=None, description="The placebo's rules' domain.")
    matches: str | None = Field(default=None, description="What its length matches (the winner).")
    evals: int | None = Field(default=None, description="The target's tuning evals it ran on.")
    samples: int | None = Field(default=None, description="Fresh samples per eval.")
    offset: int | None = Field(default=None, description="The first sample index.")
    turn: int | None = Field(default=None, description="The repair turn read.")
    name: str | None = Field(default=None, description="The placebo prompt's set name.")
    tokens: int | None = Field(default=None, description="Its tokens (the winner's).")
    prompt_hash: str | None = Field(default=None, description="Its prompt's hash.")
