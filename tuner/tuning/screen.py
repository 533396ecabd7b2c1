"""`tune`'s default flow: spend calls where the decision is open.

Measuring every single change on every tuning eval (the ``tpe`` flow) spends most calls on
categories a change does not touch: 93 changes x 72 evals x 4 samples on the Convex suite. Here:

1. **Screen** every single change (add a candidate, drop a rule, another phrasing) on the
   *target's* tuning evals only, one sample each, against the baseline at the trials' samples.
2. **Race** the few that raised the target (at most ``SCREEN_TOP``, best first) to the trials'
   samples on the same evals; those still above the baseline are the changes that helped.
3. **Check for regressions**: the best of those changes alone (and, if it is refused, all of them
   together) is an Optuna trial measured on every tuning eval against the baseline at the
   trials' samples; the trials' constraint (``study._violation``: tolerance as the margin, a significant
   drop of any size) decides, so a change that helps the target but breaks another category is
   never the winner.

Confirmation (fresh samples of the target's evals + every held-out eval) and the evidence (the
adaptive design on the target's evals) then share what is left of the budget. Every run is
content-addressed, so the same command replays what it already measured and goes on.
"""

from __future__ import annotations

from tuner.runs import Harness, outcomes_by_task, run_selections
from tuner.tuning.config import TuneConfig
from tuner.tuning.space import params_of
from tuner.tuning.study import apply_moves, best_trial, local_moves, run_trials, specs_of

__all__ = ["SCREEN_TOP", "default_budget", "regression_samples", "screen", "screen_phases", "target_evals"]

SCREEN_TOP = 8
_CANDIDATES = 2  # the best change that helped alone, then all of them together


def default_budget(config: TuneConfig, n_models: int) -> int:
    """Half of single-sample leave-one-out of the pool over the tuning evals (the field's method),
    with a floor so a small suite can still confirm its winner."""
    return max((len(config.pool) + 1) * len(config.eval_ids) * n_models // 2, 600 * n_models)


def target_evals(h: Harness, config: TuneConfig) -> list[str]:
    return [e for e in config.eval_ids if h.suite.get(e).category == config.category]


def regression_samples(h: Harness, config: TuneConfig) -> int:
    """The trials' samples: the target's part of the check is then the race's runs again (free).
    Fewer were tried and refused true winners on noise: at 2 samples (18 pairs a category on the
    Convex suite) the true +11-point `actions.storage-blobs` was refused for a drop beyond the
    tolerance in some other category; on the Python suite (3 evals a category) so was `py.copy-inputs`."""
    return config.samples


def screen_phases(h: Harness, config: TuneConfig, n_models: int) -> list[tuple[str, int, list[str]]]:
    """(phase, calls at most, evals) of screening, racing and the regression check."""
    target = target_evals(h, config)
    moves = len(local_moves(config)) - 1
    k, kr = config.samples, regression_samples(h, config)
    return [
        (f"screen: baseline x {k} + {moves} single changes x 1 sample on {len(target)} {config.category} evals",
         (k + moves) * len(target) * n_models, target),
        (f"race: up to {SCREEN_TOP} best changes to {k} samples", SCREEN_TOP * (k - 1) * len(target) * n_models, target),
        (f"regression check: baseline + up to {_CANDIDATES} candidates x {kr} samples on all {len(config.eval_ids)} tuning evals",
         (1 + _CANDIDATES) * kr * len(config.eval_ids) * n_models, list(config.eval_ids)),
    ]


def _rate(group: dict, category: str) -> float:
    passes = total = 0
    for outcome in group.values():
        for results in outcomes_by_task(outcome.results, category).values():
            passes += sum(results)
            total += len(results)
    return passes / total if total else 0.0


def screen(h: Harness, study, config: TuneConfig, progress=None) -> dict:
    """Screen, race and check; the winner is the study's best trial. What it spent and found."""
    specs = specs_of(config)
    target = target_evals(h, config)
    moves = local_moves(config)[1:]
    name = study.study_name
    base = run_selections(h, [("baseline", config.baseline_selection)], specs, target, samples=config.samples,
                          progress=progress)[0]
    base_rate = _rate(base, config.category)
    selections = [(f"{name}-screen-{i}", apply_moves(config.baseline_selection, [m])) for i, m in enumerate(moves)]
    first = run_selections(h, selections, specs, target, samples=1, progress=progress)
    ranked = sorted(((_rate(g, config.category) - base_rate, i) for i, g in enumerate(first)), key=lambda x: (-x[0], x[1]))
    top = [i for delta, i in ranked if delta > 0][:SCREEN_TOP]
    raced = run_selections(h, [selections[i] for i in top], specs, target, samples=config.samples, progress=progress) if top else []
    lifts = sorted(((_rate(g, config.category) - base_rate, i) for i, g in zip(top, raced)), key=lambda x: (-x[0], x[1]))
    helped = [i for delta, i in lifts if delta > 0]
    calls = (config.samples + len(moves)) * len(target) * len(specs) + len(top) * config.samples * len(target) * len(specs)
    # The best change alone first: changes that look good on the target's evals are mostly noise and
    # drops that other categories need (on the Convex simulator every combination of them fell in the
    # regression check); the combination is tried when the best alone is refused.
    candidates: list[dict] = []
    for moves_in in ([moves[helped[0]]] if helped else [], [moves[i] for i in helped]):
        sel = apply_moves(config.baseline_selection, moves_in)
        if moves_in and sel not in candidates:
            candidates.append(sel)
    checked = _check(h, study, config, candidates, progress, base_rate)
    calls += checked["calls"]
    new_calls = sum(o.new_calls for g in (base, *first, *raced) for o in g.values()) + checked["new_calls"]
    return {"design": "screen", "changes": len(moves), "target_evals": len(target), "baseline_rate": base_rate,
            "raced": [_describe(moves[i]) for i in top], "helped": [_describe(moves[i]) for i in helped],
            "candidates": len(candidates), "checked": checked["trials"], "calls": calls, "new_calls": new_calls}


def _check(h: Harness, study, config: TuneConfig, candidates: list[dict], progress, base_rate: float) -> dict:
    """The regression check: the baseline and the candidates, one at a time until one is feasible."""
    from optuna.trial import TrialState

    import json

    kr = regression_samples(h, config)
    n_evals = len(config.eval_ids) * len(specs_of(config)) * kr
    queued = {json.dumps(dict(sorted((t.params or t.system_attrs.get("fixed_params") or {}).items())), sort_keys=True)
              for t in study.get_trials(deepcopy=False) if t.state in (TrialState.COMPLETE, TrialState.WAITING)}
    if not candidates:
        _record_baseline(h, study, config, queued, base_rate)
        return {"calls": 0, "trials": 0, "new_calls": 0}
    wanted = [config.baseline_selection] + candidates
    trials = 0
    for sel in wanted:
        key = json.dumps(sel, sort_keys=True)
        params = params_of(sel, config.pool)
        if json.dumps(dict(sorted(params.items())), sort_keys=True) not in queued:
            study.enqueue_trial(params, user_attrs={"baseline": sel == config.baseline_selection})
        trials += 1
        run_trials(h, study, n_trials=trials, samples=kr, run_progress=progress)
        best = best_trial(study)
        if sel != config.baseline_selection and best is not None and best.user_attrs.get("selection") == key:
            break
    new = sum(int(t.user_attrs.get("calls", 0)) for t in study.get_trials(deepcopy=False))
    return {"calls": trials * n_evals, "trials": trials, "new_calls": new}


def _record_baseline(h: Harness, study, config: TuneConfig, queued: set[str], value: float) -> None:
    """Nothing helped: the baseline is the study's one trial (so the study has a winner, and
    ``publish`` says tune found no change), recorded without measuring it on every eval again."""
    import json

    from optuna.trial import TrialState

    from tuner.tuning import liveness
    from tuner.tuning.space import rule_pool, suggest

    params = params_of(config.baseline_selection, config.pool)
    if any(t.state == TrialState.COMPLETE for t in study.get_trials(deepcopy=False)):
        return
    if json.dumps(dict(sorted(params.items())), sort_keys=True) not in queued:
        study.enqueue_trial(params, user_attrs={"baseline": True})
    trial = liveness.ask(study)
    selection = suggest(trial, [r for r in rule_pool(h.guidelines.library) if r.id in set(config.pool)])
    trial.set_user_attr("selection", json.dumps(selection, sort_keys=True))
    for key, attr in {"constraint": 0.0, "calls": 0, "tokens": h.guidelines.compose(_set(selection)).tokens,
                      "run_ids": [], "deltas": {}, "not_measured": []}.items():
        trial.set_user_attr(key, attr)
    trial.set_constraint("no_regression", 0.0)
    study.tell(trial, value)  # its rate on the target's evals, as screened


def _set(selection: dict[str, str]):
    from tuner.guidelines import RuleSet

    return RuleSet.from_selection("baseline", selection)


def _describe(move: dict) -> str:
    if move["kind"] == "variant":
        return f"{move['rule']}@{move['variant']}"
    return f"{move['kind']} {move['rule']}"
