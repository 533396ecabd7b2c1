"""`tune`'s flow: screen the pool with the rule-effect engine, assemble the winner from
its verdicts, check the winner for regressions, then confirm it.

1. **Screen**: the rule-effect engine (``tuner.engine``) runs on the *target's* tuning
   evals over the whole pool: the baseline's rules, the candidates, and every other phrasing of
   each. Each call is the pool with a random few rules left out and a random few phrasings
   switched, so every call informs every open question; a question stops costing calls once its
   verdict (helps / hurts / no meaningful effect, with the zone's calibrated error over the looks)
   is in. It gets ``SCREEN_SHARE`` of the command's cap, and stops at the first look that decides a
   change (what it did not spend goes to the confirmation).
2. **Assemble** the winner from the verdicts: add each candidate that helps the target, drop each
   baseline rule that hurts it, switch to each phrasing that beats the rule's own. When nothing was
   decided, the best bet is tried instead: the change whose estimate is beyond the zone's edge with
   the strongest evidence (smallest p against +-delta0). Confirmation, on fresh samples, decides
   whether it is offered, so a liberal choice here costs the calls the cap had reserved for it,
   never a wrong answer (on `careful` / `actions`, at the default cap, the engine decides the
   +11-point change in none of 40 simulated repetitions and makes it the best bet in 12).
3. **Check for regressions** (``check``): the assembled winner (and, if it is refused, its best
   single change alone) is measured on every tuning eval against the baseline at the trials'
   samples and judged by the trials' constraint (``study.score_trial``: a drop established in any
   other model × category, exact one-sided McNemar with Benjamini-Hochberg across them). It is a cheap filter:
   a change that breaks another category plainly is not confirmed, and a change that breaks
   nothing passes it at least 95% of the time. The winner is the first candidate of *this*
   invocation that passes, by content (a rerun with a larger cap judges its own candidates, never
   an earlier invocation's); every candidate checked is recorded as a trial of the study, and the
   winner's selection as the study's (``study.set_winner``). A check that lost answers ends "not
   measured", never "no change".

Confirmation (fresh samples of every tuning eval and every held-out eval) gets what is left; the
screening's verdicts are the tune's rule evidence (there is no separate evidence step). Against the
former default (every single change at one sample on the target's evals, the best eight raced to
the trials' samples) on the simulator's `careful` / `actions` (``benchmarks/design_lab.py --tune``,
40 repetitions): the engine makes the one change worth +11 points the winner in 12, the former
screen picked it in 14, at about the same calls. What the engine adds is not a better pick but
verdicts with calibrated error on every rule and phrasing of the pool (the former flow's separate
evidence step, about 300 calls, decided nothing), several decided changes at once, and phrasings
weighed against the rule's own.
"""

from __future__ import annotations

from tuner.engine import split_key
from tuner.errors import IncompleteError
from tuner.runs import Harness, outcomes_by_task, run_selections
from tuner.stats.zones import Zone
from tuner.tuning.budgets import SCREEN_SHARE, default_budget, regression_samples, screen_budget, screen_pool
from tuner.tuning.config import TuneConfig
from tuner.tuning.measure import Measure, harness_measure
from tuner.tuning.records import Change, Checked, EngineSpent, Screening, apply_changes
from tuner.tuning.scoring import TrialScore, score_trial, specs_of, unmeasured_cells
from tuner.tuning.study import recorder, set_winner

__all__ = [
    "SCREEN_SHARE",
    "Checked",
    "assemble",
    "candidates_of",
    "check",
    "default_budget",
    "regression_samples",
    "screen",
    "screen_budget",
    "screen_phases",
    "target_evals",
]

_CANDIDATES = 2  # the assembled winner, then its best single change alone


def target_evals(h: Harness, config: TuneConfig) -> list[str]:
    return [e for e in config.eval_ids if h.suite.get(e).category == config.category]


def screen_phases(h: Harness, config: TuneConfig, n_models: int, cap: int) -> list[tuple[str, int, list[str], str]]:
    """(phase, calls at most, evals, the finding it runs only if: empty for always) of the baseline,
    the screening and the regression check."""
    target = target_evals(h, config)
    k, kr = config.samples, regression_samples(config)
    everywhere = kr * len(config.eval_ids) * n_models
    return [
        (f"baseline: {k} samples on {len(target)} {config.category} evals", k * len(target) * n_models, target, ""),
        (
            f"screen: the rule-effect engine over {len(config.pool)} rules and their phrasings on the {config.category} "
            "evals",
            screen_budget(cap),
            target,
            "",
        ),
        (
            f"regression check: the baseline and the screening's winner x {kr} samples on all {len(config.eval_ids)} "
            "tuning evals",
            2 * everywhere,
            list(config.eval_ids),
            "the screening finds a change",
        ),
        (
            f"regression check: the winner's best single change alone x {kr} samples on all {len(config.eval_ids)} "
            "tuning evals",
            (_CANDIDATES - 1) * everywhere,
            list(config.eval_ids),
            "the winner holds several changes and is refused",
        ),
    ]


def _rate(group: dict, category: str) -> float:
    passes = total = 0
    for outcome in group.values():
        for results in outcomes_by_task(outcome.results, category).values():
            passes += sum(results)
            total += len(results)
    return passes / total if total else 0.0


def _move(config: TuneConfig, key: str) -> Change:
    """The change a cell speaks for: a phrasing switch, adding a candidate, or dropping a rule."""
    rule, variant = split_key(key)
    if variant is not None:
        return Change(kind="variant", rule=rule, variant=variant)
    if key in config.baseline_selection:
        return Change(kind="drop", rule=key)
    return Change(kind="add", rule=key, variant="default")


def _gain(config: TuneConfig, effect) -> float:
    """How much the change a cell speaks for would raise the target: including a rule that is not
    in the baseline, leaving out one that is, or using a phrasing."""
    if effect.delta is None:
        return 0.0
    drop = split_key(effect.rule)[1] is None and effect.rule in config.baseline_selection
    return -effect.delta if drop else effect.delta


def assemble(config: TuneConfig, effects: list) -> tuple[list[Change], str]:
    """(the winner's changes, best first, and how they were chosen: decided | promising | none) from
    the screening's verdicts on the target. A change needs its verdict in the right direction for some
    model and against it for none; a phrasing only for a rule the winner keeps."""
    target = [e for e in effects if e.category == config.category]
    by_key: dict[str, list] = {}
    for e in target:
        by_key.setdefault(e.rule, []).append(e)

    def good(e) -> bool:
        return e.verdict in ("helps", "hurts") and _gain(config, e) > 0

    def bad(e) -> bool:
        return e.verdict in ("helps", "hurts") and _gain(config, e) < 0

    decided = {k: es for k, es in by_key.items() if any(good(e) for e in es) and not any(bad(e) for e in es)}
    how = "decided"
    if not decided:
        edge = Zone().delta0  # the screening's zone
        hopeful = [
            (e.p_value, -_gain(config, e), k)
            for k, es in by_key.items()
            for e in es
            if _gain(config, e) > edge and not any(bad(x) for x in es)
        ]
        decided = {min(hopeful)[2]: by_key[min(hopeful)[2]]} if hopeful else {}
        how = "promising" if decided else "none"
    moves = {k: _move(config, k) for k in decided}
    dropped = {m.rule for m in moves.values() if m.kind == "drop"}
    kept_or_added = set(config.baseline_selection) - dropped | {m.rule for m in moves.values() if m.kind == "add"}
    # A phrasing applies to a rule the winner has; two phrasings of one rule: the stronger one.
    chosen: dict[str, tuple[float, str]] = {}
    for k, m in moves.items():
        if m.kind == "variant":
            if m.rule not in kept_or_added:
                continue
            score = max(_gain(config, e) for e in decided[k])
            if m.rule not in chosen or score > chosen[m.rule][0]:
                chosen[m.rule] = (score, k)
    keys = [k for k, m in moves.items() if m.kind != "variant"] + [k for _, k in chosen.values()]
    ranked = sorted(keys, key=lambda k: (-max(_gain(config, e) for e in decided[k]), k))
    return [moves[k] for k in ranked], how


def screen(h: Harness, study, config: TuneConfig, progress=None, *, cap: int) -> tuple[Screening, list]:
    """Screen, assemble and check; the winner is the study's best trial. What it spent and found,
    and the screening's rule effects (the tune's evidence)."""
    from tuner.ablation import engine_effects

    specs = specs_of(config)
    target = target_evals(h, config)
    base = run_selections(
        h, [("baseline", config.baseline_selection)], specs, target, samples=config.samples, progress=progress
    )[0]
    h.store.link_runs(
        config.hash, [o.run.id for o in base.values()], "baseline"
    )  # a part of the tune, never a run of its own
    missing = unmeasured_cells(config, base, config.samples, n_evals=len(target))
    if missing:
        raise IncompleteError(
            f"the baseline was not measured ({', '.join(missing)}: answers lost to provider or grader "
            "failures); no change can be judged against it: run the same command again to retry them"
        )
    base_rate = _rate(base, config.category)
    pool, variants = screen_pool(config)
    # The engine's points are points of the tune's experiment (recorded when tune starts).
    effects, engine = engine_effects(
        h,
        pool,
        specs,
        target,
        budget_calls=screen_budget(cap),
        zone=Zone(),
        experiment_id=config.hash,
        seed=config.seed,
        prefix=f"{study.study_name}-screen",
        progress=progress,
        variants=variants,
        enough=lambda cells: assemble(config, cells)[1] == "decided",
        looks_key="screen",
    )  # a larger cap continues the screening's looks
    if engine["rounds"] == 0:  # the cap's share was less than one sample of the target's evals
        raise IncompleteError(
            f"the screening was not measured: its share of the cap ({engine['budget_calls']} calls) is "
            f"less than one sample of the {len(target)} {config.category} evals; run it with a larger "
            "--budget-calls"
        )
    if engine["lost"]:
        # Verdicts from what was measured stand, but "no change" would read an outage as evidence.
        raise IncompleteError(
            f"the screening was not measured: {engine['lost']} of {engine['calls']} answers lost to "
            "provider or grader failures; run the same command again to retry them (nothing measured "
            "is bought again)"
        )
    changes, how = assemble(config, effects)
    candidates = candidates_of(config, changes)
    kr = regression_samples(config)
    if candidates:
        checked = check(
            config,
            candidates,
            harness_measure(h, specs, progress),
            samples=kr,
            record=recorder(study, config, h.guidelines.library),
            names=f"{study.study_name}-check",
        )
    else:
        _record_baseline(h, study, config, base_rate)
        checked = Checked(winner=None)
    set_winner(study, checked.winner or dict(config.baseline_selection))
    base_calls = config.samples * len(target) * len(specs)
    return Screening(
        factors=sum(1 for e in effects if e.category == config.category) // max(1, len(specs)),
        target_evals=len(target),
        baseline_rate=base_rate,
        chosen_by=how,
        changes=[m.describe() for m in changes],
        helped=[
            e.rule
            for e in effects
            if e.category == config.category and e.verdict in ("helps", "hurts") and _gain(config, e) > 0
        ],
        engine=EngineSpent.model_validate({k: v for k, v in engine.items() if k != "history"}),
        candidates=len(candidates),
        checked=checked.trials,
        winner=checked.winner,
        not_measured=checked.not_measured,
        refused=checked.refused,
        calls=base_calls + engine["calls"] + checked.calls,
        new_calls=sum(o.new_calls for o in base.values()) + engine["new_calls"] + checked.new_calls,
    ), effects


def candidates_of(config: TuneConfig, changes: list[Change]) -> list[dict[str, str]]:
    """What the check tries, in order: all the changes (phrasings applied last, so a candidate added
    with another phrasing keeps it), then the best one alone."""
    candidates: list[dict[str, str]] = []
    for moves_in in (sorted(changes, key=lambda m: m.kind == "variant"), changes[:1]):
        sel = apply_changes(config.baseline_selection, moves_in)
        if moves_in and sel not in candidates and sel != dict(config.baseline_selection):
            candidates.append(sel)
    return candidates


def check(
    config: TuneConfig,
    candidates: list[dict[str, str]],
    measure: Measure,
    *,
    samples: int,
    record=None,
    names: str = "check",
) -> Checked:
    """The regression check (module doc): the baseline and the candidates on every tuning eval at
    ``samples``, one candidate at a time until one passes ``score_trial``'s constraint. ``record(selection,
    score, baseline)`` keeps each measured selection (the study's trials)."""
    if not candidates:
        return Checked()
    n_models = len(config.models)
    per_arm = len(config.eval_ids) * samples * n_models
    base = measure([(f"{names}-baseline", dict(config.baseline_selection))], config.eval_ids, samples)[0]
    out = Checked(trials=1, calls=per_arm, new_calls=sum(o.new_calls for o in base.values()))
    missing = unmeasured_cells(config, base, samples)
    if missing:
        return out.model_copy(update={"not_measured": [f"baseline: {cell}" for cell in missing]})
    if record:
        record(dict(config.baseline_selection), score_trial(config, base, base, samples), True)
    for i, sel in enumerate(candidates, start=1):
        runs = measure([(f"{names}-{i}", sel)], config.eval_ids, samples)[0]
        score = score_trial(config, runs, base, samples)
        out.trials += 1
        out.calls += per_arm
        out.new_calls += score.calls
        out.scores.append(score)
        if record:
            record(sel, score, False)
        if score.not_measured:
            out.not_measured = score.not_measured
            return out
        if score.constraint <= 0:
            out.winner = sel
            return out
        out.refused.append(score.regressed)
    return out


def _record_baseline(h: Harness, study, config: TuneConfig, value: float) -> None:
    """Nothing to check: the baseline is the study's one trial (so the study has a winner, and
    ``publish`` says tune found no change), recorded without measuring it on every eval again."""
    score = TrialScore(
        target=value,
        constraint=-1.0,
        tokens=h.guidelines.compose(_set(config.baseline_selection)).tokens,
        deltas={},
        run_ids=[],
        calls=0,
    )
    recorder(study, config, h.guidelines.library)(dict(config.baseline_selection), score, True)


def _set(selection: dict[str, str]):
    from tuner.guidelines import RuleSet

    return RuleSet.from_selection("baseline", selection)
