"""`tuner ablate`: which rules help or hurt which categories."""

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
    SuiteOption,
    TurnsOption,
    console,
    err_console,
    print_json,
    resolve_models,
)
from tuner.cli._plan import BudgetUsdOption, DecideOption, PlanOption, decide_cap, install, show, spent_line
from tuner.cli._progress import phase_progress

__all__ = ["register"]


def ablate(
    rule_set: Annotated[
        str, typer.Option("--set", help="The set to ablate (its rules are the pool for add/screening).")
    ] = "all-active",
    design: Annotated[str, typer.Option(help="adaptive | loo | add | screening")] = "adaptive",
    budget_calls: Annotated[
        Optional[int],
        typer.Option(
            "--budget-calls",
            min=1,
            help="Most calls to spend, a cap over the whole command (adaptive default: half of a single-sample leave-one-out of the set over all tuning evals, at least 600 per model; with --category all of it goes to that category). A rerun with a larger budget reuses what it can.",
        ),
    ] = None,
    budget_usd: BudgetUsdOption = None,
    plan: PlanOption = False,
    decide: DecideOption = None,
    delta: Annotated[
        float,
        typer.Option(help="Adaptive: effects this large (pass-rate points, 0-1) must be found.", min=0.0, max=1.0),
    ] = 0.08,
    delta0: Annotated[
        float,
        typer.Option(
            "--delta0",
            help="Adaptive: effects this small do not matter (flagging one is a false alarm).",
            min=0.0,
            max=1.0,
        ),
    ] = 0.02,
    runs: Annotated[
        Optional[int],
        typer.Option(help="Screening: random selections per eval (default: about 2/3 of the rules).", min=2),
    ] = None,
    model: ModelOption = None,
    panel: PanelOption = None,
    samples: Annotated[
        Optional[int], typer.Option("--samples", "-k", min=1, help="Samples per eval (default 2; 1 for screening).")
    ] = None,
    category: Annotated[Optional[str], typer.Option("--category", "-c", help="Only this category's evals.")] = None,
    seed: Annotated[int, typer.Option(help="Screening design seed.")] = 0,
    output: Annotated[
        Optional[Path], typer.Option("--output", "-o", help="Report path (.md; .json and .png beside it).")
    ] = None,
    no_cache: NoCacheOption = False,
    turns: TurnsOption = 1,
    db: DbOption = None,
    cluster: ClusterOption = None,
    suite: SuiteOption = None,
    as_json: JsonOption = False,
) -> None:
    """Estimate each rule's effect per category with intervals and BH q-values."""
    from tuner.ablation import DESIGNS, render_markdown, write_heatmap
    from tuner.ablation import ablate as run_ablate
    from tuner.errors import InputError
    from tuner.files import write_atomic
    from tuner.hashing import short
    from tuner.runs import Harness

    if design not in DESIGNS:
        raise InputError(f"--design {design!r}: use one of {', '.join(DESIGNS)}")
    if design == "adaptive" and samples is not None:
        raise InputError(
            "--samples does not apply to --design adaptive: it chooses samples per round; set --budget-calls"
        )
    if decide is not None and design != "adaptive":
        raise InputError("--decide applies to --design adaptive (the fixed designs' calls are set by --samples)")
    zone = _zone(delta0, delta) if design == "adaptive" else None
    with Harness(db=db, use_cache=not no_cache, cluster=cluster, turns=turns) as h:
        specs = resolve_models(h.project, model, panel)
        if design == "adaptive":
            effect, budget_calls = decide_cap(
                decide, budget_calls, lambda x: _decide_calls(h, rule_set, specs, category, zone, x, seed)
            )
            if effect is not None:
                h.plan_decide = {"effect": effect, "calls": budget_calls}
        budget = install(h, "ablate", budget_calls=budget_calls, budget_usd=budget_usd, plan_only=plan, as_json=as_json)
        if design == "adaptive":  # rounds of its own choosing: the plan is its budget, shown before the first round
            h.plan_hook = None
            show(
                h,
                _adaptive_plan(h, rule_set, specs, category=category, budget_calls=budget_calls, zone=zone, seed=seed),
                plan_only=plan,
                as_json=as_json,
            )
        with phase_progress(not as_json) as progress:
            report = run_ablate(
                h,
                design=design,
                set_name=rule_set,
                specs=specs,
                samples=samples,
                runs=runs,
                seed=seed,
                category=category,
                budget_calls=budget_calls,
                zone=zone,
                progress=progress,
            )
        if report.adaptive is not None and any(e.verdict == "undecided" for e in report.effects):
            _what_would_decide(h, report, rule_set, specs, category, zone, model, panel, delta, delta0, seed, db)
        md = output or h.project.reports / "ablate" / f"{design}_{_set_label(rule_set)}_{short(report.id, 8)}.md"
        write_atomic(md, render_markdown(report))
        write_atomic(md.with_suffix(".json"), report.model_dump_json(indent=2))
        write_heatmap(report, md.with_suffix(".png"))
    lost = report.lost
    if as_json:
        print_json(
            {
                **report.model_dump(mode="json"),
                "report": str(md),
                "spent": budget.spent,
                "plan": budget.plan.as_dict() if budget.plan else None,
            }
        )
    else:
        _print(report, md)
        console().print(f"[dim]{spent_line(budget)}[/dim]")
    if lost:  # an outage is never a verdict: what was decided stands, the rest is not measured
        err_console().print(
            f"not measured: {lost} answers lost to provider or grader failures (left out of "
            "every estimate); run the same command again to retry them"
        )
        from tuner.errors import EXIT_CODES, IncompleteError

        raise typer.Exit(EXIT_CODES[IncompleteError])


def _selection(h, set_name: str, category: str | None) -> tuple[dict, list[str]]:
    rule_set = h.guidelines.load_set(set_name)
    return rule_set.select(h.guidelines.library), [e.id for e in h.suite.select(category=category, held_out=False)]


def _looks(h, set_name: str, selection: dict, specs: list, eval_ids: list[str], seed: int, zone):
    """The experiment's looks so far (the same command with another budget continues it)."""
    from tuner.ablation import adaptive_experiment

    return h.store.engine_looks(adaptive_experiment(set_name, selection, specs, eval_ids, seed, zone)[0], "adaptive")


def _decide_calls(h, set_name: str, specs: list, category: str | None, zone, effect: float, seed: int) -> int | None:
    from tuner.planning.commands import ablate_calls_for

    selection, eval_ids = _selection(h, set_name, category)
    if not (selection and eval_ids):
        return None
    return ablate_calls_for(
        h,
        selection,
        specs,
        eval_ids,
        zone,
        effect,
        seed=seed,
        looks=_looks(h, set_name, selection, specs, eval_ids, seed, zone),
    )


def _adaptive_plan(h, set_name: str, specs: list, *, category: str | None, budget_calls: int | None, zone, seed: int):
    """What the adaptive design spends at most: its budget, at the full set's prompt size, and what it decides."""
    from tuner.ablation import engine_budget
    from tuner.planning.commands import ablate_detectables
    from tuner.runs.plan import PlanBuilder

    rule_set = h.guidelines.load_set(set_name)
    selection = rule_set.select(h.guidelines.library)
    eval_ids = [e.id for e in h.suite.select(category=category, held_out=False)]
    budget = engine_budget(h, selection, specs, budget_calls)
    builder = PlanBuilder(h, specs, "ablate")
    builder.add_calls(
        "adaptive rounds",
        budget,
        h.guidelines.compose(rule_set).tokens,
        eval_ids,
        note="stops sooner once every rule x category is decided",
    )
    out = builder.build(cap_calls=h.budget.calls, cap_usd=h.budget.usd)
    if selection and eval_ids:
        looks = _looks(h, set_name, selection, specs, eval_ids, seed, zone)
        out.decides = [
            {**d.model_dump(), "line": d.line()}
            for d in ablate_detectables(h, selection, specs, eval_ids, budget, zone, seed=seed, looks=looks)
        ]
    return out


def _what_would_decide(h, report, set_name, specs, category, zone, model, panel, delta, delta0, seed, db) -> None:
    """The leading undecided cells with the calls each needs at its current estimate, and the exact
    command that continues the experiment (``report.adaptive``: ``leads``, ``continue``), recorded
    with it. The calls are the continuation's: its looks made and what is left of the error budget."""
    from tuner.ablation import engine_plan
    from tuner.planning.commands import open_leads

    selection, eval_ids = _selection(h, set_name, category)
    plan = engine_plan(
        h,
        selection,
        specs,
        eval_ids,
        budget_calls=report.adaptive["budget_calls"],
        zone=zone,
        seed=seed,
        looks=h.store.engine_looks(report.id, "adaptive"),
    )
    leads = open_leads(
        plan, report.effects, scale=getattr(h, "turns", 1)
    )  # the plan counts points; a point may take N turns
    report.adaptive["leads"] = leads
    need = min((x["calls"] for x in leads if x["calls"] is not None), default=None)
    if need is None:
        return
    need = max(need, report.adaptive["budget_calls"] + 1)  # continuing at the same cap would add nothing
    args = ["tuner", "ablate", "--set", set_name] + (["--category", category] if category else [])
    args += ["--panel", panel] if panel else [a for m in (model or []) for a in ("--model", m)]
    args += (["--delta", f"{delta:g}"] if delta != 0.08 else []) + (
        ["--delta0", f"{delta0:g}"] if delta0 != 0.02 else []
    )
    args += (["--seed", str(seed)] if seed else []) + (["--turns", str(h.turns)] if getattr(h, "turns", 1) != 1 else [])
    args += ["--budget-calls", str(need)]
    import os
    import shlex

    if os.environ.get("TUNER_SUITE"):
        args += ["--suite", os.environ["TUNER_SUITE"]]
    if db and _printable(db):  # another store would not know the experiment: the command names it
        args += ["--db", db]
    report.adaptive["continue"] = shlex.join(args)
    h.store.save_experiment(
        report.id,
        f"ablate-adaptive-{set_name}",
        "ablate",
        h.store.experiment(report.id)["config"],
        result=report.model_dump(mode="json"),
    )


def _printable(db: str) -> bool:
    """A store URL without a password (one with a password is left to TUNER_DB: never printed)."""
    from urllib.parse import urlsplit

    try:
        return urlsplit(db).password is None
    except ValueError:
        return False


def _set_label(rule_set: str) -> str:
    """A set given as a file is named by its stem (a path would nest the report in folders)."""
    import re
    from pathlib import PurePath

    name = PurePath(rule_set).stem if rule_set.endswith((".yaml", ".yml")) else rule_set
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-.") or "set"


def _zone(delta0: float, delta: float):
    from tuner.errors import InputError
    from tuner.stats.zones import Zone

    if not delta0 < delta:
        raise InputError(f"--delta0 {delta0} must be smaller than --delta {delta}")
    return Zone(delta0=delta0, delta=delta)


def _print(report, md: Path) -> None:
    from rich.table import Table

    from tuner.runs.usage import plural

    out = console()
    categories = sorted({e.category for e in report.effects})
    for model in report.models:
        table = Table(title=f"{model}: effect of including each rule ({report.design}); + helps, − hurts")
        table.add_column("rule")
        table.add_column("tok", justify="right")
        for cat in categories:
            table.add_column(cat, justify="right", overflow="fold")  # the whole name: a header may wrap, never cut
        cells: dict[str, dict[str, str]] = {}
        tokens: dict[str, int] = {}
        for e in report.effects:
            if e.model == model:
                mark = {"helps": "[green]+[/green]", "hurts": "[red]−[/red]", "undecided": "?"}.get(e.verdict, " ")
                if e.verdict == "not measured":
                    cells.setdefault(e.rule, {})[e.category] = "not measured"
                    tokens[e.rule] = e.tokens
                    continue
                cells.setdefault(e.rule, {})[e.category] = "n/a" if e.delta is None else f"{e.delta:+.2f}{mark}"
                tokens[e.rule] = e.tokens
        for rule in sorted(cells):
            table.add_row(rule, str(tokens[rule]), *(cells[rule].get(c, "") for c in categories))
        out.print(table)
    if report.adaptive is not None:
        a = report.adaptive
        out.print(
            f"{plural(a['rounds'], 'round')}, {a['calls']:,} of {plural(a['budget_calls'], 'budgeted call')} "
            f"({a['new_calls']:,} paid now), "
            f"stopped: {a['stopped']}; "
            + ", ".join(
                f"{sum(1 for e in report.effects if e.verdict == v)} {v}"
                for v in ("helps", "hurts", "no meaningful effect", "undecided")
            )
        )
        if any(e.verdict in ("helps", "hurts") for e in report.effects):
            out.print(
                "[dim]a decided cell's effect is its estimate at the deciding look (a first crossing reads high)[/dim]"
            )
        if any(e.verdict == "undecided" for e in report.effects):
            one = "" if len(categories) == 1 else ", or --category C to spend the budget on one category,"
            out.print(
                f"[yellow]undecided cells: a larger --budget-calls{one} decides more (points already measured "
                "are not paid again)[/yellow]"
            )
            for lead in a.get("leads", []):
                calls = (
                    "no budget up to 10,000,000 calls"
                    if lead["calls"] is None
                    else f"a budget of {lead['calls']:,} calls"
                )
                out.print(
                    f"  open: {lead['rule']} · {lead['category']} · {lead['model']} reads {lead['delta'] * 100:+.0f} points; "
                    f"{calls} decides an effect that size with 80% power",
                    markup=False,
                )
            if a.get("continue"):
                out.print(f"to decide the leading one: {a['continue']}", markup=False)
    elif report.lost:
        pass  # said below: not measured
    elif all(e.verdict == "no detectable effect" for e in report.effects):
        out.print(
            f"[yellow]no rule reached q < 0.05 with {report.samples} sample(s) per eval: the data cannot tell these "
            "effects from noise yet; more --samples, or --category to ask about one category, give more power "
            "(`tuner power` estimates how many)[/yellow]"
        )
    out.print(
        f"[dim]{plural(report.runs, 'round' if report.adaptive else 'variant')}, {plural(report.calls, 'provider call')}; report {md} (+ .json, .png)[/dim]"
    )


def register(app: typer.Typer) -> None:
    app.command("ablate")(ablate)
