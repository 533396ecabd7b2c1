"""Confirming the winner against the baseline on fresh samples, sequentially.

A fixed design runs both prompts K times on every tuning and held-out eval and then tests once.
Most of those calls go to categories the winner does not touch, where a few samples already show
"no meaningful change", and to a target gain that is clear early. So confirmation runs in rounds
(cumulative samples K/4, K/2, K, 2K, ...; only K and the suite fix them, never the budget, so a
larger budget retraces the same rounds from the caches and goes on). After each round every
model × category × split (tuning evals, held-out evals) still open is judged with the indifference
zone of ``tuner.stats.zones``: "improved"/"regressed" once the paired difference is confidently
beyond ±delta0, "no meaningful change" once it is confidently within ±delta, the error budget spent
over the looks so that looking often does not inflate false alarms. The next round runs only the
categories with a cell still open; the whole stops when every cell is decided or the budget
(default: twice the fixed design's calls) is spent, and what is open then is "undecided".

The tables keep the rates and the intervals over evals of ``paired_table`` on all the samples
drawn; the verdict and q of each row are the sequential test's.
"""

from __future__ import annotations

import math
from dataclasses import replace

from tuner.compare.rates import model_label
from tuner.runs import Harness, pair_outcomes, run_selections
from tuner.stats import paired_estimate
from tuner.stats.zones import HELPS, HURTS, NO_EFFECT, OPEN, Zone, zone_tests
from tuner.tuning.config import FRESH_OFFSET, TuneConfig
from tuner.tuning.evidence import CategoryRow, paired_table

__all__ = ["confirm", "evidence_samples", "fixed_confirm_calls"]

_VERDICT = {HELPS: "improved", HURTS: "regressed", NO_EFFECT: "no meaningful change", OPEN: "undecided"}
_MAX_LOOKS = 10  # a guard: with doubling rounds, 10 looks is 128x the fixed design's samples


def evidence_samples(config: TuneConfig) -> int:
    """Samples of the fixed design (and the scale of the sequential rounds): more than a trial used,
    since these are the claims the report makes (3x the trial samples, at least 12)."""
    return max(3 * config.samples, 12)


def fixed_confirm_calls(config: TuneConfig, n_held: int, n_models: int, n_tuning: int | None = None) -> int:
    """What the fixed design costs: two prompts x (tuning + held-out evals) x K x models."""
    tuning = len(config.eval_ids) if n_tuning is None else n_tuning
    return 2 * (tuning + n_held) * evidence_samples(config) * n_models


def _round_samples(k: int, look: int) -> int:
    """Samples per eval in round ``look`` (1-based): cumulative K/4, K/2, K, 2K, ..."""
    first = max(1, math.ceil(k / 4))
    return first if look == 1 else first * 2 ** (look - 2)


def confirm(h: Harness, config: TuneConfig, specs: list, baseline: dict, best: dict, progress=None, *,
            budget_calls: int | None = None, zone: Zone = Zone(),
            tuning_evals: list[str] | None = None) -> tuple[list[CategoryRow], list[CategoryRow], dict]:
    """(rows on fresh samples of the tuning evals, rows on the held-out evals, what it spent).
    ``tuning_evals``: the tuning evals to confirm on (default all; the screening flow: the target's,
    the others having had their regression check)."""
    tuning = list(config.eval_ids) if tuning_evals is None else list(tuning_evals)
    splits = {"tuning": tuning, "held-out": [e.id for e in h.suite.select(held_out=True)]}
    category = {e.id: e.category for e in h.suite.evals}
    k = evidence_samples(config)
    fixed = fixed_confirm_calls(config, len(splits["held-out"]), len(specs), len(tuning))
    # Twice the fixed design: with 3 evals a category and the error spent over the looks, a +44-point
    # gain on the Python suite was still open after the fixed design's calls (q 0.005 > 0.0034 at look 3).
    budget = budget_calls or 2 * fixed
    arms: list[dict] = [{}, {}]  # per arm: {model key: [RunOutcome, ...]}
    verdicts: dict[tuple[str, str, str], tuple[str, float | None]] = {}
    calls = new_calls = looks = drawn = 0
    run_ids: list[str] = []
    rounds: list[int] = []  # samples per eval actually drawn in each round (the last may be cut)
    stopped = "looks"
    while looks < _MAX_LOOKS:
        open_evals = [e for split, ids in splits.items() for e in ids
                      if any(verdicts.get((s.key, split, category[e]), (OPEN,))[0] == OPEN for s in specs)]
        if not open_evals:
            stopped = "decided"
            break
        per_sample = 2 * len(open_evals) * len(specs)
        reps = min(_round_samples(k, looks + 1), (budget - calls) // per_sample)
        if reps < 1:
            stopped = "budget"
            break
        groups = run_selections(h, [("baseline", baseline), ("winner", best)], specs, open_evals,
                                samples=reps, sample_offset=FRESH_OFFSET + drawn, progress=progress)
        drawn += reps
        rounds.append(reps)
        looks += 1
        calls += reps * per_sample
        new_calls += sum({o.run.id: o.new_calls for g in groups for o in g.values()}.values())
        run_ids += [o.run.id for g in groups for o in g.values()]
        for arm, group in zip(arms, groups):
            for key, outcome in group.items():
                arm.setdefault(key, []).append(outcome)
        _look(arms, splits, category, verdicts, zone, looks)
    fresh, held = (_rows(arms, set(ids), verdicts, split) if ids else [] for split, ids in splits.items())
    spent = {"design": "sequential", "samples_per_round": rounds,
             "looks": looks, "calls": calls, "new_calls": new_calls, "budget_calls": budget, "stopped": stopped,
             "fixed_calls": fixed, "saved_calls": max(0, fixed - calls), "fixed_samples": k,
             "run_ids": list(dict.fromkeys(run_ids)), "delta0": zone.delta0, "delta": zone.delta, "alpha": zone.alpha, "beta": zone.beta}
    return fresh, held, spent


def _tables(arms: list[dict], key: str, eval_ids: set[str]) -> tuple[dict, dict] | None:
    """Per category, the two arms' outcomes on ``eval_ids`` paired by (eval, sample index): both
    arms draw the same fresh sample indices each round."""
    if key not in arms[0] or key not in arms[1]:
        return None
    before, after = ([r for o in arm[key] for r in o.results if r.eval_id in eval_ids] for arm in arms)
    cats = sorted({r.category for r in before} | {r.category for r in after})
    pairs = {cat: pair_outcomes(before, after, cat) for cat in cats}
    return {c: p[0] for c, p in pairs.items()}, {c: p[1] for c, p in pairs.items()}


def _look(arms, splits, category, verdicts, zone: Zone, look: int) -> None:
    """Test every open cell on all the data so far (BH across the look), and record decisions."""
    cells, estimates = [], []
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
                    cells.append((key, split, cat))
                    estimates.append(est)
    for cell, test in zip(cells, zone_tests(estimates, zone, look)):
        verdicts[cell] = (test.verdict, test.q_flag)


def _rows(arms: list[dict], eval_ids: set[str], verdicts: dict, split: str) -> list[CategoryRow]:
    merged = [{key: replace(outs[0], results=[r for o in outs for r in o.results if r.eval_id in eval_ids])
               for key, outs in arm.items()} for arm in arms]
    if not merged[1]:
        return []
    rows = paired_table(merged[0], merged[1])
    label_to_key = {model_label(o.run.model, o.run.params): key for key, o in merged[1].items()}
    for row in rows:
        verdict, q = verdicts.get((label_to_key.get(row.model), split, row.category), (OPEN, None))
        row.paired.verdict, row.paired.q_value = _VERDICT[verdict], q
    return rows
