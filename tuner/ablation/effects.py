"""Estimating each rule's effect per category (and model) from ablation runs.

- ``loo`` / ``add``: paired comparison of the variant against the reference run (same evals and
  sample indices): effect of *including* the rule, with the cluster-bootstrap interval and the
  exact McNemar p-value (``tuner.stats.paired``).
- ``screening``: per model × category, a linear probability model over every graded sample,
  ``passed ~ rule indicators + eval fixed effects``, fitted by OLS with heteroskedasticity-robust
  (HC1) standard errors (statsmodels). Each call is an independent draw given its prompt, and the
  prompt is a function of the indicators, so samples are the unit here. The coefficient of a rule
  is its main effect on the pass rate.
In every design, Benjamini–Hochberg runs across the whole rules × categories × models matrix.
"""

from __future__ import annotations

from pydantic import BaseModel

from tuner.compare.rates import model_label
from tuner.runs import pair_outcomes
from tuner.stats import ALPHA, bh_adjust, paired_compare

__all__ = ["Effect", "paired_effects", "regression_effects", "finalize"]


class Effect(BaseModel):
    rule: str
    model: str
    category: str
    delta: float | None
    lo: float | None
    hi: float | None
    p_value: float
    q_value: float | None = None
    verdict: str = ""
    tokens: int = 0
    calls: int | None = None  # adaptive design: calls spent while this cell was open
    decided_round: int | None = None  # adaptive design: the look that decided it


def paired_effects(variants, groups, design: str) -> list[Effect]:
    """``groups[i]`` = {model key: RunOutcome} for ``variants[i]``; index 0 is the reference."""
    reference = groups[0]
    effects = []
    for variant, runs in zip(variants[1:], groups[1:]):
        rule = variant.role.split(":", 1)[1]
        for key, outcome in runs.items():
            ref = reference[key]
            with_rule, without = (ref, outcome) if design == "loo" else (outcome, ref)
            for cat in sorted({r.category for r in ref.results}):
                pr = paired_compare(*pair_outcomes(without.results, with_rule.results, cat))
                effects.append(Effect(rule=rule, model=model_label(outcome.run.model, outcome.run.params), category=cat, delta=pr.delta, lo=pr.lo, hi=pr.hi,
                                      p_value=pr.p_value))
    return effects


def _fit(rows: list[tuple[dict, str, bool]], rules: list[str]):
    import numpy as np
    import statsmodels.api as sm

    tasks = sorted({t for _, t, _ in rows})
    x_rules = np.array([[1.0 if r in sel else 0.0 for r in rules] for sel, _, _ in rows])
    x_tasks = np.array([[1.0 if t == task else 0.0 for task in tasks[1:]] for _, t, _ in rows]).reshape(len(rows), -1)
    y = np.array([1.0 if ok else 0.0 for _, _, ok in rows])
    X = np.hstack([np.ones((len(rows), 1)), x_rules, x_tasks])
    if np.ptp(y) == 0:
        return None
    return sm.OLS(y, X).fit(cov_type="HC1")


def regression_effects(cells, outcomes) -> list[Effect]:
    """``cells[i]`` (a screening Variant on one eval) was run as ``outcomes[i]`` ({model key: RunOutcome})."""
    import math

    rules = sorted(set().union(*(c.selection for c in cells)))
    models = {key: model_label(o.run.model, o.run.params) for key, o in outcomes[0].items()}
    effects = []
    for key, model in models.items():
        per_cat: dict[str, list[tuple[dict, str, bool]]] = {}
        for cell, runs in zip(cells, outcomes):
            for r in runs[key].results:
                if r.outcome != "infra":
                    per_cat.setdefault(r.category, []).append((cell.selection, r.eval_id, r.outcome == "pass"))
        for cat, rows in sorted(per_cat.items()):
            fit = _fit(rows, rules)
            for j, rule in enumerate(rules, start=1):
                if fit is None or math.isnan(float(fit.bse[j])):
                    effects.append(Effect(rule=rule, model=model, category=cat, delta=0.0, lo=0.0, hi=0.0, p_value=1.0))
                    continue
                lo, hi = fit.conf_int(alpha=ALPHA)[j]
                p = float(fit.pvalues[j])
                effects.append(Effect(rule=rule, model=model, category=cat, delta=float(fit.params[j]), lo=float(lo),
                                      hi=float(hi), p_value=1.0 if math.isnan(p) else p))
    return effects


def finalize(effects: list[Effect], tokens: dict[str, int]) -> list[Effect]:
    for effect, q in zip(effects, bh_adjust([e.p_value for e in effects])):
        effect.q_value = q
        effect.tokens = tokens.get(effect.rule, 0)
        if q < ALPHA and effect.delta:
            effect.verdict = "helps" if effect.delta > 0 else "hurts"
        else:
            effect.verdict = "no detectable effect"
    return effects
