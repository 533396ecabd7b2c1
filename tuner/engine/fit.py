"""One model x category's estimates at a look: the linear probability model of the pass bit on the
factors each point applied (eval fixed effects, HC3 errors), or each rule's through the failure
modes it acts on (``tuner.engine.modes``)."""

from __future__ import annotations

import math

from tuner.engine.design import Plan, _design_matrix, _factors, _sign
from tuner.engine.modes import cross_fit


def _identified(X, rank: int) -> list[bool]:
    """Per column of the design matrix of rank ``rank``: is its coefficient identified (not a
    combination of the others)? A cell whose column is not is never decided: its estimate would be
    an arbitrary split."""
    import numpy as np

    if rank == X.shape[1]:
        return [True] * X.shape[1]
    return [bool(np.linalg.matrix_rank(np.delete(X, j, axis=1)) < rank) for j in range(X.shape[1])]


def _fit(rows: list[tuple[tuple[str, ...], str, bool]], rules: list[str]) -> dict[str, tuple[float, float, float, int]]:
    """{factor: (its effect, standard error, degrees of freedom, times applied)} from one category's
    rows (the factors each point applied, its eval, pass). The effect of a rule is that of including
    it, of a phrasing that of using it (``_sign``). HC3 errors and Student's t: HC1 with a normal
    reference flagged 10% of A/A runs at the first, small look."""
    import numpy as np
    import statsmodels.api as sm

    if not rows:
        return {}
    rules, X = _design_matrix(rows, rules)
    y = np.array([1.0 if ok else 0.0 for _, _, ok in rows])
    drops = X[:, 1 : 1 + len(rules)].sum(axis=0)
    # A floor under the robust error: with no failures (or no passes) in sight OLS reports zero
    # spread, which would decide a rule from a handful of lucky draws (add-one smoothing).
    p = (y.sum() + 1) / (len(y) + 2)
    out = {}
    df = max(1.0, float(len(rows) - X.shape[1]))
    fit = sm.OLS(y, X).fit(cov_type="HC3") if np.ptp(y) > 0 and len(rows) > X.shape[1] else None
    # statsmodels has the rank already (one SVD per fit; each is costly at tune's 94 questions)
    identified = _identified(X, int(fit.model.rank) if fit is not None else int(np.linalg.matrix_rank(X)))
    for j, rule in enumerate(rules, start=1):
        if not identified[j]:
            continue  # left out: the cell stays open (undecided at the end), never decided from an arbitrary split
        n_drop, n_keep = drops[j - 1], len(rows) - drops[j - 1]
        floor = math.sqrt(p * (1 - p) * (1 / max(n_drop, 1) + 1 / max(n_keep, 1)))
        if fit is None:
            out[rule] = (0.0, floor, df, int(n_drop))
            continue
        se = float(fit.bse[j])
        se = floor if math.isnan(se) else max(se, floor)
        out[rule] = (_sign(rule) * float(fit.params[j]), se, df, int(n_drop))
    return out


def _fit_look(plan: Plan, data: list, round_no: int) -> dict:
    """One model x category's estimates at look ``round_no``: the pass bit's, or with ``plan.modes``
    each rule's through its failure modes, chosen on one half of the points and estimated on the
    other (``tuner.engine.modes.cross_fit``; the pass bit's fit where no mode beats it)."""

    def fit_pass(rows: list) -> dict:
        return _fit([(a, e, ok) for a, e, ok, *_ in rows], _factors(plan))

    if not plan.modes:
        return fit_pass(data)
    return cross_fit(data, _factors(plan), fit_pass)
