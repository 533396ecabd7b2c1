"""After the trials: confirm the winner on fresh samples and held-out evals, and say which rules
did what (Optuna's parameter importance plus a leave-one-out of the winner)."""

from __future__ import annotations

from pydantic import BaseModel

from tuner.ablation.designs import loo
from tuner.ablation.effects import Effect as RuleEffect
from tuner.ablation.effects import finalize, paired_effects
from tuner.runs import Harness, run_selections
from tuner.tuning.config import FRESH_OFFSET, TuneConfig
from tuner.tuning.evidence import CategoryRow, paired_table

__all__ = ["RuleEffect", "TuneReport", "confirm", "evidence_samples", "leave_one_out", "importance"]


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


def confirm(h: Harness, config: TuneConfig, specs: list, baseline: dict, best: dict, progress=None):
    """(fresh-sample rows on the tuning evals, rows on the held-out evals), baseline vs winner."""
    held = [e.id for e in h.suite.select(held_out=True)]
    k = evidence_samples(config)
    fresh_runs = run_selections(h, [("baseline", baseline), ("winner", best)], specs, config.eval_ids,
                                samples=k, sample_offset=FRESH_OFFSET, progress=progress)
    held_runs = run_selections(h, [("baseline", baseline), ("winner", best)], specs, held,
                               samples=k, sample_offset=FRESH_OFFSET, progress=progress) if held else [{}, {}]
    calls = sum(o.new_calls for group in (*fresh_runs, *held_runs) for o in group.values())
    return paired_table(*fresh_runs), paired_table(*held_runs) if held else [], calls


def evidence_samples(config: TuneConfig) -> int:
    """Samples for confirmation and the leave-one-out: more than a trial used, since these are the
    claims the report makes (3x the trial samples, at least 12)."""
    return max(3 * config.samples, 12)


def leave_one_out(h: Harness, config: TuneConfig, specs: list, best: dict, progress=None) -> tuple[list[RuleEffect], int]:
    """The winner against the winner without each of its rules (the ablation's loo design).

    Two families for the false discovery rate: effects on the target category (the rules it
    found) and effects on the other categories (what those rules cost elsewhere).
    """
    if not best:
        return [], 0
    from tuner.ablation import rule_tokens

    variants = loo(best)
    groups = run_selections(h, [(f"winner-{v.name}", v.selection) for v in variants], specs, config.eval_ids,
                            samples=evidence_samples(config), sample_offset=FRESH_OFFSET, progress=progress)
    effects = paired_effects(variants, groups, "loo")
    tokens = rule_tokens(h, best)
    target = finalize([e for e in effects if e.category == config.category], tokens)
    others = finalize([e for e in effects if e.category != config.category], tokens)
    return target + others, sum(o.new_calls for g in groups for o in g.values())


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
