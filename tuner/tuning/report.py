"""After the trials: confirm the winner on fresh samples and held-out evals, and say which rules
did what (Optuna's parameter importance plus a leave-one-out of the winner)."""

from __future__ import annotations

from pydantic import BaseModel

from tuner.runs import Harness, outcomes_by_task, run_selections
from tuner.stats import paired_compare
from tuner.tuning.config import FRESH_OFFSET, TuneConfig
from tuner.tuning.evidence import CategoryRow, apply_bh, paired_table

__all__ = ["RuleEffect", "TuneReport", "confirm", "leave_one_out", "importance"]


class RuleEffect(BaseModel):
    """Effect of including ``rule`` (winner vs winner without it) on one model × category."""

    rule: str
    model: str
    category: str
    delta: float | None
    lo: float | None
    hi: float | None
    p_value: float
    q_value: float | None
    verdict: str
    tokens: int


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
    fresh_runs = run_selections(h, [("baseline", baseline), ("winner", best)], specs, config.eval_ids,
                                samples=config.samples, sample_offset=FRESH_OFFSET, progress=progress)
    held_runs = run_selections(h, [("baseline", baseline), ("winner", best)], specs, held,
                               samples=config.samples, sample_offset=FRESH_OFFSET, progress=progress) if held else [{}, {}]
    calls = sum(o.new_calls for group in (*fresh_runs, *held_runs) for o in group.values())
    return paired_table(*fresh_runs), paired_table(*held_runs) if held else [], calls


def leave_one_out(h: Harness, config: TuneConfig, specs: list, best: dict, progress=None) -> tuple[list[RuleEffect], int]:
    if not best:
        return [], 0
    variants = [(f"winner-minus-{rid}", {k: v for k, v in best.items() if k != rid}) for rid in best]
    groups = run_selections(h, [("winner", best), *variants], specs, config.eval_ids, samples=config.samples, progress=progress)
    winner, without = groups[0], groups[1:]
    effects: list[RuleEffect] = []
    paired = []
    for (name, _), runs in zip(variants, without):
        rid = name.removeprefix("winner-minus-")
        for key, outcome in runs.items():
            tokens = winner[key].prompt.tokens - outcome.prompt.tokens
            for cat in sorted({r.category for r in outcome.results}):
                pr = paired_compare(outcomes_by_task(outcome.results, cat), outcomes_by_task(winner[key].results, cat))
                paired.append(pr)
                effects.append(RuleEffect(rule=rid, model=outcome.run.model, category=cat, delta=pr.delta, lo=pr.lo, hi=pr.hi,
                                          p_value=pr.p_value, q_value=None, verdict="", tokens=tokens))
    apply_bh(paired)
    for effect, pr in zip(effects, paired):
        effect.q_value = pr.q_value
        effect.verdict = {"improved": "helps", "regressed": "hurts"}.get(pr.verdict, "no detectable effect")
    calls = sum(o.new_calls for g in groups for o in g.values())
    return effects, calls


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
