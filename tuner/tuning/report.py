"""After the trials: confirm the winner on fresh samples and held-out evals (``confirmation``), and say which rules
did what (Optuna's parameter importance plus the adaptive design's effects of the winner's rules)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from tuner.ablation.effects import Effect as RuleEffect
from tuner.runs import Harness
from tuner.tuning.acceptance import Acceptance
from tuner.tuning.config import TuneConfig, fresh_offset
from tuner.tuning.confirmation import confirm, evidence_samples
from tuner.tuning.evidence import CategoryRow

__all__ = ["Acceptance", "RuleEffect", "TuneReport", "confirm", "evidence_samples", "rule_evidence", "importance"]


class TuneReport(BaseModel):
    study: str
    category: str
    baseline: str
    trials: int
    best_trial: int | None
    baseline_selection: dict[str, str]
    best_selection: dict[str, str]
    baseline_tokens: int
    best_tokens: int
    fresh: list[CategoryRow]
    held_out: list[CategoryRow]
    rule_effects: list[RuleEffect]
    importance: dict[str, float]
    found_helpful: list[str]
    found_harmful: list[str]
    calls: int
    # how the rule effects were measured: the adaptive design's zone, budget, rounds, calls, and the
    # calls a fixed leave-one-out at the evidence samples would have made (so the saving is visible)
    evidence: dict | None = None
    # how the confirmation was run: the sequential design's looks, calls, stop reason, and the calls
    # the fixed design (K samples of both prompts on every tuning and held-out eval) would have made
    confirmation: dict | None = None
    tolerance: float = 0.15
    # whether the winner may be offered (tuner.tuning.acceptance): accepted | no change | withheld | not measured
    acceptance: Acceptance | None = None
    # the evidence design's runs: linked to the experiment, not written into the report
    evidence_runs: list[str] = Field(default_factory=list, exclude=True)
    # the screening flow's record (tuning/screen.py): changes screened, raced, that helped; its calls
    screening: dict | None = None
    # tune --placebo (tuner.tuning.placebo): the winner against a length-matched placebo; None without it
    placebo: dict | None = None

    @property
    def accepted(self) -> bool:
        return self.acceptance is not None and self.acceptance.accepted


def fixed_loo_calls(config: TuneConfig, n_rules: int, n_models: int) -> int:
    """What a leave-one-out of ``n_rules`` at the evidence samples costs: (rules + 1) x evals x K x models."""
    return (n_rules + 1) * len(config.eval_ids) * evidence_samples(config) * n_models


def rule_evidence(h: Harness, config: TuneConfig, specs: list, best: dict, progress=None, *,
                  budget_calls: int | None = None, eval_ids: list[str] | None = None) -> tuple[list[RuleEffect], dict]:
    """Each of the winner's rules, per model x category, by the adaptive design
    (``tuner.engine``) on fresh samples of the tuning evals.

    The budget is what a fixed leave-one-out at the evidence samples would make (half was tried:
    on a small suite, 3 evals a category, it decided nothing)
    (``budget_calls`` overrides it; it is not part of the study's identity, so a larger one
    continues the same evidence from the stored observations); the design stops sooner once every cell is decided,
    and cells still open then are reported "undecided", never guessed.
    """
    if not best:
        return [], {"calls": 0, "new_calls": 0, "fixed_loo_calls": 0, "saved_calls": 0}
    from tuner.ablation import engine_effects
    from tuner.stats.zones import Zone

    evals = list(config.eval_ids) if eval_ids is None else list(eval_ids)
    fixed = (len(best) + 1) * len(evals) * evidence_samples(config) * len(specs)
    if budget_calls is not None and budget_calls < 1:
        return [], {"calls": 0, "new_calls": 0, "fixed_loo_calls": 0, "saved_calls": 0, "rounds": 0,
                    "stopped": "no budget left"}
    budget = budget_calls or fixed
    # The design's observations are points of the study's experiment (recorded when tune starts).
    effects, spent = engine_effects(h, best, specs, evals, budget_calls=budget, zone=Zone(), seed=config.seed,
                                      experiment_id=config.hash, sample_offset=fresh_offset(config, "evidence"), prefix="winner-adaptive",
                                      progress=progress)
    return effects, {**spent, "fixed_loo_calls": fixed, "saved_calls": max(0, fixed - spent["calls"])}


def importance(study) -> dict[str, float]:
    """PED-ANOVA importance of each rule parameter (needs a few complete trials; {} otherwise)."""
    import optuna
    from optuna.trial import TrialState

    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    if len(complete) < 4 or len({t.value for t in complete}) < 2:
        return {}
    try:
        evaluator = optuna.importance.PedAnovaImportanceEvaluator()
        return {k: float(v) for k, v in optuna.importance.get_param_importances(study, evaluator=evaluator).items()}
    except (RuntimeError, ValueError):
        return {}
