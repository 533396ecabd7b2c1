"""`tuner compare` (before vs after, paired, gated) and `tuner power` (how many samples it takes)."""

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
    print_json,
    resolve_models,
)
from tuner.cli._plan import BudgetCallsOption, BudgetUsdOption, PlanOption, install, spent_line
from tuner.cli._progress import phase_progress
from tuner.cli._table import WideOption

__all__ = ["register"]

CategoryOption = Annotated[Optional[str], typer.Option("--category", "-c", help="Only this category.")]


def compare_cmd(
    before: Annotated[str, typer.Option("--before", help="Rule set (name or file) or stored run id/prefix.")],
    after: Annotated[str, typer.Option("--after", help="Rule set (name or file) or stored run id/prefix.")],
    model: ModelOption = None,
    panel: PanelOption = None,
    samples: Annotated[int, typer.Option("--samples", "-k", min=1, max=1000, help="Samples per eval (set sides).")] = 3,
    category: CategoryOption = None,
    before_offset: Annotated[
        int, typer.Option("--before-offset", min=0, help="First sample index of the before side.")
    ] = 0,
    after_offset: Annotated[
        int, typer.Option("--after-offset", min=0, help="First sample index of the after side.")
    ] = 0,
    turns: TurnsOption = 1,
    at_turn: Annotated[
        Optional[int],
        typer.Option(
            "--at-turn", min=1, help="Verdicts after this turn of the repair loop (default: the last, --turns)."
        ),
    ] = None,
    report: Annotated[
        Optional[Path], typer.Option("--report", help="Markdown report path (default reports/compare/...).")
    ] = None,
    chart: Annotated[
        Optional[Path], typer.Option("--chart", help="PNG chart path (default: next to the report).")
    ] = None,
    plan: PlanOption = False,
    budget_calls: BudgetCallsOption = None,
    budget_usd: BudgetUsdOption = None,
    no_cache: NoCacheOption = False,
    db: DbOption = None,
    cluster: ClusterOption = None,
    suite: SuiteOption = None,
    wide: WideOption = False,
    placebo: Annotated[
        bool,
        typer.Option(
            "--placebo",
            help="Add a placebo arm: the after set's length in rule-shaped "
            "text of another domain; every 'helps' is also tested against it.",
        ),
    ] = False,
    placebo_seed: Annotated[int, typer.Option("--placebo-seed", min=0, help="Seed of the placebo text.")] = 0,
    as_json: JsonOption = False,
) -> None:
    """Compare two rule sets (or stored runs), paired per eval and sample; exit 1 on a significant regression, 4 when a cell could not be measured."""
    from tuner.compare import compare, default_report_path, render_markdown, write_atomic, write_chart
    from tuner.runs import Harness

    with Harness(db=db, use_cache=not no_cache, cluster=cluster, turns=turns) as h:
        budget = install(
            h, "compare", budget_calls=budget_calls, budget_usd=budget_usd, plan_only=plan, as_json=as_json
        )
        specs = resolve_models(h.project, model, panel)
        with phase_progress(not as_json) as progress:
            result = compare(
                h,
                before,
                after,
                specs,
                category=category,
                samples=samples,
                before_offset=before_offset,
                after_offset=after_offset,
                models_given=bool(model or panel),
                progress=progress,
                at_turn=at_turn,
                placebo=placebo,
                placebo_seed=placebo_seed,
            )
        report_path = report or default_report_path(h, result)
        chart_path = chart or report_path.with_suffix(".png")
    # Chart first: the report links to it, so a report never points at a missing picture.
    write_chart(result, chart_path)
    chart_link = _relative(chart_path, report_path.parent)
    write_atomic(report_path, lambda tmp: tmp.write_text(render_markdown(result, chart_link), encoding="utf-8"))
    if as_json:
        print_json({**result.to_json(), "report": str(report_path), "chart": str(chart_path), "spent": budget.spent})
    else:
        _print(result, report_path, chart_path, wide)
        console().print(f"[dim]{spent_line(budget)}[/dim]")
    if result.exit_code:
        raise typer.Exit(result.exit_code)


def _relative(path: Path, base: Path) -> str:
    import os

    try:
        return os.path.relpath(path.resolve(), base.resolve())
    except ValueError:  # another drive (Windows)
        return str(path.resolve())


def _print(result, report_path: Path, chart_path: Path, wide: bool = False) -> None:
    from tuner.cli._table import Column, fitted_table, print_wide
    from tuner.compare.report import fmt_delta, fmt_rate
    from tuner.runs.usage import plural

    out = console()
    styles = {"improved": "green", "regressed": "bold red", "not measured": "bold yellow"}
    infra = any(c.infra_before or c.infra_after for c in result.cells)
    # What a reader needs first stays at any width: the category, the change, q and the verdict.
    columns = [
        Column("category", 0),
        Column("Δ [95% CI]", 0, "right"),
        Column("q (BH)", 1, "right"),
        Column("verdict", 0),
        Column("f→p/p→f", 2, "right"),
        Column("after", 3, "right"),
        Column("before", 4, "right"),
        Column("p", 5, "right"),
        Column("infra", 1 if infra else 6, "right"),
    ]
    left_out: list[str] = []
    for key in dict.fromkeys(c.model_key for c in result.cells):
        cells = [c for c in result.cells if c.model_key == key]
        rows = []
        for c in cells:
            f2p = sum(f.fail_to_pass for f in c.flips.values())
            p2f = sum(f.pass_to_fail for f in c.flips.values())
            style = styles.get(c.verdict, "")
            rows.append(
                [
                    c.category,
                    fmt_delta(c),
                    "-" if c.q_value is None else f"{c.q_value:.3g}",
                    f"[{style}]{c.verdict}[/{style}]" if style else c.verdict,
                    f"{f2p}/{p2f}",
                    fmt_rate(c.after),
                    fmt_rate(c.before),
                    f"{c.p_value:.3g}",
                    f"{c.infra_before}/{c.infra_after}",
                ]
            )
        last = len(cells) - 2 if len(cells) > 1 and cells[-1].category == "overall" else -1
        table, dropped, needed = fitted_table(
            f"{cells[0].model_label} · {result.before.label} → {result.after.label} · "
            f"{plural(result.samples, 'sample')}/eval",
            columns,
            rows,
            width=out.width,
            wide=wide,
            sections={last},
        )
        left_out += [d for d in dropped if d not in left_out]
        print_wide(out, table, needed)
    if left_out:
        out.print(f"[dim]not shown at {out.width} columns: {', '.join(left_out)} (--wide shows them)[/dim]")
    if result.placebo is not None:
        _print_placebo(out, result, wide)
    flipped = [(c.model_label, ev, f) for c in result.cells if c.category != "overall" for ev, f in c.flips.items()]
    if flipped:
        out.print("[bold]flips per eval[/bold] (fail→pass / pass→fail)")
        for label, ev, f in flipped:
            out.print(f"  {label}  {ev}  +{f.fail_to_pass} / -{f.pass_to_fail}")
    if result.by_turn:
        _print_turns(result)
    for note in result.notes:
        out.print(f"[yellow]note:[/yellow] {note}")
    if result.simulated_models:
        out.print(f"[dim]simulated models (planted gaps, not real LLMs): {', '.join(result.simulated_models)}[/dim]")
    for c in result.not_measured:
        out.print(
            f"[bold yellow]not measured:[/bold yellow] {c.model_label} · {c.category}: {c.pairs} of {c.expected} "
            f"planned pairs (infra before/after {c.infra_before}/{c.infra_after}); re-run the same command to retry them"
        )
    if result.exit_code == 1:
        verdict = "[bold red]significant regression: exit 1[/bold red]"
    elif result.exit_code == 4:
        verdict = "[bold yellow]not measured: some cells lack pairs, so no verdict: exit 4[/bold yellow]"
    else:
        verdict = "no significant regression"
    out.print(f"{verdict}\nreport {report_path}\nchart  {chart_path}")


def _print_placebo(out, result, wide: bool) -> None:
    """The placebo cells, then each cell's "helps" read against none and against the placebo."""
    from tuner.cli._table import Column, fitted_table, print_wide
    from tuner.compare.placebo import BEYOND, NO_MORE
    from tuner.compare.report import fmt_delta

    arm = result.placebo
    out.print(
        f"[bold]placebo[/bold] {arm.side.label}: {arm.tokens} tokens of rules about {arm.domain} "
        f"(the length of {arm.matches}), prompt {next(iter(arm.side.prompts.values()), '')[:19]}"
    )
    columns = [
        Column("category", 0),
        Column("vs none Δ", 0, "right"),
        Column("q", 1, "right"),
        Column("vs placebo Δ", 0, "right"),
        Column("q ", 1, "right"),
        Column("claim", 0),
    ]
    styles = {BEYOND: "green", NO_MORE: "yellow", "not measured": "bold yellow"}
    placebo_by = {(c.model_key, c.category): c for c in arm.cells}
    pairs = list(zip(result.cells, result.helps))  # helps rows follow the cells' order
    for key in dict.fromkeys(c.model_key for c in result.cells):
        cells = [c for c, _ in pairs if c.model_key == key]
        rows = []
        for c, row in ((c, r) for c, r in pairs if c.model_key == key):
            p = placebo_by.get((c.model_key, c.category))
            style = styles.get(row.claim, "dim")
            rows.append(
                [
                    c.category,
                    fmt_delta(c),
                    "-" if c.q_value is None else f"{c.q_value:.3g}",
                    fmt_delta(p) if p else "n/a",
                    "-" if p is None or p.q_value is None else f"{p.q_value:.3g}",
                    f"[{style}]{row.claim}[/{style}]",
                ]
            )
        table, _, needed = fitted_table(
            f"{cells[0].model_label} · {result.after.label} against {result.before.label} and against the placebo",
            columns,
            rows,
            width=out.width,
            wide=wide,
        )
        print_wide(out, table, needed)


def _print_turns(result) -> None:
    """The verdict of every cell after each turn of the repair loop, and each turn's answers."""
    from rich.table import Table

    out = console()
    turns = result.by_turn
    table = Table(title=f"repair loop: Δ and verdict after each turn (verdicts above: turn {result.at_turn})")
    table.add_column("model · category")
    for row in turns:
        table.add_column(f"turn {row['turn']}", justify="right")
    for i, cell in enumerate(turns[0]["cells"]):
        values = []
        for row in turns:
            c = row["cells"][i]
            delta = "n/a" if c["delta"] is None else f"{c['delta']:+.0%}"
            values.append(f"{delta} {c['verdict']}")
        table.add_row(f"{cell['model']} · {cell['category']}", *values)
    table.add_row("answers before / after", *(f"{r['calls']['before']} / {r['calls']['after']}" for r in turns))
    out.print(table)


def power_cmd(
    effect: Annotated[float, typer.Option("--effect", help="Expected change in pass rate (e.g. 0.15 or -0.1).")] = 0.15,
    baseline: Annotated[
        Optional[float], typer.Option("--baseline", help="Pass rate before (default: stored runs, else 0.6).")
    ] = None,
    category: CategoryOption = None,
    alpha: Annotated[
        float, typer.Option("--alpha", min=0.0001, max=0.5, help="Significance level of one cell.")
    ] = 0.05,
    db: DbOption = None,
    suite: SuiteOption = None,
    as_json: JsonOption = False,
) -> None:
    """How many samples per eval give 80% power to detect an effect on this suite."""
    from tuner.compare.history import stored_heterogeneity
    from tuner.errors import NotFoundError
    from tuner.runs import Harness
    from tuner.stats.power import DEFAULT_BASELINE, DEFAULT_ICC, power_curve

    with Harness(db=db, create=False) as h:
        tasks = len(h.suite.select(category=category))
        try:
            stored = stored_heterogeneity(h.store, h.suite.hash, category)
        except NotFoundError:  # no store yet: defaults, and no file created by asking
            stored = None
    rate, icc = stored if stored else (DEFAULT_BASELINE, DEFAULT_ICC)
    source = "stored runs" if stored else "default"
    if baseline is not None:
        rate, source = baseline, f"--baseline; icc from {source}"
    result = power_curve(tasks, effect=effect, baseline=rate, icc=icc, alpha=alpha, source=source)
    if as_json:
        print_json({**result.model_dump(mode="json"), "category": category})
        return
    _print_power(result, category)


def _print_power(result, category: str | None) -> None:
    from rich.table import Table

    out = console()
    out.print(
        f"{result.tasks} evals ({category or 'all categories'}) · baseline {result.baseline:.0%} · effect {result.effect:+.0%}"
        f" · intra-task correlation {result.icc:.2f} ({result.source}) · alpha {result.alpha}"
    )
    table = Table(title="power by samples per eval")
    table.add_column("samples per eval", justify="right")
    table.add_column("power", justify="right")
    for p in result.points:
        table.add_row(str(p.samples), f"{p.power:.0%}", style="green" if p.power >= 0.8 else "")
    out.print(table)
    if result.smallest_k is None:
        out.print(
            f"No K up to {result.points[-1].samples} reaches 80% power: this comparison cannot reliably tell; "
            "expect a larger effect or add evals."
        )
    else:
        out.print(
            f"Smallest K with 80% power: [bold]{result.smallest_k}[/bold] (McNemar exact, one cell; "
            "BH across many cells needs a little more)."
        )


def register(app: typer.Typer) -> None:
    app.command("compare")(compare_cmd)
    app.command("power")(power_cmd)
