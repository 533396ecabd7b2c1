"""`tuner tune`: screen the pool, check and confirm the winner, decide (tuner.tuning)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from tuner.cli._common import (
    ClusterOption,
    DbOption,
    JsonOption,
    ModelOption,
    NoCacheOption,
    PanelOption,
    SamplesOption,
    SuiteOption,
    TurnsOption,
    console,
    print_json,
    resolve_models,
)
from tuner.cli._plan import BudgetUsdOption, DecideOption, PlanOption, decide_cap, install, show, spent_line
from tuner.cli._progress import phase_progress
from tuner.cli._table import WideOption

__all__ = ["register"]

StudyOption = Annotated[
    Optional[str], typer.Option("--study", help="Study name (default: derived from the configuration).")
]
StorageOption = Annotated[
    Optional[str], typer.Option("--storage", help="Optuna storage URL (default: the tuner store).")
]


def tune(
    category: Annotated[str, typer.Option("--category", "-c", help="Target category to improve.")],
    model: ModelOption = None,
    panel: PanelOption = None,
    budget_calls: Annotated[
        Optional[int],
        typer.Option(
            "--budget-calls",
            min=1,
            help="Cap on provider calls over the whole command, shared by every phase (default: half of single-sample leave-one-out of the pool over the tuning evals).",
        ),
    ] = None,
    budget_usd: BudgetUsdOption = None,
    plan: PlanOption = False,
    decide: DecideOption = None,
    samples: SamplesOption = 4,
    tolerance: Annotated[
        float,
        typer.Option(
            help="Non-inferiority margin other categories are shown against, and the publish gate's (decisions stop on a drop established in any other category: exact one-sided McNemar, Benjamini-Hochberg, at most 5% when nothing drops).",
            min=0,
            max=1,
        ),
    ] = 0.15,
    baseline: Annotated[
        Optional[str],
        typer.Option(help="Baseline: published name, NAME@VERSION or set (default: published, else all-active)."),
    ] = None,
    study: StudyOption = None,
    storage: StorageOption = None,
    confirm_budget: Annotated[
        Optional[int],
        typer.Option(
            "--confirm-budget",
            min=1,
            help="Calls for confirming the winner, within what the cap leaves after the screening's half (default: twice what a fixed design at the evidence samples would make; it stops sooner once every category is decided).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the screening's design.")] = 0,
    report: Annotated[
        Optional[Path], typer.Option(help="Markdown report path (default reports/tune/<study>.md).")
    ] = None,
    no_cache: NoCacheOption = False,
    turns: TurnsOption = 1,
    placebo: Annotated[
        bool,
        typer.Option(
            "--placebo",
            help="Once the winner is accepted, measure it against a length-matched placebo (its token count of rules about another domain) on fresh samples of the target's tuning evals: beats the placebo, or no more than it.",
        ),
    ] = False,
    placebo_seed: Annotated[
        int, typer.Option("--placebo-seed", min=0, help="Seed of the placebo text (with --placebo).")
    ] = 0,
    db: DbOption = None,
    cluster: ClusterOption = None,
    suite: SuiteOption = None,
    wide: WideOption = False,
    as_json: JsonOption = False,
) -> None:
    """Find the rules that raise CATEGORY's pass rate without regressing the others."""
    from tuner.planning.tune import placebo_cap, tune_plan, what_would_decide
    from tuner.runs import Harness
    from tuner.tuning import build_config
    from tuner.tuning import tune as run_tune
    from tuner.tuning.budgets import cap_of, check_confirm_budget

    with Harness(db=db, use_cache=not no_cache, cluster=cluster, turns=turns) as h:
        specs = resolve_models(h.project, model, panel)
        config = build_config(h, category, specs, samples=samples, tolerance=tolerance, baseline=baseline, seed=seed)
        given_calls = budget_calls
        if decide is not None:
            from tuner.planning.commands import tune_calls_for

            effect, budget_calls = decide_cap(decide, budget_calls, lambda x: tune_calls_for(h, config, specs, x))
            h.plan_decide = {"effect": effect, "calls": budget_calls}
        budget_calls = cap_of(config, budget_calls)
        run_calls = budget_calls  # what the screening, check and confirmation share; the arm's calls are apart
        if placebo:
            run_calls, budget_calls = placebo_cap(h, config, specs, budget_calls, given_calls is not None)
        check_confirm_budget(run_calls, confirm_budget)
        budget = install(h, "tune", budget_calls=budget_calls, budget_usd=budget_usd, plan_only=plan, as_json=as_json)
        h.plan_hook = None
        seed_of_placebo = placebo_seed if placebo else None
        show(
            h,
            tune_plan(h, config, specs, run_calls, confirm_budget, seed_of_placebo, budget_calls),
            plan_only=plan,
            as_json=as_json,
        )
        with phase_progress(not as_json) as progress:
            result = run_tune(
                h,
                config,
                study_name=study,
                storage=storage,
                budget_calls=run_calls,
                confirm_budget=confirm_budget,
                run_progress=progress,
                placebo=placebo,
                placebo_seed=placebo_seed,
            )
        if not result.accepted:
            what_would_decide(h, config, specs, result, run_calls, model, panel, confirm_budget)
        path = _write_report(h.project, result, report)
    decision = result.acceptance.decision if result.acceptance else None
    if as_json:
        print_json(
            {
                **result.model_dump(mode="json"),
                "report": str(path),
                "accepted": result.accepted,
                "decision": decision,
                "publish_command": publish_command(result.study) if result.accepted else None,
                "spent": budget.spent,
                "plan": budget.plan.as_dict() if budget.plan else None,
            }
        )
    else:
        _print(result, path, wide)
        console().print(f"[dim]{spent_line(budget)}[/dim]")
    if decision == "not measured" or (result.placebo is not None and result.placebo.claim == "not measured"):
        from tuner.errors import EXIT_CODES, IncompleteError

        raise typer.Exit(EXIT_CODES[IncompleteError])


def _write_report(project, result, path: Path | None) -> Path:
    from tuner.files import write_atomic
    from tuner.tuning.markdown import render_markdown

    return write_atomic(path or project.reports / "tune" / f"{result.study}.md", render_markdown(result))


def _print(result, path: Path, wide: bool = False) -> None:
    from tuner.cli._table import Column, fitted_table, print_wide
    from tuner.runs.usage import plural

    out = console()
    columns = [
        Column("category", 0),
        Column("Δ pts [95% CI]", 0, "right"),
        Column("verdict", 0),
        Column("q", 2, "right"),
        Column("after %", 3, "right"),
        Column("before %", 4, "right"),
    ]
    left_out: list[str] = []
    for title, rows in (("fresh samples, tuning evals", result.fresh), ("held-out evals", result.held_out)):
        for model in dict.fromkeys(r.model for r in rows):
            mine = [r for r in rows if r.model == model]
            cells = [
                [
                    r.category,
                    _points(r.paired),
                    {"no detectable change": "–"}.get(r.paired.verdict, r.paired.verdict),
                    "n/a" if r.paired.q_value is None else f"{r.paired.q_value:.3f}",
                    _pct(r.after),
                    _pct(r.before),
                ]
                for r in mine
            ]
            table, dropped, needed = fitted_table(
                f"{model} · {result.baseline} → winner · {title}",
                columns,
                cells,
                width=out.width,
                wide=wide,
                row_styles=["bold" if r.category == result.category else None for r in mine],
            )
            left_out += [d for d in dropped if d not in left_out]
            print_wide(out, table, needed)
    if left_out:
        out.print(f"[dim]not shown at {out.width} columns: {', '.join(left_out)} (--wide shows them)[/dim]")
    if result.fresh or result.held_out:
        out.print(
            "[dim]intervals treat evals as the unit (they speak for tasks like these); verdict and q are the "
            "sequential test with an indifference zone on paired samples of these evals (BH across each look)[/dim]"
        )
    if result.confirmation and result.confirmation.design != "none":
        c = result.confirmation
        out.print(
            f"[dim]confirmation: {plural(c.looks, 'look')}, {plural(c.calls, 'call')} ({c.stopped}); the fixed design "
            f"({c.fixed_samples} samples everywhere) would make {c.fixed_calls}: {c.saved_calls} saved[/dim]"
        )
    added = sorted(set(result.best_selection) - set(result.baseline_selection))
    removed = sorted(set(result.baseline_selection) - set(result.best_selection))
    out.print(
        f"winner: trial {result.best_trial}, {plural(len(result.best_selection), 'rule')}, {result.best_tokens} tokens "
        f"(baseline {result.baseline_tokens}); added: {', '.join(added) or 'none'}; removed: {', '.join(removed) or 'none'}"
    )
    out.print(f"rules that help {result.category}: [green]{', '.join(result.found_helpful) or 'none detected'}[/green]")
    out.print(f"rules that hurt another category: [red]{', '.join(result.found_harmful) or 'none detected'}[/red]")
    if result.screening:
        sc, en = result.screening, result.screening.engine
        decided = sum(1 for e in result.rule_effects if e.verdict not in ("open", "undecided"))
        out.print(
            f"screened {sc.factors} rules and phrasings on {sc.target_evals} {result.category} evals: {decided}/"
            f"{len(result.rule_effects)} cells decided in {plural(en.rounds, 'look')}, {plural(en.calls, 'call')}; changes taken "
            f"({sc.chosen_by}): {', '.join(sc.changes) or 'none'}; regression-checked {plural(sc.checked, 'trial')}"
        )
    out.print(
        f"[dim]{plural(result.trials, 'trial')}, {plural(result.calls, 'provider call')}; study {result.study}; "
        f"report {path}[/dim]"
    )
    for lead in result.screening.leads if result.screening else []:
        calls = "no cap up to 10,000,000 calls" if lead["calls"] is None else f"a cap of {lead['calls']:,} calls"
        out.print(
            f"open: {lead['rule']} · {lead['model']} reads {lead['delta'] * 100:+.0f} points on {lead['category']}; "
            f"{calls} decides an effect that size with 80% power",
            markup=False,
        )
    if result.screening and result.screening.continue_:
        out.print(f"to decide the leading one: {result.screening.continue_}", markup=False)
    a = result.acceptance
    for line in claim_lines(result):
        out.print(line)
    for line in placebo_lines(result):
        out.print(line, markup=False)
    if result.accepted:
        out.print(
            "[green]decision: accepted[/green] (the target improved on fresh samples of its tuning evals; a drop of "
            f"more than {result.tolerance * 100:.0f} points is ruled out in every other category, and none is "
            "established anywhere else)"
        )
        out.print(f"publish the winner with: [bold]{publish_command(result.study)}[/bold]")
    elif a is not None:
        style = "yellow" if a.decision in ("no change", "not measured") else "red"
        out.print(f"[{style}]decision: {a.decision}[/{style}]: nothing to publish")
        for reason in a.reasons:
            out.print(f"  - {reason}", markup=False)
        if any(not n.shown for n in a.noninferiority) and result.screening:
            # The confirmation's looks are kept: a larger cap goes on sampling where this one stopped.
            from tuner.tuning.budgets import SCREEN_SHARE

            cap = round(result.screening.engine.budget_calls / SCREEN_SHARE)
            margin = result.confirmation.margin_continue if result.confirmation else None
            out.print(
                (
                    "  to rule it out everywhere (80% chance where nothing moves; the confirmation continues its "
                    f"looks): {margin}"
                )
                if margin
                else "  a larger --budget-calls goes on ruling it out (the confirmation continues its looks): "
                + (result.screening.continue_ or f"the same command with --budget-calls {2 * cap}"),
                markup=False,
            )


def claim_lines(result) -> list[str]:
    """What the winner did to the target, said where it was measured: its tuning evals (where the
    change was chosen), with the held-out evals beside it."""
    a = result.acceptance
    lines = []
    for c in a.claim if a else []:
        tuning, held = c.tuning_evals, c.held_out_evals
        if not tuning:
            continue
        line = (
            f"{c.model} · {c.category}: {_span(tuning)} on its {tuning.evals} tuning evals (fresh samples; the "
            "change was chosen on these evals)"
        )
        line += f"; on its {held.evals} held-out evals {_span(held)}" if held else "; no held-out evals"
        lines.append(line)
    return lines


def placebo_lines(result) -> list[str]:
    """tune --placebo: the winner against its length-matched placebo, per model, and the claim."""
    arm = result.placebo
    if arm is None:
        return []
    if not arm.cells:
        return [arm.note or "no placebo arm"]
    lines = [
        f"placebo arm: the winner against {arm.tokens} tokens of rules about {arm.domain} (seed {arm.seed}), "
        f"{arm.samples} fresh samples of {arm.evals} {result.category} tuning evals"
    ]
    for c in arm.cells:
        delta = "n/a" if c.delta is None else f"{c.delta * 100:+.0f} points [{c.lo * 100:+.0f}, {c.hi * 100:+.0f}]"
        q = "n/a" if c.q_value is None else f"{c.q_value:.3g}"
        lines.append(f"  {c.model_label} · {c.category}: placebo → winner {delta}, q {q}: {c.verdict}")
    lines.append(
        f"placebo claim: the winner {arm.claim}"
        if arm.claim != "not measured"
        else "placebo claim: not measured (answers lost to provider or grader failures, or to the cap); the "
        "decision stands"
    )
    return lines


def _span(part) -> str:
    return f"{part.delta * 100:+.0f} points [{part.lo * 100:+.0f}, {part.hi * 100:+.0f}]"


def publish_command(study: str) -> str:
    """The exact command that publishes this study's winner (with the suite, when not the default)."""
    import os
    import shlex

    suite = os.environ.get("TUNER_SUITE")
    return "tuner publish --from " + shlex.quote(study) + (f" --suite {shlex.quote(suite)}" if suite else "")


def _pct(e) -> str:
    return "n/a" if e.rate is None else f"{e.rate * 100:.0f} [{e.lo * 100:.0f}–{e.hi * 100:.0f}]"


def _points(p) -> str:
    return "n/a" if p.delta is None else f"{p.delta * 100:+.0f} [{p.lo * 100:+.0f}, {p.hi * 100:+.0f}]"


def register(app: typer.Typer) -> None:
    app.command("tune")(tune)
