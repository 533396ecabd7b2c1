"""Whether tune may offer its winner: the decision rule applied to the confirmation's evidence.

The trials chose the winner on the samples they saw; the confirmation measured it again on fresh
samples of every tuning eval and of the held-out evals. The winner is offered (a publish hint, a
passing ``--json``) only when that evidence says all of:

- **the target improved on its tuning evals** for some model, on fresh samples (the sequential
  zone test of ``confirmation``: confidently more than delta0 better), and regressed for none. That
  is the claim, and it is about *these* evals: the change was chosen on them, so a change that
  helps them and not the category's other tasks can pass it. The held-out target's estimate is
  shown beside it (``claim``), not required to improve: with 1-3 held-out evals a category that
  truly improves shows it there too rarely (docs/tune-and-publish.md gives the rates);
- **no drop is established anywhere else** (``tuner.stats.drop_tests``): one family per decision,
  one cell per model × other category (its tuning and held-out evals together: the change does not
  know which is which) plus each model's held-out target, each tested with the exact one-sided
  McNemar test, Benjamini-Hochberg across the family, alpha 0.05; a cell the sequential test called "regressed"
  counts too. A change that moves nothing elsewhere is withheld by noise in at most about 5% of
  confirmations, however many categories the suite has; a point estimate alone can stop nothing;
- **a drop of the margin is ruled out in every other category** (``tuner.tuning.noninferior``): per
  model x other category (tuning and held-out evals pooled), the one-sided lower bound of the
  paired difference above ``-margin`` (the study's ``--tolerance``, 15 points by default, the
  publish gate's margin), tested by the confirmation at each look at that look's alpha share, a
  cell once shown staying shown. Every cell must be (an intersection-union test: its error is one
  cell's), and the shares of every look of the experiment, over any reruns and selections, add up
  to at most alpha, so a change that drops the margin somewhere is accepted at most alpha of the
  time however often the user reruns (measured through tune's path over the default cap, 2x, 4x
  and 8x: 0.025 on the Python suite, 0.00 on Convex; the former rule, "no drop established" alone,
  0.47 and 0.49, because a rerun accepted at the first invocation that confirmed the target, whose
  drop test had least power). The price is paid at the default cap: there a clear winner is
  accepted less often (Convex 0.91 -> 0.10, Python 0.68 -> 0.45) and reruns with a larger cap
  recover it (Convex 0.60 by 2x, 0.97 by 8x; Python 0.73, 0.98); docs/tune-and-publish.md;
- **every cell was measured** (no answer lost to a provider or grader failure).

Otherwise the report says which cells stopped it, one line per cell (``NonInferior.reason``: e.g.
``sim/careful · fundamentals: a drop of more than 15 points is not ruled out (-4% [-19%, +11%],
150 pairs, one-sided level 0.026)``). The rule's rates at the product's shapes, per
cell and over the whole decision, are measured through the product's own functions by
``tests/stats/test_calibration_tune_path.py`` (docs/tune-and-publish.md).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from tuner.stats import ALPHA, drop_tests
from tuner.stats.zones import RESERVE
from tuner.tuning.evidence import CategoryRow
from tuner.tuning.noninferior import NonInferior, ni_test, pooled_counts, row_estimate

__all__ = [
    "Acceptance",
    "CellCheck",
    "Claim",
    "ClaimPart",
    "DropCell",
    "accept",
    "drop_family",
    "one_look_noninferiority",
]

ACCEPTED, NO_CHANGE, WITHHELD, NOT_MEASURED = "accepted", "no change", "withheld", "not measured"
IMPROVED, NO_GAIN, REGRESSED, NO_DROP = "improved", "no gain", "regressed", "no drop shown"


class CellCheck(BaseModel):
    """One confirmation row as the decision read it."""

    model: str
    split: str  # "fresh" (tuning evals, fresh samples) | "held-out"
    category: str
    delta: float | None
    lo: float | None
    hi: float | None
    verdict: str | None
    check: str  # "improved" | "no gain" | "regressed" | "no drop shown" | "not measured"


class DropCell(BaseModel):
    """One cell of the decision's drop family."""

    model: str
    category: str
    evals: str  # "tuning + held-out" | "held-out" (the target's)
    pairs: int
    delta: float | None  # after - before over these pairs
    pass_to_fail: int
    fail_to_pass: int
    p_value: float
    p_adjusted: float  # Benjamini-Hochberg across the family
    regressed: bool


class ClaimPart(BaseModel):
    """What the winner did to the target on one set of its evals (fresh samples), for one model."""

    delta: float = Field(description="Pass rate after minus before, pooled over the pairs.")
    lo: float | None = Field(description="The interval's low end (evals as the unit).")
    hi: float | None = Field(description="The interval's high end.")
    evals: int = Field(description="Evals it speaks for.")
    pairs: int = Field(description="Paired answers behind it.")
    verdict: str | None = Field(description="The sequential test's verdict.")


class Claim(BaseModel):
    """The winner's claim on the target for one model: where the change was chosen, and beside it the held-out evals."""

    model: str = Field(description="The model's label.")
    category: str = Field(description="The target category.")
    tuning_evals: ClaimPart | None = Field(
        description="On its tuning evals (the claim; the change was chosen on them)."
    )
    held_out_evals: ClaimPart | None = Field(description="On its held-out evals (shown, not required to improve).")


class Acceptance(BaseModel):
    decision: str  # accepted | no change | withheld | not measured
    reasons: list[str]
    cells: list[CellCheck]
    drops: list[DropCell] = []
    noninferiority: list[NonInferior] = Field(
        default=[],
        description="Per model x other category, whether a drop of the margin (--tolerance) is ruled out "
        "(``tuner.tuning.noninferior``); every one must be for 'accepted'.",
    )
    # What an accepted (or withheld) winner was measured to do to the target, per model: on its tuning
    # evals (the claim) and, beside it, on its held-out evals.
    claim: list[Claim] = []
    # What the decision is about (set by tune): the study and the selection, by content, so that
    # `publish` can refuse any other selection the study may hold later.
    study: str | None = None
    selection: dict[str, str] | None = None
    selection_hash: str | None = None

    @property
    def accepted(self) -> bool:
        return self.decision == ACCEPTED


def _counts(rows: list[CategoryRow]) -> tuple[int, int, int, float | None]:
    down, up, pairs = pooled_counts(rows)
    return down, up, pairs, ((up - down) / pairs if pairs else None)


def drop_family(
    target: str, fresh: list[CategoryRow], held_out: list[CategoryRow], alpha: float = ALPHA
) -> list[DropCell]:
    """Every model × other category (tuning and held-out rows pooled) and each model's held-out
    target, tested for a drop as one family (``tuner.stats.drop_tests``)."""
    groups: dict[tuple[str, str, str], list[CategoryRow]] = {}
    for split, rows in (("fresh", fresh), ("held-out", held_out)):
        for r in rows:
            if r.category == target and split == "fresh":
                continue
            scope = "held-out" if r.category == target else "tuning + held-out"
            groups.setdefault((r.model, r.category, scope), []).append(r)
    keys = sorted(groups)
    counts = [_counts(groups[k]) for k in keys]
    tests = drop_tests([(d, u) for d, u, _, _ in counts], alpha)
    return [
        DropCell(
            model=m,
            category=c,
            evals=scope,
            pairs=n,
            delta=delta,
            pass_to_fail=d,
            fail_to_pass=u,
            p_value=t.p_value,
            p_adjusted=t.p_adjusted,
            regressed=t.regressed,
        )
        for (m, c, scope), (d, u, n, delta), t in zip(keys, counts, tests)
    ]


def _check(row: CategoryRow, split: str, target: str, dropped: set[tuple[str, str]]) -> CellCheck:
    p = row.paired
    if not row.measured:
        check = "not measured"
    elif row.category == target and split == "fresh":
        check = {"improved": IMPROVED, "regressed": REGRESSED}.get(p.verdict, NO_GAIN)
    elif (row.model, row.category) in dropped or p.verdict == "regressed":
        check = REGRESSED
    else:
        check = NO_DROP
    return CellCheck(
        model=row.model,
        split=split,
        category=row.category,
        delta=p.delta,
        lo=p.lo,
        hi=p.hi,
        verdict=p.verdict,
        check=check,
    )


def _claim(target: str, fresh: list[CategoryRow], held_out: list[CategoryRow]) -> list[Claim]:
    def part(row: CategoryRow | None) -> ClaimPart | None:
        if row is None or row.paired.delta is None:
            return None
        p = row.paired
        return ClaimPart(delta=p.delta, lo=p.lo, hi=p.hi, evals=p.tasks, pairs=p.pairs, verdict=p.verdict)

    held = {r.model: r for r in held_out if r.category == target}
    return [
        Claim(model=r.model, category=target, tuning_evals=part(r), held_out_evals=part(held.get(r.model)))
        for r in fresh
        if r.category == target
    ]


def one_look_noninferiority(
    target: str, fresh: list[CategoryRow], held_out: list[CategoryRow], margin: float, level: float
) -> list[NonInferior]:
    """Every model x other category tested once at ``level`` on the rows (tuning and held-out
    pooled): for a caller without the confirmation's looks. Its error is ``level`` for one
    invocation, not over reruns (tune passes the confirmation's sequential verdicts instead)."""
    groups: dict[tuple[str, str], list[CategoryRow]] = {}
    for r in [*fresh, *held_out]:
        if r.category != target:
            groups.setdefault((r.model, r.category), []).append(r)
    out = []
    for (model, cat), rows in sorted(groups.items()):
        est, pairs = row_estimate(rows)
        out.append(ni_test(model, cat, est, pairs, level, margin, None))
    return out


def accept(
    target: str,
    fresh: list[CategoryRow],
    held_out: list[CategoryRow],
    *,
    changed: bool,
    alpha: float = ALPHA,
    noninferiority: list[NonInferior] | None = None,
    margin: float = 0.15,
) -> Acceptance:
    """The decision on a winner that differs from the baseline (``changed``) given its confirmation
    rows and its cells' non-inferiority (the confirmation's, ``Confirmation.noninferiority``; None:
    tested once here at two thirds of ``alpha``, what a first invocation spends, at ``margin``)."""
    if not changed:
        return Acceptance(decision=NO_CHANGE, reasons=["no selection beat the baseline: nothing to publish"], cells=[])
    if noninferiority is None:
        noninferiority = one_look_noninferiority(target, fresh, held_out, margin, alpha * (1 - RESERVE))
    # Every model x other category the rows hold needs a verdict: one the confirmation never tested
    # (no pairs at any look) is not ruled out, never left out.
    tested = {(n.model, n.category) for n in noninferiority}
    untested = sorted({(r.model, r.category) for r in [*fresh, *held_out] if r.category != target} - tested)
    noninferiority = [*noninferiority, *(ni_test(m, c, None, 0, 0.0, margin, None) for m, c in untested)]
    drops = drop_family(target, fresh, held_out, alpha)
    dropped = {(d.model, d.category) for d in drops if d.regressed}
    cells = [_check(r, "fresh", target, dropped) for r in fresh] + [
        _check(r, "held-out", target, dropped) for r in held_out
    ]
    name = lambda c: f"{c.model} · {c.category} ({c.split})"  # noqa: E731
    missing = [c for c in cells if c.check == "not measured"]
    claim = _claim(target, fresh, held_out)
    if missing:
        return Acceptance(
            decision=NOT_MEASURED,
            cells=cells,
            drops=drops,
            noninferiority=noninferiority,
            claim=claim,
            reasons=[
                f"not measured: {', '.join(name(c) for c in missing)} (answers lost to provider or "
                "grader failures); run the same command again to retry them"
            ],
        )
    reasons = []
    established = [d for d in drops if d.regressed]
    if established:
        reasons.append(
            "a drop is established in "
            + ", ".join(
                f"{d.model} · {d.category} ({d.evals}): {d.delta:+.0%} ({d.pass_to_fail} pass→fail, {d.fail_to_pass} "
                f"fail→pass; BH p {d.p_adjusted:.3g})"
                for d in established
            )
        )
    sequential = [c for c in cells if c.check == REGRESSED and (c.model, c.category) not in dropped]
    if sequential:
        reasons.append(
            "the sequential test says worse in "
            + ", ".join(f"{name(c)}: {c.delta:+.0%} [{c.lo:+.0%}, {c.hi:+.0%}]" for c in sequential)
        )
    target_cells = [c for c in cells if c.split == "fresh" and c.category == target]
    if not any(c.check == IMPROVED for c in target_cells):
        reasons.append(f"{target} did not confirmably improve on fresh samples of its tuning evals")
    stopped = dropped | {(c.model, c.category) for c in sequential}
    reasons += [n.reason() for n in noninferiority if not n.shown and (n.model, n.category) not in stopped]
    return Acceptance(
        decision=WITHHELD if reasons else ACCEPTED,
        reasons=reasons,
        cells=cells,
        drops=drops,
        noninferiority=noninferiority,
        claim=claim,
    )
