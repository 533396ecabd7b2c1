"""Estimating each rule's effect per category (and model) from ablation runs.

- ``loo`` / ``add``: paired comparison of the variant against the reference run (same evals and
  sample indices): effect of *including* the rule, with the paired interval over evals and the
  exact McNemar p-value (``tuner.stats.paired``).
- ``screening``: per model × category, a linear probability model over every graded sample,
  ``passed ~ rule indicators + eval fixed effects``, fitted by OLS (statsmodels) with HC3
  standard errors and a Student t reference on the residual degrees of freedom. Each call is an
  independent draw given its prompt, and the prompt is a function of the indicators, so samples
  are the unit here (the claim is about these evals). The coefficient of a rule is its main
  effect on the pass rate. HC1 errors with a normal reference, used before, had per-rule size
  0.08 and flagged something in 14% of A/A repetitions at 3 evals x 8 runs x 6 rules (HC1
  underestimates the variance at a few rows per parameter, the normal ignores the few degrees of
  freedom); HC3 + t is at or below 5% (tests/stats/test_calibration_designs.py).
In every design, Benjamini–Hochberg runs across the whole rules × categories × models matrix.
"""

from __future__ import annotations

from pydantic import BaseModel

from tuner.compare.rates import model_label
from tuner.runs import pair_outcomes
from tuner.stats import ALPHA, bh_adjust, paired_compare

__all__ = ["Effect", "NOT_MEASURED", "lost_answers", "paired_effects", "regression_effects", "rule_effects", "finalize"]


class Effect(BaseModel):
    rule: str
    model: str
    category: str
    delta: float | None
    lo: float | None
    hi: float | None
    p_value: float
    q_value: float | None = None
    level: float | None = None  # adaptive design: the level of [lo, hi] (the deciding look's); else 95%
    verdict: str = ""
    tokens: int = 0
    calls: int | None = None  # adaptive design: calls spent while this cell was open
    decided_round: int | None = None  # adaptive design: the look that decided it
    # adaptive design: the evals where the rule seems to matter most, {eval id: [pass rate with it
    # minus without it, times it was left out there]}; descriptive, the verdict is the category's
    by_eval: dict[str, tuple[float, int]] | None = None
    measured: bool = True  # False: every answer of the cell was lost (provider or grader failures)


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
                effects.append(
                    Effect(
                        rule=rule,
                        model=model_label(outcome.run.model, outcome.run.params),
                        category=cat,
                        delta=pr.delta,
                        lo=pr.lo,
                        hi=pr.hi,
                        p_value=pr.p_value,
                        measured=pr.pairs > 0,
                    )
                )
    return effects


def lost_answers(groups) -> int:
    """Answers of the loo / add runs lost to provider or grader failures (``groups`` as in ``paired_effects``)."""
    return sum(r.outcome == "infra" for runs in groups for o in runs.values() for r in o.results)


def rule_effects(rows: list[tuple[dict | tuple | set, str, bool]], rules: list[str], alpha: float = ALPHA):
    """One category's screening fit: ``rows`` are (rules included, eval id, passed); returns
    {rule: (effect of inclusion, lo, hi, p-value)} with a two-sided (1 - alpha) interval.

    Without any spread in the outcomes (or no residual degrees of freedom) nothing is known:
    effect 0, interval [-1, 1], p = 1 (the former fit reported [0, 0], a claim of certainty).
    """
    import math
    import warnings

    import numpy as np
    import statsmodels.api as sm

    tasks = sorted({t for _, t, _ in rows})
    x_rules = np.array([[1.0 if r in sel else 0.0 for r in rules] for sel, _, _ in rows]).reshape(len(rows), len(rules))
    x_tasks = np.array([[1.0 if t == task else 0.0 for task in tasks[1:]] for _, t, _ in rows]).reshape(len(rows), -1)
    y = np.array([1.0 if ok else 0.0 for _, _, ok in rows])
    X = np.hstack([np.ones((len(rows), 1)), x_rules, x_tasks])
    unknown = {rule: (0.0, -1.0, 1.0, 1.0) for rule in rules}
    rank = np.linalg.matrix_rank(X) if len(rows) else 0
    if not len(rows) or np.ptp(y) == 0 or len(rows) <= rank:
        return unknown
    # A rule always in (or always out), or aliased with another, has no effect of its own here.
    identified = [np.linalg.matrix_rank(np.delete(X, j, axis=1)) < rank for j in range(1, len(rules) + 1)]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # rank deficiency is handled above, rule by rule
        fit = sm.OLS(y, X).fit(cov_type="HC3", use_t=True)
        bounds = fit.conf_int(alpha=alpha)
    out = {}
    for j, rule in enumerate(rules, start=1):
        p, (lo, hi) = float(fit.pvalues[j]), bounds[j]
        if not identified[j - 1] or not all(math.isfinite(v) for v in (p, lo, hi, float(fit.params[j]))):
            out[rule] = unknown[rule]
            continue
        out[rule] = (float(fit.params[j]), float(lo), float(hi), p)
    return out


def regression_effects(cells, observed, labels: dict[str, str], categories: tuple[str, ...] = ()) -> list[Effect]:
    """``cells[i]`` (a screening Variant on one eval) was observed as ``observed[i]`` ({model key:
    its point, with ``category`` and ``outcome``}); ``labels``: model key -> label; ``categories``:
    the design's, so a category whose every answer was lost still has (not measured) cells."""
    rules = sorted(set().union(*(c.selection for c in cells)))
    effects = []
    for key, model in labels.items():
        per_cat: dict[str, list[tuple[dict, str, bool]]] = {c: [] for c in categories}
        for cell, points in zip(cells, observed):
            point = points.get(key)
            if point is not None and point.outcome != "infra":
                per_cat.setdefault(point.category, []).append((cell.selection, cell.eval_id, point.outcome == "pass"))
        for cat, rows in sorted(per_cat.items()):
            if not rows:  # every answer lost: not measured, never "no detectable effect"
                effects += [
                    Effect(
                        rule=rule, model=model, category=cat, delta=None, lo=None, hi=None, p_value=1.0, measured=False
                    )
                    for rule in rules
                ]
                continue
            fitted = rule_effects(rows, rules)
            for rule in rules:
                delta, lo, hi, p = fitted[rule]
                effects.append(Effect(rule=rule, model=model, category=cat, delta=delta, lo=lo, hi=hi, p_value=p))
    return effects


NOT_MEASURED = "not measured"


def finalize(effects: list[Effect], tokens: dict[str, int]) -> list[Effect]:
    """q-values (BH over the measured cells) and verdicts; a cell without a single pair is "not measured"."""
    for effect in effects:
        effect.tokens = tokens.get(effect.rule, 0)
        if not effect.measured:
            effect.verdict, effect.q_value = NOT_MEASURED, None
    measured = [e for e in effects if e.measured]
    for effect, q in zip(measured, bh_adjust([e.p_value for e in measured])):
        effect.q_value = q
        if q < ALPHA and effect.delta:
            effect.verdict = "helps" if effect.delta > 0 else "hurts"
        else:
            effect.verdict = "no detectable effect"
    return effects
