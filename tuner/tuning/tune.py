"""`tune`: the whole loop, from configuration to a confirmed winner and its evidence.

One flow (``tuning/screen.py`` says why each step is what it is), each step handing the next a
typed record (``tuning/records.py``):

    screen (Screening, the rule effects) → confirm (Confirmation, rows) → accept (Acceptance)
    → placebo arm (PlaceboArm, with --placebo) → TuneReport (store, --json, Markdown, viewer)
"""

from __future__ import annotations

from tuner.errors import BudgetSpentError, InputError
from tuner.runs import Harness
from tuner.tuning.acceptance import NOT_MEASURED, Acceptance, accept
from tuner.tuning.budgets import cap_of
from tuner.tuning.budgets import confirm_budget as confirm_budget_of
from tuner.tuning.config import TuneConfig
from tuner.tuning.confirm_looks import ConfirmLooks
from tuner.tuning.confirmation import confirm
from tuner.tuning.measure import harness_measure
from tuner.tuning.placebo import not_run, placebo_arm
from tuner.tuning.records import Confirmation, Evidence, PlaceboArm, Screening
from tuner.tuning.report import TuneReport
from tuner.tuning.screen import screen
from tuner.tuning.space import rule_pool, selection_hash
from tuner.tuning.study import best_trial, importance, load_config, open_study, specs_of, trials

__all__ = ["build_config", "baseline_selection", "tune", "finish"]


def baseline_selection(h: Harness, ref: str | None) -> tuple[str, dict[str, str]]:
    """The currently published guideline file if there is one, else the ``all-active`` set."""
    from tuner.guidelines import resolve_ref

    if ref is None:
        published = h.suite.published_name
        ref = published if (h.project.published_dir / published / "manifest.json").is_file() else "all-active"
    refs = resolve_ref(h.guidelines, ref)
    missing = [rid for rid in refs if rid not in h.guidelines.library.rules]
    if missing:
        raise InputError(f"baseline '{ref}' names rule '{missing[0]}', which no longer exists in guidelines/rules")
    return ref, {rid: r.variant for rid, r in sorted(refs.items())}


def build_config(
    h: Harness,
    category: str,
    specs: list,
    *,
    samples: int | None = None,
    tolerance: float | None = None,
    baseline: str | None = None,
    seed: int = 0,
) -> TuneConfig:
    """The study's configuration; a setting left ``None`` takes ``TuneConfig``'s default (the CLI
    passes only what the user gave)."""
    h.suite.select(category=category)  # unknown category -> NotFoundError naming the valid ones
    if not h.suite.select(category=category, held_out=False):
        raise InputError(f"category '{category}' has no tuning evals (all are held out)")
    name, selection = baseline_selection(h, baseline)
    pool = sorted({r.id for r in rule_pool(h.guidelines.library)} | set(selection))
    return TuneConfig(
        category=category,
        models=[s.model_dump(exclude_defaults=True) for s in specs],
        baseline=name,
        baseline_selection=selection,
        pool=pool,
        variants={rid: h.guidelines.library.get(rid).variant_names for rid in pool},
        eval_ids=[e.id for e in h.suite.select(held_out=False)],
        seed=seed,
        **{k: v for k, v in (("samples", samples), ("tolerance", tolerance)) if v is not None},
    )


_NOT_CONFIRMED = Confirmation(design="none", stopped="no change")


def finish(
    h: Harness,
    study,
    screening: Screening,
    effects: list,
    progress=None,
    *,
    left: int,
    confirm_budget: int | None = None,
    measure=None,
    cap: int | None = None,
) -> TuneReport:
    """Confirm the screening's winner and decide. ``left``: the calls the command may still make;
    ``effects``: the screening's rule effects, which are the evidence."""
    config = load_config(study)
    specs = specs_of(config)
    measure = measure or harness_measure(h, specs, progress)
    best = best_trial(study)
    best_sel = dict(screening.winner or config.baseline_selection)  # this invocation's check decided, by content
    changed = best_sel != dict(config.baseline_selection)
    if changed and not screening.not_measured:
        n_held = sum(1 for e in h.suite.evals if e.held_out)
        budget = confirm_budget_of(config, n_held, len(specs), left, confirm_budget, cap=cap)
        # One sequential test over the experiment's invocations (``confirm_looks``): a rerun with a
        # larger cap replays this selection's looks and spends only what the earlier ones left.
        looks = ConfirmLooks.open(h.store, config.hash, selection_hash(best_sel))
        fresh, held, confirmation = confirm(
            h,
            config,
            specs,
            config.baseline_selection,
            best_sel,
            progress,
            budget_calls=budget,
            measure=measure,
            looks=looks,
        )
    else:  # nothing to confirm, and nothing to publish (or the check could not be judged)
        fresh, held, confirmation = [], [], _NOT_CONFIRMED
    evidence = Evidence(
        rounds=screening.engine.rounds, stopped=screening.engine.stopped, budget_calls=screening.engine.budget_calls
    )
    target = [e for e in effects if e.category == config.category]
    recorded = trials(study)
    tokens = {t.number: t.tokens for t in recorded}
    base_trial = next((t for t in recorded if t.baseline), None)
    acceptance = _decide(config, screening, confirmation, fresh, held, changed, effects)
    acceptance = acceptance.model_copy(
        update={"study": study.study_name, "selection": best_sel, "selection_hash": selection_hash(best_sel)}
    )
    return TuneReport(
        study=study.study_name,
        category=config.category,
        baseline=config.baseline,
        trials=sum(1 for t in recorded if t.complete),
        best_trial=best.number if best else None,
        baseline_selection=config.baseline_selection,
        best_selection=best_sel,
        baseline_tokens=tokens.get(base_trial.number, 0) if base_trial else 0,
        best_tokens=tokens.get(best.number, 0) if best else 0,
        fresh=fresh,
        held_out=held,
        rule_effects=effects,
        importance=importance(study),
        found_helpful=sorted({e.rule for e in target if e.verdict == "helps"}),
        found_harmful=sorted({e.rule for e in effects if e.verdict == "hurts"}),
        calls=screening.new_calls + confirmation.new_calls,
        screening=screening,
        evidence=evidence,
        confirmation=confirmation,
        tolerance=config.tolerance,
        acceptance=acceptance,
    )


def _decide(
    config: TuneConfig, screening: Screening, confirmation: Confirmation, fresh, held, changed: bool, effects: list
) -> Acceptance:
    """The acceptance, and, when it could not be judged, why: the check or the confirmation not measured."""
    decided = accept(
        config.category,
        fresh,
        held,
        changed=changed,
        noninferiority=confirmation.noninferiority if confirmation.design == "sequential" else None,
        margin=config.tolerance,
    )
    acceptance = _refused(decided, screening, changed, effects)
    if screening.not_measured:
        return acceptance.model_copy(
            update={
                "decision": NOT_MEASURED,
                "reasons": [
                    f"the regression check was not measured ({', '.join(screening.not_measured)}: answers lost to provider or "
                    "grader failures); run the same command again to retry them (nothing measured is bought again)"
                ],
            }
        )
    if confirmation.stopped == "no budget":
        return acceptance.model_copy(
            update={
                "decision": NOT_MEASURED,
                "reasons": [
                    f"the confirmation was not measured: its {confirmation.budget_calls} calls (what the cap left) are less than "
                    "one fresh sample of every eval for both prompts; a larger --budget-calls (or --confirm-budget) goes on from here"
                ],
            }
        )
    return acceptance


def _refused(acceptance: Acceptance, screening: Screening, changed: bool, effects: list) -> Acceptance:
    """Say why nothing changed: the regression check refused what the screening found, or the
    screening left its questions undecided at this budget (no change is then not evidence of none)."""
    if changed:
        return acceptance
    open_ = sum(1 for e in effects if e.verdict == "undecided")  # the screening's cells: all on the target's evals
    if screening.changes:
        what = (
            "the changes the screening decided"
            if screening.chosen_by == "decided"
            else "the screening's best bet (no change was decided)"
        )
        where = "; ".join(", ".join(cells) for cells in screening.refused if cells)
        reason = (
            f"{what} ({', '.join(screening.changes)}) refused by the regression check: a drop is "
            f"established in another category{f' ({where})' if where else ''}"
        )
    elif open_:
        reason = (
            f"the screening decided no change within its {screening.engine.budget_calls} calls: {open_} of "
            f"{len(effects)} questions are still undecided (a larger --budget-calls goes on from here)"
        )
    else:
        reason = "the screening found every rule and phrasing of the pool to make no meaningful difference"
    return acceptance.model_copy(update={"reasons": [reason]})


def tune(
    h: Harness,
    config: TuneConfig,
    *,
    study_name: str | None = None,
    storage: str | None = None,
    budget_calls: int | None = None,
    confirm_budget: int | None = None,
    run_progress=None,
    placebo: bool = False,
    placebo_seed: int = 0,
) -> TuneReport:
    """Screen, check, confirm and decide within ``budget_calls`` (default ``budgets.default_budget``).
    ``placebo``: once the winner is accepted, measure it against a length-matched placebo of seed
    ``placebo_seed`` (``tuner.tuning.placebo``); ``budget_calls`` is what the rest shares (the CLI's
    cap holds the arm's calls on top of it, so a lost call makes only the arm "not measured")."""
    if config.search != "screen":
        raise InputError(
            "this configuration is of the TPE search, which was removed (docs/tune-and-publish.md); "
            "its study can still be published, not continued"
        )
    study = open_study(storage or h.db_url, study_name or config.default_study_name, config)
    # Recorded as running from the start: `publish` takes the latest *finished* study, and an
    # interrupted one shows as such in the viewer.
    h.store.start_experiment(config.hash, study.study_name, "tune", config.model_dump())
    if h.budget is None:  # no cap: still count what is spent
        from tuner.runs.plan import Budget

        h.budget = Budget()
    spent_before = h.budget.spent_calls
    try:
        cap = cap_of(config, budget_calls)
        screening, effects = screen(h, study, config, run_progress, cap=cap)
        report = finish(
            h,
            study,
            screening,
            effects,
            run_progress,
            confirm_budget=confirm_budget,
            left=max(0, cap - screening.calls),
            cap=cap,
        )
        if placebo:
            report = report.model_copy(update={"placebo": _placebo(h, config, report, placebo_seed, run_progress)})
    except BaseException as exc:
        resumable = isinstance(exc, (KeyboardInterrupt, BudgetSpentError))
        h.store.finish_experiment(config.hash, "interrupted" if resumable else "failed")
        raise
    # Every provider call of this invocation, whichever phase made it (the baseline's included).
    report = report.model_copy(update={"calls": h.budget.spent_calls - spent_before})
    _link_runs(h, config.hash, study, report)
    h.store.finish_experiment(config.hash, "finished", report.model_dump(mode="json"))
    return report


def _placebo(h: Harness, config: TuneConfig, report: TuneReport, seed: int, progress) -> PlaceboArm:
    """The placebo arm, only once the winner is accepted (the decision is never changed by it)."""
    if not report.accepted:
        return not_run(seed)
    specs = specs_of(config)
    return placebo_arm(
        h, config, specs, report.best_selection, seed, harness_measure(h, specs, progress), turn=getattr(h, "turns", 1)
    )


def _link_runs(h: Harness, exp_id: str, study, report: TuneReport) -> None:
    """Link the study's trial runs, the confirmation's and the placebo arm's to the experiment."""
    h.store.link_runs(exp_id, [rid for t in trials(study) for rid in t.run_ids], "trial")
    h.store.link_runs(exp_id, report.confirmation.run_ids if report.confirmation else [], "confirm")
    h.store.link_runs(exp_id, report.placebo.run_ids if report.placebo else [], "placebo")
