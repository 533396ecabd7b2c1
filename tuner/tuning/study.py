"""The Optuna adapter: the one module of tuner that imports ``optuna``.

A tune's study is an Optuna study in an RDB storage (the tuner store's database by default): its
name is the configuration's hash, so the same command finds it again, and ``publish --from`` reads
its winner. tuner uses Optuna only as that record; nothing samples from it any more (the TPE search
was removed, docs/tune-and-publish.md says why).

The contract, tested by ``tests/tuning/test_study_adapter.py``, all through Optuna's public API:

- ``open_study(url, name, config)`` creates the study, or loads it if its recorded configuration
  has the same hash (another configuration: ``InputError``); ``open_study(url, name)`` loads an
  existing one and never creates anything, not even an SQLite file (unknown: ``NotFoundError``).
- ``load_config(study)`` is the ``TuneConfig`` the study was created with.
- ``recorder(study, config, library)`` returns ``record(selection, score, baseline)``, which keeps a
  measured selection as one COMPLETE trial (FAIL when nothing was measured), in one write (no trial
  is ever RUNNING), once per selection: recording a selection already recorded measured does nothing.
  Its ``TrialScore`` fields are the trial's user attributes, with ``selection`` (sorted JSON) and
  ``baseline``.
- ``set_winner(study, selection)`` records the invocation's winner by content; ``best_trial(study)``
  is the feasible trial holding it (the latest such trial), or ``None``.
- ``trials(study)`` lists the recorded trials as ``records.Trial``, by number.
- ``importance(study)``: PED-ANOVA importance per rule ({} with fewer than 4 distinct complete trials).
"""

from __future__ import annotations

import json

from tuner.errors import InputError, NotFoundError
from tuner.tuning.config import TuneConfig
from tuner.tuning.records import Trial
from tuner.tuning.scoring import TrialScore, score_trial, specs_of, unmeasured_cells
from tuner.tuning.space import choices, params_of, selection_of

__all__ = [
    "WINNER_ATTR",
    "TrialScore",
    "best_trial",
    "importance",
    "load_config",
    "open_study",
    "recorder",
    "score_trial",
    "set_winner",
    "specs_of",
    "trials",
    "unmeasured_cells",
]

_CONFIG_ATTR = "tuner_config"
# The invocation's winner (its selection as sorted JSON), set by each invocation's check: the
# study's best trial is the one holding it, never the lowest-numbered feasible one of some earlier run.
WINNER_ATTR = "screen_winner"


def _storage(url: str):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if url.startswith("sqlite"):
        # SQLite + several processes: wait for locks instead of failing.
        return optuna.storages.RDBStorage(url, engine_kwargs={"connect_args": {"timeout": 60}})
    return optuna.storages.RDBStorage(url, engine_kwargs={"pool_pre_ping": True})


def open_study(storage_url: str, name: str, config: TuneConfig | None = None):
    """Create (with ``config``) or load the study ``name``; a config mismatch is an error."""
    import optuna

    if config is None:
        _require_existing(storage_url, name)
        try:
            study = optuna.load_study(study_name=name, storage=_storage(storage_url))
        except KeyError:
            raise NotFoundError(f"unknown study '{name}' (start it with `tuner tune`)") from None
        load_config(study)  # not a tune study: InputError
        return study
    study = optuna.create_study(
        study_name=name, storage=_storage(storage_url), direction="maximize", load_if_exists=True
    )
    stored = study.user_attrs.get(_CONFIG_ATTR)
    if stored is None:
        study.set_user_attr(_CONFIG_ATTR, config.model_dump_json())
    elif TuneConfig.stored(stored).hash != config.hash:
        raise InputError(f"study '{name}' exists with a different configuration; choose another --study name")
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
    if (
        url.get_backend_name() == "sqlite"
        and url.database not in (None, "", ":memory:")
        and not Path(url.database).is_file()
    ):
        raise NotFoundError(f"unknown study '{name}' (no study storage at {url.database}; start it with `tuner tune`)")


def load_config(study) -> TuneConfig:
    raw = study.user_attrs.get(_CONFIG_ATTR)
    if raw is None:
        raise InputError(f"study '{study.study_name}' was not created by tuner tune")
    return TuneConfig.stored(raw)


def recorder(study, config: TuneConfig, library):
    """``record(selection, score, baseline)`` (module doc); ``library``: the rules, for each pool
    rule's choices (a baseline may hold a rule the pool's statuses would leave out)."""
    import optuna
    from optuna.distributions import CategoricalDistribution
    from optuna.trial import TrialState

    dists = {rid: CategoricalDistribution(choices(library.get(rid))) for rid in config.pool}
    have = {
        t.user_attrs.get("selection")
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
        if not t.user_attrs.get("not_measured")
    }

    def record(selection: dict[str, str], score: TrialScore, baseline: bool) -> None:
        key = json.dumps(selection, sort_keys=True)
        if key in have and not score.not_measured:
            return
        attrs = {**score.model_dump(exclude={"target"}), "selection": key, "baseline": baseline}
        trial = optuna.trial.create_trial(
            params=params_of(selection, config.pool),
            distributions=dists,
            value=score.target,
            user_attrs=attrs,
            state=TrialState.COMPLETE if score.target is not None else TrialState.FAIL,
        )
        trial.set_constraint("no_regression", score.constraint)
        study.add_trial(trial)
        if not score.not_measured:
            have.add(key)

    return record


def set_winner(study, selection: dict[str, str]) -> None:
    study.set_user_attr(WINNER_ATTR, json.dumps(selection, sort_keys=True))


def trials(study) -> list[Trial]:
    """Every trial the study recorded, by number."""
    out = []
    for t in study.get_trials(deepcopy=False):
        a = t.user_attrs
        out.append(
            Trial(
                number=t.number,
                complete=t.state.name == "COMPLETE",
                value=t.value,
                selection=json.loads(a["selection"]) if "selection" in a else selection_of(dict(t.params)),
                baseline=bool(a.get("baseline")),
                feasible=a.get("constraint", 1.0) <= 0,
                tokens=int(a.get("tokens", 0)),
                calls=int(a.get("calls", 0)),
                run_ids=list(a.get("run_ids") or []),
            )
        )
    return out


def _changes(t, baseline: dict[str, str]) -> int:
    """How many rules a trial's selection adds, drops or rephrases relative to the baseline."""
    sel = selection_of(dict(t.params))
    return sum(1 for rid in set(sel) | set(baseline) if sel.get(rid) != baseline.get(rid))


def best_trial(study):
    """The feasible complete trial holding the winner (``set_winner``); for a study recorded before
    winners were (its first passing candidate), or by the removed TPE search (the highest value, then
    the fewest changes from the baseline, then fewer tokens), what it chose then. ``None``: none."""
    from optuna.trial import TrialState

    feasible = [
        t
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
        if t.user_attrs.get("constraint", 1.0) <= 0
    ]
    if not feasible:
        return None
    config = load_config(study) if study.user_attrs.get(_CONFIG_ATTR) else None
    if config is None or config.search == "tpe":
        # Last tie-break by content, not trial number: a resumed study numbered its trials differently.
        baseline = config.baseline_selection if config else {}
        return max(
            feasible,
            key=lambda t: (
                round(t.value, 9),
                -_changes(t, baseline),
                -int(t.user_attrs.get("tokens", 0)),
                _neg_order(t.user_attrs.get("selection", "")),
            ),
        )
    chosen = study.user_attrs.get(WINNER_ATTR)
    if chosen is not None:
        holding = [t for t in feasible if t.user_attrs.get("selection") == chosen]
        return max(holding, key=lambda t: t.number) if holding else None
    passed = [t for t in feasible if not t.user_attrs.get("baseline")]
    return (
        min(passed, key=lambda t: t.number)
        if passed
        else next((t for t in feasible if t.user_attrs.get("baseline")), None)
    )


def _neg_order(text: str) -> tuple[int, ...]:
    """A key under which ``max`` prefers the lexicographically smallest ``text``."""
    return tuple(-ord(c) for c in text) + (1,)


def importance(study) -> dict[str, float]:
    """PED-ANOVA importance of each rule parameter (needs a few complete trials; {} otherwise)."""
    import optuna
    from optuna.trial import TrialState

    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    if len(complete) < 4 or len({t.value for t in complete}) < 2:
        return {}
    try:
        evaluator = optuna.importance.PedAnovaImportanceEvaluator()
        return {k: float(v) for k, v in optuna.importance.get_param_importances(study, evaluator=evaluator).items()}
    except (RuntimeError, ValueError):
        return {}
