"""Confirming the winner against the baseline on fresh samples of every eval, sequentially.

What is measured: both prompts, on fresh sample indices (``fresh_offset``: a window of its own per
study, never what the trials or the screening saw), on *every* tuning eval of every
category and every held-out eval. The target's tuning evals answer "did it improve?"; every other
cell answers "did anything drop?" (``acceptance`` decides from these rows). Re-measuring only the
target, as the screening flow once did, left the other categories judged by the regression check
alone, whose few samples let a 15-point harm through about half the time.

How: a fixed design would run both prompts K times everywhere and test once. Confirmation runs in
rounds instead (cumulative samples K/4, K/2, K, 2K, ... per eval) and after each round judges every
model × category × split (tuning evals, held-out evals) still open with the indifference zone of
``tuner.stats.zones``: "improved"/"regressed" once the paired difference is confidently beyond
±delta0, "no meaningful change" once it is confidently within ±delta. Every other category is also
tested at each look for "a drop of the margin ruled out" (``noninferior``: the acceptance needs it
of every model x other category, at the look's alpha share, a cell once shown staying shown). A
category whose cells are all decided (and, another category, shown non-inferior) gets no more
samples; the whole stops when every cell is decided or the planned rounds are done, and what is
open then is "undecided".

The looks are planned before the first call, from K, the suite and the budget only (default twice
the fixed design's calls; in tune what the cap leaves): the rounds as if every cell
stayed open, the last cut to the budget, and look k spends the O'Brien-Fleming-type share of the
error budget for its planned share of the calls (``Zone.continued``, as the rule-effect engine
does). Most of the error is left for the last, largest look, where the fixed 6α/(π²k²) shares gave
the third look 7% of it: at the Convex default's looks a +30-point gain on 9 evals was confirmed
0.67 of the time with them, 0.96 with these (``tests/stats/test_calibration_confirmation.py``'s
world; 0.905 now that a third of alpha is kept for reruns). A rerun with a larger budget is not a
new plan: the experiment's confirmations are one sequential test (``confirm_looks``), so the rounds
a rerun shares with the earlier invocation are replayed (the same samples, the same shares) and its
new rounds spend only what the earlier ones left, whichever selection they confirm (a first
invocation spends two thirds of alpha and beta, ``Zone.continued``). The target's cells (one per
model) are tested as their own family, so the many cells the change was not aimed at do not dilute
the evidence for the one it was.

The tables keep the rates and the intervals over evals of ``paired_table`` on all the samples
drawn; the verdict and q of each row are the sequential test's.
"""

from __future__ import annotations

from dataclasses import replace

from tuner.compare.rates import model_label
from tuner.runs import pair_outcomes
from tuner.stats import paired_estimate
from tuner.stats.zones import HELPS, HURTS, NO_EFFECT, OPEN, Zone, zone_tests
from tuner.tuning.budgets import confirm_budget, confirm_per_sample, evidence_samples, fixed_confirm_calls
from tuner.tuning.config import TuneConfig, fresh_offset
from tuner.tuning.confirm_looks import ConfirmLooks, MemoryLooks
from tuner.tuning.evidence import CategoryRow, by_category, paired_table
from tuner.tuning.measure import Measure, harness_measure
from tuner.tuning.noninferior import NonInferior, ni_test
from tuner.tuning.records import Confirmation

__all__ = ["confirm", "confirm_budget", "evidence_samples", "fixed_confirm_calls", "planned_rounds"]

_VERDICT = {HELPS: "improved", HURTS: "regressed", NO_EFFECT: "no meaningful change", OPEN: "undecided"}


def planned_rounds(k: int, per_sample: int, budget: int) -> list[int]:
    """Samples per eval of each planned round of a first invocation, as if every cell stayed open
    (``per_sample``: the calls one more sample of every eval costs): doubling rounds, the last cut
    to the budget (``ConfirmLooks.plan`` with no looks made, as rounds)."""
    return _rounds(ConfirmLooks(MemoryLooks(), "", "").plan(k, per_sample, budget))


def _rounds(cumulative: list[int]) -> list[int]:
    """Samples drawn in each round, from the cumulative samples per eval at each look."""
    return [n - (cumulative[i - 1] if i else 0) for i, n in enumerate(cumulative)]


def confirm(
    h,
    config: TuneConfig,
    specs: list,
    baseline: dict,
    best: dict,
    progress=None,
    *,
    budget_calls: int | None = None,
    zone: Zone = Zone(),
    measure: Measure | None = None,
    looks: ConfirmLooks | None = None,
) -> tuple[list[CategoryRow], list[CategoryRow], Confirmation]:
    """(rows on fresh samples of the tuning evals, rows on the held-out evals, what it spent).
    ``h``: what knows the suite (``h.suite.evals``: id, category, held_out); ``measure``: where the
    answers come from (default: the harness); ``looks``: the experiment's confirmation looks so far
    (``confirm_looks``: tune passes the store's; None: a first invocation, kept in memory)."""
    measure = measure or harness_measure(h, specs, progress)
    splits = {"tuning": list(config.eval_ids), "held-out": [e.id for e in h.suite.evals if e.held_out]}
    category = {e.id: e.category for e in h.suite.evals}
    k = evidence_samples(config)
    fixed = fixed_confirm_calls(config, len(splits["held-out"]), len(specs))
    budget = budget_calls or confirm_budget(config, len(splits["held-out"]), len(specs), None)
    per_sample = confirm_per_sample(config, len(splits["held-out"]), len(specs))
    if looks is None:
        from tuner.tuning.space import selection_hash

        looks = ConfirmLooks.open(MemoryLooks(), config.hash, selection_hash(best))
    sequence = looks
    cumulative = sequence.plan(k, per_sample, budget)
    spending = sequence.spending(cumulative, zone)
    plan = _rounds(cumulative)
    replayed, spent_before = len(sequence.mine), sequence.spent
    offset = fresh_offset(config)
    arms: list[dict] = [{}, {}]  # per arm: {model key: [RunOutcome, ...]}
    verdicts: dict[tuple[str, str, str], tuple[str, float | None]] = {}
    shown: dict[tuple[str, str], NonInferior] = {}  # (model key, other category): its non-inferiority so far
    others = sorted({category[e] for ids in splits.values() for e in ids} - {config.category})
    calls = new_calls = looks = drawn = 0
    run_ids: list[str] = []
    rounds: list[int] = []  # samples per eval drawn in each round
    stopped = "budget" if plan else "no budget"

    def open_evals() -> list[str]:
        # An eval is sampled again while a cell it is in is open: its zone verdict, or (another
        # category) a drop of the margin not yet ruled out (``noninferior``: the acceptance needs it).
        return [
            e
            for split, ids in splits.items()
            for e in ids
            if any(
                verdicts.get((s.key, split, category[e]), (OPEN,))[0] == OPEN
                or (category[e] != config.category and not _shown(shown, s.key, category[e]))
                for s in specs
            )
        ]

    for look, reps in enumerate(plan, start=1):
        evals = open_evals()
        if not evals:
            break
        groups = measure([("baseline", baseline), ("winner", best)], evals, reps, offset + drawn)
        drawn += reps
        rounds.append(reps)
        looks = look
        calls += reps * 2 * len(evals) * len(specs)
        new_calls += sum({o.run.id: o.new_calls for g in groups for o in g.values()}.values())
        run_ids += [o.run.id for g in groups for o in g.values()]
        for arm, group in zip(arms, groups):
            for key, outcome in group.items():
                arm.setdefault(key, []).append(outcome)
        spent = spending[look - 1]
        _look(arms, splits, category, verdicts, zone, look, spent, config.category)
        _ni_look(arms, [e for ids in splits.values() for e in ids], others, shown, look, spent[0], config.tolerance)
        sequence.record(look - 1, (drawn, *spent), cumulative[-1])  # before the next round's first call
    if plan and not open_evals():
        stopped = "decided"
    fresh, held = (_rows(arms, set(ids), verdicts, split) if ids else [] for split, ids in splits.items())
    spent = Confirmation(
        design="sequential",
        samples_per_round=rounds,
        planned_rounds=plan,
        offset=offset,
        looks=looks,
        calls=calls,
        new_calls=new_calls,
        budget_calls=budget,
        stopped=stopped,
        fixed_calls=fixed,
        saved_calls=max(0, fixed - calls),
        fixed_samples=k,
        run_ids=list(dict.fromkeys(run_ids)),
        delta0=zone.delta0,
        delta=zone.delta,
        alpha=zone.alpha,
        beta=zone.beta,
        spending="obrien-fleming",
        looks_replayed=min(replayed, looks),
        alpha_spent_before=spent_before[0],
        alpha_spent=sequence.spent[0],
        noninferiority=_ni_rows(arms, shown),
    )
    return fresh, held, spent


def _shown(shown: dict, key: str, cat: str) -> bool:
    cell = shown.get((key, cat))
    return cell is not None and cell.shown


def _ni_look(arms, eval_ids: list[str], others: list[str], shown: dict, look: int, level: float, margin: float) -> None:
    """Test every model x other category not yet shown non-inferior (tuning and held-out evals
    pooled) at this look's alpha share; a cell shown stays shown (``noninferior``)."""
    from tuner.stats.difference import paired_counts

    for key in arms[1]:
        tables = _tables(arms, key, set(eval_ids))
        if not tables:
            continue
        before, after = tables
        for cat in others:
            if _shown(shown, key, cat) or cat not in before or cat not in after:
                continue
            pairs = sum(r[5] for r in paired_counts(before[cat], after[cat]))
            est = paired_estimate(before[cat], after[cat])
            shown[(key, cat)] = ni_test(key, cat, est, pairs, level, margin, look)


def _ni_rows(arms, shown: dict) -> list[NonInferior]:
    """The cells' verdicts, named by model label as the rows are."""
    label = {key: model_label(outs[0].run.model, outs[0].run.params) for key, outs in arms[1].items()}
    return [cell.model_copy(update={"model": label.get(key, key)}) for (key, _), cell in sorted(shown.items())]


def _tables(arms: list[dict], key: str, eval_ids: set[str]) -> tuple[dict, dict] | None:
    """Per category, the two arms' outcomes on ``eval_ids`` paired by (eval, sample index): both
    arms draw the same fresh sample indices each round."""
    if key not in arms[0] or key not in arms[1]:
        return None
    before, after = (by_category([r for o in arm[key] for r in o.results if r.eval_id in eval_ids]) for arm in arms)
    pairs = {
        cat: pair_outcomes(before.get(cat, []), after.get(cat, []), cat) for cat in sorted(set(before) | set(after))
    }
    return {c: p[0] for c, p in pairs.items()}, {c: p[1] for c, p in pairs.items()}


def _look(arms, splits, category, verdicts, zone: Zone, look: int, spent: tuple[float, float], target: str) -> None:
    """Test every open cell on all the data so far and record decisions: the target's tuning cells
    as one family, every other cell as another (Benjamini-Hochberg within each)."""
    families: dict[bool, tuple[list, list]] = {True: ([], []), False: ([], [])}
    for key in arms[1]:
        for split, ids in splits.items():
            tables = _tables(arms, key, set(ids))
            if not tables:
                continue
            before, after = tables
            for cat in sorted(set(before) & set(after)):
                if verdicts.get((key, split, cat), (OPEN,))[0] != OPEN:
                    continue
                est = paired_estimate(before[cat], after[cat])
                if est is not None:
                    cells, estimates = families[split == "tuning" and cat == target]
                    cells.append((key, split, cat))
                    estimates.append(est)
    for cells, estimates in families.values():
        for cell, test in zip(cells, zone_tests(estimates, zone, look, spent)):
            verdicts[cell] = (test.verdict, test.q_flag)


def _rows(arms: list[dict], eval_ids: set[str], verdicts: dict, split: str) -> list[CategoryRow]:
    merged = [
        {
            key: replace(outs[0], results=[r for o in outs for r in o.results if r.eval_id in eval_ids])
            for key, outs in arm.items()
        }
        for arm in arms
    ]
    if not merged[1]:
        return []
    rows = paired_table(merged[0], merged[1])
    label_to_key = {model_label(o.run.model, o.run.params): key for key, o in merged[1].items()}
    for row in rows:
        verdict, q = verdicts.get((label_to_key.get(row.model), split, row.category), (OPEN, None))
        row.paired.verdict, row.paired.q_value = _VERDICT[verdict], q
    return rows
