"""Every default size and budget formula of tune, in one place.

The command's cap (``--budget-calls``) is shared by every phase: the baseline on the target's
evals, the screening (``SCREEN_SHARE`` of the cap), the regression check, then the confirmation
(what the cap leaves, at most twice its fixed design). ``tune --plan``, ``tune --decide``, the
calibration (``tuner.publish.simulate``) and tune itself all read these functions, so a plan says
what the run will spend.
"""

from __future__ import annotations

from tuner.errors import InputError
from tuner.tuning.config import TuneConfig

__all__ = [
    "SCREEN_SHARE",
    "cap_of",
    "check_confirm_budget",
    "confirm_budget",
    "confirm_per_sample",
    "default_budget",
    "evidence_samples",
    "fixed_confirm_calls",
    "placebo_calls",
    "regression_samples",
    "screen_budget",
    "screen_pool",
]

SCREEN_SHARE = 0.5  # of the command's cap: the engine's screening on the target's evals


def default_budget(config: TuneConfig, n_models: int) -> int:
    """The default cap: half of single-sample leave-one-out of the pool over the tuning evals (the
    field's method), with a floor so a small suite can still confirm its winner: ablate's default
    over the pool (``tuner.ablation.default_budget``), per model."""
    from tuner.ablation import default_budget as ablate_default

    return ablate_default(len(config.pool), len(config.eval_ids)) * n_models


def cap_of(config: TuneConfig, given: int | None) -> int:
    """The command's cap: ``given`` (``--budget-calls``), else ``default_budget``."""
    return default_budget(config, len(config.models)) if given is None else given


def screen_budget(cap: int) -> int:
    """The screening's share of the cap."""
    return int(cap * SCREEN_SHARE)


def screen_pool(config: TuneConfig) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """What the screening's engine weighs: every pool rule in its baseline phrasing (a candidate in
    its default), and the other phrasings of each rule that has some."""
    pool = {rid: config.baseline_selection.get(rid, "default") for rid in config.pool}
    variants = {rid: tuple(names) for rid, names in config.variants.items() if rid in pool and len(names) > 1}
    return pool, variants


def regression_samples(config: TuneConfig) -> int:
    """The check's samples per eval: half the trials' (2 at the default 4). The check is a filter
    (the acceptance judges every category again on fresh samples), so its calls are better spent
    there: on a simulated Convex-shaped suite at the default cap, a +30-point winner was published
    87% of the time with the check at 2 samples against 78% at 4 (the confirmation got about 400 more
    calls), and a 15-point harm elsewhere slipped through equally often (43% and 42%; 60 repetitions,
    ``tuner.publish.simulate``). Its false refusals no longer grow as it shrinks: a drop must be
    established, whatever the sample size (``scoring.score_trial``)."""
    return max(2, config.samples // 2)


def evidence_samples(config: TuneConfig) -> int:
    """Samples of the confirmation's fixed design (and the scale of its sequential rounds), and of
    the placebo arm: more than a trial used, since these are the claims the report makes (3x the
    trial samples, at least 12)."""
    return max(3 * config.samples, 12)


def fixed_confirm_calls(config: TuneConfig, n_held: int, n_models: int) -> int:
    """What the confirmation's fixed design costs: two prompts x (every tuning + held-out eval) x K x models."""
    return confirm_per_sample(config, n_held, n_models) * evidence_samples(config)


def confirm_per_sample(config: TuneConfig, n_held: int, n_models: int) -> int:
    """What one more sample of every eval costs the confirmation: two prompts x (tuning + held-out evals) x models."""
    return 2 * (len(config.eval_ids) + n_held) * n_models


def confirm_budget(
    config: TuneConfig,
    n_held: int,
    n_models: int,
    left: int | None,
    given: int | None = None,
    cap: int | None = None,
) -> int:
    """The confirmation's calls: ``given`` (``--confirm-budget``), else twice the fixed design, scaled
    by the command's ``cap`` over the default cap when it is larger, within what the cap leaves
    (``left``; None: no cap). The scaling is what lets a rerun with a larger cap go on confirming a
    winner the first invocation left unconfirmed: at a fixed twice-the-design the confirmation's
    looks saturated from the second cap on, every larger cap replayed the same answers, and a +30
    winner stayed unconfirmed in a tenth to a third of the worlds for good (``tuner.publish.simulate``).
    A given budget is cut to what is left too: the confirmation stops at its last planned look
    instead of at the cap, mid-look (the CLI refuses up front a given budget the screening's share
    leaves no room for: ``check_confirm_budget``)."""
    if given is not None:
        most = given
    else:
        scale = max(1.0, cap / default_budget(config, n_models)) if cap else 1.0
        most = int(2 * fixed_confirm_calls(config, n_held, n_models) * scale)
    return most if left is None else max(1, min(most, left))


def check_confirm_budget(cap: int, given: int | None) -> None:
    """Refuses before any call a ``--confirm-budget`` larger than what ``cap`` leaves once the
    screening took its share: the plan would promise a confirmation the cap cannot pay for."""
    if given is None:
        return
    room = cap - screen_budget(cap)
    if given > room:
        raise InputError(
            f"--confirm-budget {given}: the cap of {cap} calls leaves at most {room} after the screening's share; "
            f"give --budget-calls {2 * given} or more, or a smaller --confirm-budget"
        )


def placebo_calls(config: TuneConfig, n_target_evals: int, n_models: int) -> int:
    """What tune --placebo's arm costs: two prompts x the target's tuning evals x the evidence samples x models."""
    return 2 * n_target_evals * evidence_samples(config) * n_models
