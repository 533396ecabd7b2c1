"""`tuner run`: one rule set on one or more models, every eval graded and stored."""

from __future__ import annotations

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
from tuner.cli._plan import BudgetCallsOption, BudgetUsdOption, PlanOption, install, spent_line
from tuner.cli._progress import phase_progress

__all__ = ["register"]


def run(
    guidelines: Annotated[str, typer.Option("--guidelines", "-g", help="Rule set name or file.")] = "all-active",
    model: ModelOption = None,
    panel: PanelOption = None,
    category: Annotated[Optional[str], typer.Option("--category", "-c", help="Only this category.")] = None,
    samples: SamplesOption = 1,
    turns: TurnsOption = 1,
    plan: PlanOption = False,
    budget_calls: BudgetCallsOption = None,
    budget_usd: BudgetUsdOption = None,
    no_cache: NoCacheOption = False,
    db: DbOption = None,
    cluster: ClusterOption = None,
    suite: SuiteOption = None,
    as_json: JsonOption = False,
) -> None:
    """Run a rule set on models over the eval suite; prints pass rates per category."""
    from tuner.runs import Harness, RunConfig
    from tuner.runs.plain import run_experiment

    with Harness(db=db, use_cache=not no_cache, cluster=cluster, turns=turns) as h:
        budget = install(h, "run", budget_calls=budget_calls, budget_usd=budget_usd, plan_only=plan, as_json=as_json)
        rule_set = h.guidelines.load_set(guidelines)
        specs = resolve_models(h.project, model, panel)
        evals = h.suite.select(category=category)
        configs = [
            RunConfig(spec=s, rule_set=rule_set, eval_ids=tuple(e.id for e in evals), samples=samples) for s in specs
        ]
        with phase_progress(not as_json) as progress:
            outcomes = run_experiment(h, configs, progress, category=category)
    causes = infra_causes([r for o in outcomes for r in o.results])
    if as_json:
        print_json(
            [
                {
                    "run": o.run.id,
                    "model": o.run.model,
                    "model_key": o.run.model_key,
                    "prompt": o.prompt.hash,
                    "status": o.run.status,
                    **o.summary,
                    "infra_causes": infra_causes(o.results),
                    "command_spent": budget.spent,
                }
                for o in outcomes
            ]
        )
    else:
        _print(outcomes)
        _print_causes(causes)
        console().print(f"[dim]{spent_line(budget)}[/dim]")
    if causes:
        from tuner.errors import IncompleteError

        n = sum(causes.values())
        raise IncompleteError(
            f"run incomplete: {n} result(s) are infrastructure failures; run the same command to retry them"
        )


def infra_causes(results) -> dict[str, int]:
    """{cause: count} of the infrastructure failures among ``results``, most frequent first."""
    from collections import Counter

    counts = Counter(
        (r.error or "unknown infrastructure failure").split(" (after ")[0] for r in results if r.outcome == "infra"
    )
    return dict(counts.most_common())


def _print_causes(causes: dict[str, int]) -> None:
    if not causes:
        return
    out = console()
    out.print(
        f"[bold red]incomplete[/bold red]: {sum(causes.values())} infrastructure failure(s), excluded from the rates above:"
    )
    for cause, n in causes.items():
        out.print(f"  {n:>5} × {cause}")


def _print(outcomes) -> None:
    from rich.table import Table

    from tuner.compare.rates import model_label
    from tuner.hashing import short
    from tuner.runs.usage import plural

    out = console()
    for o in outcomes:
        table = Table(title=f"{model_label(o.run.model, o.run.params)} · {o.run.set_name} · run {short(o.run.id)}")
        for col in ("category", "pass", "fail", "infra", "pass rate [95% CI]"):
            table.add_column(col, justify="right" if col != "category" else "left")
        rows = {**o.summary["categories"], "overall": o.summary["overall"]}
        for cat, c in rows.items():
            rate = "n/a" if c["pass_rate"] is None else f"{c['pass_rate']:.0%} [{c['lo']:.0%}, {c['hi']:.0%}]"
            table.add_row(cat, str(c["pass"]), str(c["fail"]), str(c["infra"]), rate, end_section=cat == list(rows)[-2])
        out.print(table)
        if "repair" in o.summary:
            out.print(turns_table(o.summary["repair"]))
        calls = o.summary["calls"]
        out.print(
            f"[dim]{plural(calls['provider_calls'], 'provider call')}, {plural(calls['response_cache_hits'], 'cache hit')}, "
            f"{plural(calls['kept'], 'result')} kept from before; prompt {short(o.prompt.hash)} ({o.prompt.tokens} tokens); "
            f"status {o.run.status}[/dim]"
        )


def turns_table(repair: dict):
    """Pass rate per category after each turn of the repair loop, and the calls each turn made."""
    from rich.table import Table

    by_turn = repair["by_turn"]
    table = Table(title=f"repair loop: pass rate after each of {repair['turns']} turns")
    table.add_column("category")
    for k in by_turn:
        table.add_column(f"turn {k}", justify="right")
    first = by_turn["1"]
    for cat in [*first["categories"], "overall"]:
        cells = []
        for s in by_turn.values():
            c = s["overall"] if cat == "overall" else s["categories"].get(cat)
            cells.append(
                "n/a"
                if not c or c["pass_rate"] is None
                else f"{c['pass_rate']:.0%} ({c['pass']}/{c['pass'] + c['fail']})"
            )
        table.add_row(cat, *cells, end_section=cat == list(first["categories"])[-1])
    table.add_row("answers (provider calls)", *(f"{s['answers']} ({s['provider_calls']})" for s in by_turn.values()))
    return table


def register(app: typer.Typer) -> None:
    app.command("run")(run)
