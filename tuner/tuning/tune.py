"""`tune`: the whole loop, from configuration to a confirmed winner and its evidence."""

from __future__ import annotations

from tuner.errors import BudgetSpentError, InputError
from tuner.runs import Harness
from tuner.tuning.acceptance import NOT_MEASURED, accept
from tuner.tuning.config import TuneConfig
from tuner.tuning.confirmation import confirm_budget as confirm_budget_of
from tuner.tuning.measure import harness_measure
from tuner.tuning.placebo import not_run, placebo_arm
from tuner.tuning.screen import default_budget, screen
from tuner.tuning.report import TuneReport, confirm, importance, rule_evidence
from tuner.tuning.space import rule_pool, selection_hash, selection_of
from tuner.tuning.study import best_trial, load_config, local_moves, open_study, run_trials, specs_of

__all__ = ["build_config", "baseline_selection", "budget_of", "default_trials", "tune", "finish"]


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
    h: Harness, category: str, specs: list, *, samples: int | None = None, tolerance: float | None = None,
    baseline: str | None = None, seed: int = 0, search: str | None = None,
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
        **{k: v for k, v in (("samples", samples), ("tolerance", tolerance), ("search", search)) if v is not None},
    )


def budget_of(config: TuneConfig, budget_calls: int | None) -> int | None:
    """The command's cap: the user's, else the screen flow's default (``screen.default_budget``);
    the tpe flow has none by default (its trials are counted instead)."""
    if budget_calls is None and config.search == "screen":
        return default_budget(config, len(config.models))
    return budget_calls


def default_trials(config: TuneConfig) -> int:
    """Every single-change trial, their two combinations, then eight trials of TPE."""
    return len(local_moves(config)) + 2 + 8


def finish(h: Harness, study, progress=None, *, evidence_budget: int | None = None,
           confirm_budget: int | None = None, left: int | None = None, screening: dict | None = None,
           effects: list | None = None, measure=None) -> TuneReport:
    """Confirm the winner and say which rules do what. ``left``: the calls the whole command may
    still make. ``screening``: the default flow's record, whose check chose the winner (``None``: the
    tpe flow, whose winner is the study's best trial). ``effects``: the screening's rule effects,
    which are then the evidence; otherwise the adaptive design measures the winner's rules."""
    config = load_config(study)
    specs = specs_of(config)
    measure = measure or harness_measure(h, specs, progress)
    best = best_trial(study)
    if screening is not None:  # this invocation's check decided, by content
        best_sel = dict(screening.get("winner") or config.baseline_selection)
    else:
        best_sel = selection_of({k: v for k, v in best.params.items()}) if best else dict(config.baseline_selection)
    changed = best_sel != dict(config.baseline_selection)
    lost = (screening or {}).get("not_measured") or []
    n_held = sum(1 for e in h.suite.evals if e.held_out)
    if changed and not lost:
        budget = confirm_budget_of(config, n_held, len(specs), left, confirm_budget)
        fresh, held, confirmation = confirm(h, config, specs, config.baseline_selection, best_sel, progress,
                                            budget_calls=budget, measure=measure)
    else:  # nothing to confirm, and nothing to publish (or the check could not be judged)
        fresh, held, confirmation = [], [], {"design": "none", "looks": 0, "calls": 0, "new_calls": 0,
                                             "stopped": "no change", "fixed_calls": 0, "saved_calls": 0, "fixed_samples": 0}
    if effects is not None:  # the screening's verdicts on the whole pool are the evidence
        engine = (screening or {}).get("engine", {})
        evidence = {"design": "screening", "calls": 0, "new_calls": 0, "rounds": engine.get("rounds", 0),
                    "stopped": engine.get("stopped"), "budget_calls": engine.get("budget_calls")}
    else:
        if left is not None and evidence_budget is None:
            evidence_budget = max(0, left - confirmation["calls"])
        effects, evidence = rule_evidence(h, config, specs, best_sel, progress, budget_calls=evidence_budget)
    evidence_runs = evidence.pop("run_ids", [])
    target = [e for e in effects if e.category == config.category]
    trials = study.get_trials(deepcopy=False)
    tokens = {t.number: int(t.user_attrs.get("tokens", 0)) for t in trials}
    base_trial = next((t for t in trials if t.user_attrs.get("baseline")), None)
    acceptance = _refused(accept(config.category, fresh, held, changed=changed), screening, changed, effects)
    if lost:
        acceptance = acceptance.model_copy(update={"decision": NOT_MEASURED, "reasons": [
            f"the regression check was not measured ({', '.join(lost)}: answers lost to provider or grader failures); "
            "run the same command again to retry them (nothing measured is bought again)"]})
    elif confirmation.get("stopped") == "no budget":
        acceptance = acceptance.model_copy(update={"decision": NOT_MEASURED, "reasons": [
            f"the confirmation was not measured: its {confirmation['budget_calls']} calls (what the cap left) are less than "
            "one fresh sample of every eval for both prompts; a larger --budget-calls (or --confirm-budget) goes on from here"]})
    elif evidence.get("lost"):
        acceptance = acceptance.model_copy(update={"decision": NOT_MEASURED, "reasons": acceptance.reasons + [
            f"the rule evidence was not measured: {evidence['lost']} answers lost to provider or grader failures; "
            "run the same command again to retry them"]})
    acceptance = acceptance.model_copy(update={"study": study.study_name, "selection": best_sel,
                                               "selection_hash": selection_hash(best_sel)})
    return TuneReport(
        study=study.study_name,
        category=config.category,
        baseline=config.baseline,
        trials=sum(1 for t in trials if t.state.name == "COMPLETE"),
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
        calls=(screening or {}).get("new_calls", sum(int(t.user_attrs.get("calls", 0)) for t in trials))
        + confirmation["new_calls"] + evidence["new_calls"],
        screening=screening,
        evidence=evidence,
        confirmation=confirmation,
        tolerance=config.tolerance,
        acceptance=acceptance,
        evidence_runs=evidence_runs,
    )


def _refused(acceptance, screening: dict | None, changed: bool, effects: list | None = None):
    """Say why nothing changed: the regression check refused what the screening found, or the
    screening left its questions undecided at this budget (no change is then not evidence of none)."""
    if changed or not screening:
        return acceptance
    cells = effects or []  # the screening's cells: all on the target's evals
    open_ = sum(1 for e in cells if e.verdict == "undecided")
    if screening["changes"]:
        what = ("the changes the screening decided" if screening["chosen_by"] == "decided"
                else "the screening's best bet (no change was decided)")
        where = "; ".join(", ".join(cells) for cells in screening.get("refused") or [] if cells)
        reason = (f"{what} ({', '.join(screening['changes'])}) refused by the regression check: a drop is "
                  f"established in another category{f' ({where})' if where else ''}")
    elif open_:
        reason = (f"the screening decided no change within its {screening['engine']['budget_calls']} calls: {open_} of "
                  f"{len(cells)} questions are still undecided (a larger --budget-calls goes on from here)")
    else:
        reason = "the screening found every rule and phrasing of the pool to make no meaningful difference"
    return acceptance.model_copy(update={"reasons": [reason]})


def tune(
    h: Harness,
    config: TuneConfig,
    *,
    study_name: str | None = None,
    storage: str | None = None,
    n_trials: int | None = None,
    budget_calls: int | None = None,
    batch: int = 4,
    evidence_budget: int | None = None,
    confirm_budget: int | None = None,
    progress=None,
    run_progress=None,
    placebo: bool = False,
    placebo_seed: int = 0,
) -> TuneReport:
    """``placebo``: once the winner is accepted, measure it against a length-matched placebo of seed ``placebo_seed``
    (``tuner.tuning.placebo``); ``budget_calls`` is what the rest shares (the CLI's cap holds the arm's
    calls on top of it, so a lost call makes only the arm "not measured")."""
    study = open_study(storage or h.db_url, study_name or config.default_study_name, config)
    if n_trials is None and budget_calls is None and config.search == "tpe":
        n_trials = default_trials(config)
    # Recorded as running from the start: `publish` takes the latest *finished* study, and an
    # interrupted one shows as such in the viewer.
    h.store.start_experiment(config.hash, study.study_name, "tune", config.model_dump())
    if h.budget is None:  # no cap: still count what is spent
        from tuner.runs.plan import Budget

        h.budget = Budget()
    spent_before = h.budget.spent_calls
    try:
        if config.search == "screen":
            cap = budget_of(config, budget_calls)
            screening, effects = screen(h, study, config, run_progress, cap=cap)
            report = finish(h, study, run_progress, confirm_budget=confirm_budget,
                            left=max(0, cap - screening["calls"]), screening=screening, effects=effects)
        else:
            run_trials(h, study, n_trials=n_trials, budget_calls=budget_calls, batch=batch, progress=progress,
                       run_progress=run_progress)
            report = finish(h, study, run_progress, evidence_budget=evidence_budget, confirm_budget=confirm_budget)
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


def _placebo(h: Harness, config: TuneConfig, report: TuneReport, seed: int, progress) -> dict:
    """The placebo arm, only once the winner is accepted (the decision is never changed by it)."""
    if not report.accepted:
        return not_run(seed)
    specs = specs_of(config)
    return placebo_arm(h, config, specs, report.best_selection, seed, harness_measure(h, specs, progress),
                       turn=getattr(h, "turns", 1))


def _link_runs(h: Harness, exp_id: str, study, report) -> None:
    """Link the study's trial runs and the confirmation's runs to the experiment."""
    trial_runs = [rid for t in study.get_trials(deepcopy=False) for rid in (t.user_attrs.get("run_ids") or [])]
    h.store.link_runs(exp_id, trial_runs, "trial")
    h.store.link_runs(exp_id, (report.confirmation or {}).get("run_ids") or [], "confirm")
    h.store.link_runs(exp_id, report.evidence_runs, "evidence")
    h.store.link_runs(exp_id, (report.placebo or {}).get("run_ids") or [], "placebo")
