"""The Optuna study behind `tuner tune` and `tuner worker`.

Trials are asked in small batches so that one batch of rule selections is generated concurrently
and graded in one grading batch (far cheaper per eval than one at a time). Each trial runs its
selection on every model over the tuning evals; its value is the target category's pooled pass
rate; its constraint (``score_trial``) is whether a drop is established in any other model ×
category against the baseline: ``tuner.stats.drop_tests``, the exact one-sided McNemar test per
cell with Benjamini-Hochberg across the family, so a selection that changes nothing elsewhere is refused by noise
at most 5% of the time however many categories the suite has. The value stored is ``alpha`` minus
the smallest BH-adjusted p (feasible when <= 0). It is a cheap filter, not the guarantee: it
sees the trials' few samples, and the acceptance looks again on fresh ones (docs/tune-and-publish.md, *When tune
offers a winner*, gives its rates).
A trial with any answer lost to an infrastructure failure (on its side or the baseline's) is not
measured and infeasible: an outage must never make a selection look harmless.
The study lives in Optuna's RDB storage (the tuner store's database by default), so any number
of workers on any number of machines can share it; runs are content-addressed in the tuner store,
so a trial re-proposing a selection already measured costs nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from pydantic import BaseModel

from tuner.errors import IncompleteError, InputError, NotFoundError
from tuner.runs import Harness, outcomes_by_task, pair_outcomes, run_selections
from tuner.compare.rates import model_label
from tuner.stats import ALPHA, drop_counts, drop_tests, pair_interval
from tuner.tuning import liveness
from tuner.tuning.config import TuneConfig
from tuner.tuning.evidence import by_category
from tuner.tuning.space import params_of, rule_pool, suggest

__all__ = [
    "TrialScore", "open_study", "load_config", "run_trials", "best_trial", "score_trial", "specs_of",
    "local_moves", "apply_moves", "trial_counts", "unmeasured_cells", "WINNER_ATTR",
]

_CONFIG_ATTR = "tuner_config"
# The screening flow's winner (its selection as sorted JSON), set by each invocation's check: the
# study's best trial is the one holding it, never the lowest-numbered feasible one of some earlier run.
WINNER_ATTR = "screen_winner"
TrialProgress = Callable[[int, int, str], None]


class TrialScore(BaseModel):
    target: float | None
    constraint: float  # alpha - the smallest BH-adjusted p of a drop elsewhere (feasible when <= 0); 1 when not measured
    tokens: int
    deltas: dict[str, dict[str, float | None]]  # model label -> category -> paired point estimate
    run_ids: list[str]
    calls: int
    not_measured: list[str] = []  # "model · category" cells with an answer lost to an infrastructure failure
    drops: dict[str, float] = {}  # "model · category" (the other categories) -> BH-adjusted p of a drop
    regressed: list[str] = []  # the cells whose drop is established


def _storage(url: str):
    import warnings

    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    # Heartbeats let a later process fail the trials of one that was killed (tuning/liveness.py).
    live = liveness.storage_kwargs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # heartbeat options are marked experimental / deprecated-named
        if url.startswith("sqlite"):
            # SQLite + several processes: wait for locks instead of failing.
            return optuna.storages.RDBStorage(url, engine_kwargs={"connect_args": {"timeout": 60}}, **live)
        return optuna.storages.RDBStorage(url, engine_kwargs={"pool_pre_ping": True}, **live)


def _sampler(seed: int, startup: int):
    import optuna

    # Constraints reach the sampler through trial.set_constraint (Optuna 5), see _tell_batch.
    return optuna.samplers.TPESampler(seed=seed, n_startup_trials=startup, multivariate=True, constant_liar=True)


def open_study(storage_url: str, name: str, config: TuneConfig | None = None, startup: int = 8):
    """Create (with ``config``) or load the study ``name``; a config mismatch is an error."""
    import optuna

    if config is None:
        _require_existing(storage_url, name)
    storage = _storage(storage_url)
    seed = config.seed if config else 0
    if config is None:
        try:
            study = optuna.load_study(study_name=name, storage=storage, sampler=_sampler(seed, startup))
        except KeyError:
            raise NotFoundError(f"unknown study '{name}' (start it with `tuner tune`)") from None
        cfg = load_config(study)
        study.sampler = _sampler(cfg.seed, startup)
        liveness.recover(study)
        return study
    study = optuna.create_study(
        study_name=name, storage=storage, direction="maximize", sampler=_sampler(seed, startup), load_if_exists=True
    )
    stored = study.user_attrs.get(_CONFIG_ATTR)
    if stored is None:
        study.set_user_attr(_CONFIG_ATTR, config.model_dump_json())
        # The screening flow enqueues its own trials (the baseline and the candidates it found).
        for move in local_moves(config) if config.search == "tpe" else []:
            study.enqueue_trial(params_of(apply_moves(config.baseline_selection, [move]), config.pool),
                                user_attrs={"baseline": move["kind"] == "baseline", "move": move})
    elif TuneConfig.stored(stored).hash != config.hash:
        raise InputError(f"study '{name}' exists with a different configuration; choose another --study name")
    liveness.recover(study)
    return study


def _require_existing(storage_url: str, name: str) -> None:
    """Loading a study must not create a SQLite file (Optuna would, with empty tables)."""
    from pathlib import Path

    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        url = make_url(storage_url)
    except ArgumentError:
        raise InputError(f"--storage {storage_url!r}: not a SQLAlchemy database URL") from None
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:") and not Path(url.database).is_file():
        raise NotFoundError(f"unknown study '{name}' (no study storage at {url.database}; start it with `tuner tune`)")


def local_moves(config: TuneConfig) -> list[dict]:
    """The first trials: the baseline, then one change at a time (add a pool rule, drop a rule,
    rephrase a rule). Random subsets of many rules mostly break other categories; starting next to
    the baseline measures each rule where it would be used, and TPE takes over from there."""
    base = config.baseline_selection
    moves: list[dict] = [{"kind": "baseline"}]
    moves += [{"kind": "add", "rule": rid, "variant": "default"} for rid in config.pool if rid not in base]
    moves += [{"kind": "drop", "rule": rid} for rid in base]
    for rid, variant in base.items():
        moves += [{"kind": "variant", "rule": rid, "variant": v} for v in config.variants.get(rid, []) if v != variant]
    return moves


def apply_moves(selection: dict[str, str], moves: list[dict]) -> dict[str, str]:
    out = dict(selection)
    for move in moves:
        if move["kind"] in ("add", "variant"):
            out[move["rule"]] = move["variant"]
        elif move["kind"] == "drop":
            out.pop(move["rule"], None)
    return dict(sorted(out.items()))


def _combine_if_ready(study, config: TuneConfig) -> None:
    """Once every single-change trial is done, enqueue combinations of the changes that helped."""
    from optuna.trial import TrialState

    if study.user_attrs.get("combined"):
        return
    trials = study.get_trials(deepcopy=False)
    if any(t.state in (TrialState.WAITING, TrialState.RUNNING) and "move" in t.user_attrs for t in trials):
        return
    done = [t for t in trials if t.state == TrialState.COMPLETE and "move" in t.user_attrs]
    base = next((t for t in done if t.user_attrs.get("baseline")), None)
    if base is None:
        return
    study.set_user_attr("combined", True)
    # Single-change trials are noisy. Two combinations are measured like any other trial: the
    # changes that raised the target, and those plus every change that kept it level (mostly
    # drops and shorter phrasings: fewer tokens). A level-looking drop can hide a small loss, so
    # the first keeps such rules in; ties between the two go to fewer tokens.
    feasible = [t for t in done if not t.user_attrs.get("baseline") and t.user_attrs.get("constraint", 1) <= 0]
    better = [t.user_attrs["move"] for t in feasible if t.value > base.value]
    level = [t.user_attrs["move"] for t in feasible if t.value >= base.value]
    seen: list[dict] = []
    for moves in (better, level):
        combined = apply_moves(config.baseline_selection, moves)
        if moves and combined not in seen and combined != config.baseline_selection:
            seen.append(combined)
            study.enqueue_trial(params_of(combined, config.pool), user_attrs={"combined_from": len(moves)})


def load_config(study) -> TuneConfig:
    raw = study.user_attrs.get(_CONFIG_ATTR)
    if raw is None:
        raise InputError(f"study '{study.study_name}' was not created by tuner tune")
    return TuneConfig.stored(raw)


def specs_of(config: TuneConfig) -> list:
    from tuner.models import ModelSpec

    return [ModelSpec.model_validate(m) for m in config.models]


def unmeasured_cells(config: TuneConfig, runs: dict, samples: int | None = None, n_evals: int | None = None) -> list[str]:
    """``model · category`` cells of ``runs`` ({model key: RunOutcome}) missing an answer or holding an
    infrastructure failure (``"model · all"`` when results are missing outright). ``n_evals``: the
    evals the runs were planned on (default: every tuning eval)."""
    cells = []
    for outcome in runs.values():
        label = model_label(outcome.run.model, outcome.run.params)
        cells += sorted({f"{label} · {r.category}" for r in outcome.results if r.outcome == "infra"})
        if len(outcome.results) < (n_evals or len(config.eval_ids)) * (samples or config.samples):
            cells.append(f"{label} · all")
    return sorted(set(cells))


def score_trial(config: TuneConfig, trial_runs: dict, base_runs: dict, samples: int | None = None) -> TrialScore:
    """The trial's value (the target's pooled pass rate) and its constraint (module doc)."""
    passes = total = 0
    deltas: dict[str, dict[str, float | None]] = {}
    categories = sorted({r.category for o in base_runs.values() for r in o.results})
    missing = unmeasured_cells(config, trial_runs, samples)
    cells, counts = [], []
    for key, outcome in trial_runs.items():
        table = outcomes_by_task(outcome.results, config.category)
        passes += sum(sum(v) for v in table.values())
        total += sum(len(v) for v in table.values())
        label = model_label(outcome.run.model, outcome.run.params)
        model_deltas = deltas.setdefault(label, {})
        base_by, trial_by = by_category(base_runs[key].results), by_category(outcome.results)
        for cat in categories:
            before, after = pair_outcomes(base_by.get(cat, []), trial_by.get(cat, []), cat)
            interval = pair_interval(before, after)
            if interval is None:
                continue
            model_deltas[cat] = interval[0]
            if cat != config.category:
                cells.append(f"{label} · {cat}")
                counts.append(drop_counts(before, after))
    tests = drop_tests(counts)
    constraint = max((ALPHA - t.p_adjusted for t in tests), default=-ALPHA)
    first = next(iter(trial_runs.values()))
    if missing:
        constraint = max(constraint, 1.0)
    return TrialScore(
        target=(passes / total) if total else None,
        constraint=constraint,
        not_measured=missing,
        tokens=first.prompt.tokens,
        deltas=deltas,
        run_ids=[o.run.id for o in trial_runs.values()],
        calls=sum(o.new_calls for o in trial_runs.values()),
        drops={cell: t.p_adjusted for cell, t in zip(cells, tests)},
        regressed=[cell for cell, t in zip(cells, tests) if t.regressed],
    )


def trial_counts(study) -> tuple[int, int]:
    from optuna.trial import TrialState

    trials = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.RUNNING))
    complete = sum(1 for t in trials if t.state == TrialState.COMPLETE)
    calls = sum(int(t.user_attrs.get("calls", 0)) for t in trials)
    return complete, calls


def _tell_batch(study, config, trials, selections, outcomes, base_runs, samples: int | None = None) -> None:
    from optuna.trial import TrialState

    for trial, (_, selection), by_model in zip(trials, selections, outcomes):
        score = score_trial(config, by_model, base_runs, samples)
        for key, value in score.model_dump().items():
            if key != "target":
                trial.set_user_attr(key, value)
        trial.set_user_attr("selection", json.dumps(selection, sort_keys=True))
        trial.set_constraint("no_regression", score.constraint)
        if score.target is None:
            study.tell(trial, state=TrialState.FAIL)
        else:
            study.tell(trial, score.target)


def run_trials(
    h: Harness,
    study,
    *,
    n_trials: int | None,
    budget_calls: int | None = None,
    batch: int = 4,
    progress: TrialProgress | None = None,
    run_progress=None,
    samples: int | None = None,
) -> None:
    """Ask, run and tell trials until the study has ``n_trials`` complete or the call budget is spent
    (``samples`` per eval: the configuration's unless given, as the screening's regression check does)."""
    config = load_config(study)
    specs = specs_of(config)
    k = samples or config.samples
    pool = [r for r in rule_pool(h.guidelines.library) if r.id in set(config.pool)]
    base_runs = run_selections(h, [("baseline", config.baseline_selection)], specs, config.eval_ids,
                               samples=k, experiment_id=None, progress=run_progress)[0]
    missing = unmeasured_cells(config, base_runs, k)
    if missing:
        raise IncompleteError(f"the baseline was not measured ({', '.join(missing)}: answers lost to provider or "
                              "grader failures); no trial can be judged against it: run the same command again to retry them")
    while True:
        complete, calls = trial_counts(study)
        if progress:
            progress(complete, n_trials or complete, _best_note(study))
        remaining = (n_trials - complete) if n_trials else batch
        if remaining <= 0 or (budget_calls is not None and calls >= budget_calls):
            return
        _combine_if_ready(study, config)
        # A sampler seeded by the study's progress, not by the process: a study resumed after a
        # crash asks what an uninterrupted one would have asked at the same point.
        study.sampler = _sampler(config.seed + complete, getattr(study.sampler, "_n_startup_trials", 8))
        trials = []
        try:
            for _ in range(min(batch, remaining)):
                trials.append(liveness.ask(study))
            selections = [(f"{study.study_name}#{t.number}", suggest(t, pool)) for t in trials]
            with liveness.heartbeats(trials):
                outcomes = run_selections(h, selections, specs, config.eval_ids, samples=k,
                                          experiment_id=None, progress=run_progress)
            _tell_batch(study, config, trials, selections, outcomes, base_runs, k)
        except BaseException:
            _abandon(study, trials)
            raise


def _abandon(study, trials) -> None:
    """Fail the unfinished trials of an interrupted batch (never leave one RUNNING) and put the
    planned single-change ones back in the queue, so resuming measures them after all."""
    from optuna.trial import TrialState

    running = {t.number: t for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))}
    failed = []
    for t in trials:
        if t.number not in running:
            continue
        study.tell(t, state=TrialState.FAIL, skip_if_finished=True)
        failed.append(running[t.number])
    liveness.requeue(study, failed)


def _changes(t, baseline: dict[str, str]) -> int:
    """How many rules a trial's selection adds, drops or rephrases relative to the baseline."""
    from tuner.tuning.space import selection_of

    sel = selection_of(dict(t.params))
    return sum(1 for rid in set(sel) | set(baseline) if sel.get(rid) != baseline.get(rid))


def best_trial(study):
    """The feasible complete trial with the highest value; among equals, the fewest changes from the
    baseline (a change that measured level is noise until shown otherwise), then fewer prompt tokens."""
    from optuna.trial import TrialState

    feasible = [
        t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
        if t.user_attrs.get("constraint", 1.0) <= 0
    ]
    if not feasible:
        return None
    if study.user_attrs.get(_CONFIG_ATTR) and load_config(study).search == "screen":
        # The screening flow's trials only check its candidates; the winner is what the latest
        # invocation's check chose (screen.check), found by content.
        chosen = study.user_attrs.get(WINNER_ATTR)
        if chosen is not None:
            holding = [t for t in feasible if t.user_attrs.get("selection") == chosen]
            return max(holding, key=lambda t: t.number) if holding else None
        # A study of an earlier version (no winner recorded): its first passing candidate.
        passed = [t for t in feasible if not t.user_attrs.get("baseline")]
        return min(passed, key=lambda t: t.number) if passed else next((t for t in feasible if t.user_attrs.get("baseline")), None)
    # Last tie-break by content, not trial number: a study resumed after a crash numbers its
    # re-queued trials differently and must still pick the same winner.
    baseline = load_config(study).baseline_selection if study.user_attrs.get(_CONFIG_ATTR) else {}
    return max(feasible, key=lambda t: (round(t.value, 9), -_changes(t, baseline), -int(t.user_attrs.get("tokens", 0)),
                                        _neg_order(t.user_attrs.get("selection", ""))))


def _neg_order(text: str) -> tuple[int, ...]:
    """A key under which ``max`` prefers the lexicographically smallest ``text``."""
    return tuple(-ord(c) for c in text) + (1,)


def _best_note(study) -> str:
    best = best_trial(study)
    if best is None:
        return ""
    return f"best {best.value:.0%} (trial {best.number}, {best.user_attrs.get('tokens')} tokens)"
