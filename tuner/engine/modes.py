"""More than one bit per call: a rule's pass-rate effect read through the failure modes it acts on.

Why. A call's pass/fail bit carries the noise of every mistake the prompt leaves room for. In the
engine's prompts about a dozen other rules are missing at once, so most failures come from
mistakes the rule in question has nothing to do with. A rule acts on the mistake it prevents: the
chance that *its* failure modes occur moves by the rule's whole effect, and the rest of the
failures only add variance. Each graded answer says how it failed (``Graded.modes``: in the
product its failure signature, the first failing grading step's distinct error identities such as
``tests:<failing test>``, ``tsc:TS2345``, ``eslint:<rule id>``, ``tuner.grading.signature``; in the
design lab what that signature would show of the planted mistakes), so each rule's effect is
estimated from

    W = A_r x b_e,   A_r = 1 if the answer shows none of the rule's modes,
                     b_e = the eval's share of answers free of every other mode,

by the same regression as the pass bit (drop indicators + eval fixed effects, HC3). If the modes
are independent and the rule moves only its own, E[pass] = E[A_r] x E[B_r] and the coefficient is
the pass-rate effect; verdicts stay about pass rates. When a rule's modes are every mode, W is the
pass bit itself: nothing is lost where a category fails one way only.

Which modes are a rule's is read from data, never from the data that estimates it (``cross_fit``):
the points are split in two halves by position; each half's estimate uses the modes chosen on the
other half and the effect is the mean of the two. On the choosing half, ``pick_modes`` takes the
modes clearly more frequent where the rule is left out (z > 2) and ``choose_modes`` keeps them only
where W's |t| beats the pass bit's by a margin (x1.25): a rule that lowers every mode alike has only
some picked, and W then misses the rest of its effect (planted at the printed MDE it was decided
0.32 of the time without the choice, 0.80 with it; ``tests/stats/test_calibration_modes_mde.py``).
A rule read by the pass bit in both halves (nothing picked or chosen, or every mode: always so where
answers fail one way only) takes the pass bit's fit of all the rows, exactly as without modes (two
half fits averaged decided the printed MDE 0.72 of the time, one fit of the whole 0.78).

Error control. The size rests on the engine's spending over the looks and the +-delta0 zone, as
the pass bit's does; the modes' own parts change little at the product's sizes (a flag needs t
beyond about 3 at the last look, and picking on the estimating data, the best of several
single-mode readings at full alpha, the stronger cross-fitted half or no error floor each moved the
A/A or the +delta0 boundary by at most 0.02). ``tests/stats/test_calibration_modes.py`` checks the
A/A, every cell at +delta0 through its grading step look by look, and catches the engine read
through modes without its spending (0.110 > alpha); those figures are in its docstring.
``tests/stats/test_calibration_signature.py`` checks the same through signatures (identities
shared between mistakes, mistakes the grader cannot tell apart, per-eval test names).

On by default in ``ablate`` and ``tune`` (``tuner.ablation.engine_plan``), reading each answer's
failure signature (``tuner.ablation.reading``: from its cached grade through the design point's
``grade_key``; its first failing step, ``failed_step``, where no grade is cached). Measured in the
design lab (``benchmarks/design_lab.py --by-rule [--modes step|signature|mistake]``, `careful` /
`actions`, 2,475 calls, 16 seeds, figures in that script's docstring): every true rule decided in
at least 80% of the designs from 9.6 points with the signature against 15.0 on the pass bit
(1.56x) and 13.7 with the first failing step; 9.6 with every mistake named, the oracle: the
signature is as good here. Recall 0.90 against 0.40 (0.62 with the step); no false alarm. The
printed MDE (``tuner.planning``) stays the pass bit's: the conservative figure, which a rule
acting on every mode alike still meets.

What it assumes, when on: modes independent and a rule moving only its own. (Seeing only the
first failing step hides later modes behind earlier ones: a rule acting on the first step is then
read slightly larger than it is, one acting on a later step smaller; every cell at +delta0 through
its step flagged 0.010, within the 0.033 planned.) A rule that cures one
mode and causes another that was not tied to it is read as better than it is; tune re-measures a
winner's pass rate in the full prompt before it is accepted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tuner.engine.design import _design_matrix

__all__ = ["Graded", "pick_modes", "choose_modes", "fit_modes", "cross_fit", "outcome_parts"]


@dataclass(frozen=True)
class Graded:
    """One answer as graded: passed, and if not, the failure modes it shows (in the product its
    failure signature, ``tuner.ablation.reading``). An answer that failed with no mode named has
    mode ``fail``."""

    passed: bool
    modes: tuple[str, ...] = ()


def outcome_parts(result) -> tuple[bool, tuple[str, ...]] | None:
    """(passed, modes) of what an ``Observe`` returns for one model: a bool, a ``Graded`` or None."""
    if result is None:
        return None
    if isinstance(result, Graded):
        return result.passed, (() if result.passed else (result.modes or ("fail",)))
    return bool(result), (() if result else ("fail",))


_PICK_Z = 2.0
# Modes are read only where they beat the pass bit clearly on the choosing half (|t| 1.25x its);
# measured at the printed MDE (600 calls): margin 1 decided 0.955 (one mode) / 0.70 (every mode
# alike), 1.25 0.91 / 0.80, 1.5 0.855 / 0.82.
_CHOOSE_MARGIN = 1.25

Row = tuple[tuple[str, ...], str, bool, tuple[str, ...], int]  # (applied, eval, passed, modes, look)


def pick_modes(rows: list[Row], rules: list[str]) -> dict[str, frozenset[str]]:
    """Per rule: the failure modes seen more often in the points that leave it out than in those
    that keep it (share of points), over ``rows`` (the first look's). Empty: none seen."""
    seen: dict[str, int] = {}
    for _, _, _, modes, _ in rows:
        for mode in set(modes):
            seen[mode] = seen.get(mode, 0) + 1
    out: dict[str, frozenset[str]] = {}
    for rule in rules:
        out_rows = [modes for applied, _, _, modes, _ in rows if rule in applied]
        n_out, n_in = len(out_rows), len(rows) - len(out_rows)
        if not n_out:
            out[rule] = frozenset()
            continue
        count_out: dict[str, int] = {}
        for modes in out_rows:
            for mode in set(modes):
                count_out[mode] = count_out.get(mode, 0) + 1
        picked = set()
        for m, k in count_out.items():
            rate_out, rate_in = k / n_out, (seen[m] - k) / max(1, n_in)
            pooled = (seen[m] + 1) / (len(rows) + 2)
            # Clearly more often without the rule (z > _PICK_Z): a mode picked by chance would leave
            # the rule's own out of A and read its effect as none; no mode picked reads the pass bit.
            if rate_out - rate_in > _PICK_Z * math.sqrt(pooled * (1 - pooled) * (1 / n_out + 1 / max(1, n_in))):
                picked.add(m)
        out[rule] = frozenset(picked)
    return out


def fit_modes(rows: list[Row], factors: list[str], modes: dict[str, frozenset[str]], plain: dict) -> dict:
    """{rule: (effect, standard error, degrees of freedom, times left out)} from ``rows``, each
    rule's outcome ``W`` (module docstring) with its modes ``modes[rule]`` (none: every mode, W is
    the pass bit). ``plain``: the pass bit's fit of the same rows (``engine._fit``): which columns
    are identified, degrees of freedom, times left out. ``factors``: every cell's key, as
    ``engine._fit`` is given them. HC3 errors computed once per design: only the outcome changes
    between rules."""
    import numpy as np

    rules = [r for r in factors if r in plain]
    if not rows or not rules:
        return dict(plain)
    # The columns of the pass bit's fit (``fit._fit``): the same matrix.
    factors, X = _design_matrix([(a, e, ok) for a, e, ok, *_ in rows], factors)
    evals = sorted({e for _, e, *_ in rows})
    proj = np.linalg.pinv(X)  # (columns x rows): beta = proj @ y
    lev = np.clip(np.einsum("ij,ji->i", X, proj), 0.0, 1.0 - 1e-9)
    col = {r: 1 + j for j, r in enumerate(factors)}
    eval_of = np.array([evals.index(e) for _, e, *_ in rows])
    per_eval = np.maximum(1, np.bincount(eval_of, minlength=len(evals)))
    names = sorted({m for *_, ms, _ in rows for m in ms})
    seen = np.zeros((len(rows), max(1, len(names))), dtype=bool)
    for i, (*_, ms, _) in enumerate(rows):
        for m in ms:
            seen[i, names.index(m)] = True
    out = dict(plain)
    for rule in rules:
        mine = np.array([m in modes.get(rule, ()) for m in names] or [False])
        if not mine.any():
            mine[:] = True
        a = ~seen[:, mine].any(axis=1)
        b = ~seen[:, ~mine].any(axis=1)
        w = a * (np.bincount(eval_of, weights=b, minlength=len(evals)) / per_eval)[eval_of]
        j = col[rule]
        beta = proj @ w
        resid = w - X @ beta
        se = float(np.sqrt(np.sum((proj[j] * resid / (1.0 - lev)) ** 2)))
        _, _, df, drops = plain[rule]
        n_drop = float(X[:, j].sum())
        # The engine's floor (add-one smoothing) for W = A x b_e: A's binomial spread, scaled by b: a
        # fit that sees no spread is not taken to have none. (At the pass bit's own spread, the floor
        # gave back all the noise the modes remove: the modes decided less than the pass bit.)
        p = (a.sum() + 1) / (len(a) + 2)
        scale = float(w.sum() / max(1.0, a.sum())) if a.any() else 1.0
        floor = scale * math.sqrt(p * (1 - p) * (1 / max(n_drop, 1) + 1 / max(len(w) - n_drop, 1)))
        out[rule] = (-float(beta[j]) if "@" not in rule else float(beta[j]), max(se, floor), df, drops)
    return out


def choose_modes(rows: list[Row], factors: list[str], plain: dict) -> dict[str, frozenset[str]]:
    """Per rule, the modes to weigh another half's outcome by, chosen on ``rows`` (one half):
    those ``pick_modes`` finds, kept only where reading them tells the rule's effect more sharply
    than the pass bit does on these rows (larger |t|); else none (the pass bit). Why: a rule that
    cures several modes has only some of them picked, and W then misses the rest of its effect
    (a rule lowering every step's rate alike, planted at the printed MDE: decided 0.32 of the time
    through its picked modes, 0.82 by the pass bit)."""
    picks = pick_modes(rows, factors)
    fitted = fit_modes(rows, factors, picks, plain)
    out = {}
    for rule, modes in picks.items():
        if modes and rule in fitted and rule in plain:
            (e_w, s_w, *_), (e_p, s_p, *_) = fitted[rule], plain[rule]
            out[rule] = modes if abs(e_w) / s_w > _CHOOSE_MARGIN * abs(e_p) / s_p else frozenset()
        else:
            out[rule] = frozenset()
    return out


def _reads_modes(picked: frozenset[str], seen: set[str]) -> bool:
    """Does the outcome ``W`` with modes ``picked`` differ from the pass bit on rows showing modes
    ``seen``? Not when none of them is picked (W reads every mode) or all are."""
    mine = picked & seen
    return bool(mine) and mine != seen


def cross_fit(rows: list[Row], factors: list[str], fit_pass) -> dict:
    """Each rule's estimate through its modes, cross-fitted: the rows split in two halves (by
    position, so by design, not by outcome); the modes chosen on one half (``choose_modes``) weigh
    the other half's outcome, and back; the effect is the mean of the two, its variance the mean
    of theirs over two (the halves are disjoint data). ``fit_pass(rows)``: the pass bit's fit
    (``engine._fit``).

    A rule read by the pass bit in both halves (no mode chosen, or every mode: always so where
    answers fail one way only) takes the pass bit's fit of all the rows, as the engine without
    modes does: two half fits averaged lose power against one fit of the whole (with one failure
    mode, the planted effect at the printed MDE was decided 0.72 of the time at 600 calls, not 0.78)."""
    halves = [rows[0::2], rows[1::2]]
    plains = [fit_pass(h) for h in halves]
    chosen = [choose_modes(h, factors, p) for h, p in zip(halves, plains)]
    fits, reads = [], {}
    for i in (0, 1):
        mine, picks = halves[i], chosen[1 - i]
        seen = {m for *_, ms, _ in mine for m in ms}
        for rule in factors:
            reads[rule] = reads.get(rule, False) or _reads_modes(picks.get(rule, frozenset()), seen)
        fits.append(fit_modes(mine, factors, picks, plains[i]))
    whole = fit_pass(rows) if not all(reads.values()) else {}
    out = {rule: v for rule, v in whole.items() if not reads.get(rule)}
    for rule in set(fits[0]) & set(fits[1]):
        if not reads.get(rule):
            continue
        (e1, s1, d1, n1), (e2, s2, d2, n2) = fits[0][rule], fits[1][rule]
        out[rule] = ((e1 + e2) / 2, math.sqrt(s1**2 + s2**2) / 2, min(d1, d2), n1 + n2)
    return out
