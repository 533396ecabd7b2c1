"""`tuner publish`: write guidelines/published/NAME/ with a manifest of evidence and a changelog."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from tuner.cli._common import (
    ClusterOption,
    DbOption,
    JsonOption,
    ModelOption,
    PanelOption,
    SuiteOption,
    TurnsOption,
    console,
    print_json,
    resolve_models,
)
from tuner.cli._plan import BudgetCallsOption, BudgetUsdOption, PlanOption, install, spent_line
from tuner.cli._progress import phase_progress

__all__ = ["register"]


def publish(
    source: Annotated[
        Optional[str],
        typer.Option(
            "--from", help="A tuning study (its best trial) or a rule set (default: the latest finished tuning study)."
        ),
    ] = None,
    name: Annotated[Optional[str], typer.Option(help="Published guideline name (default: the suite's).")] = None,
    model: ModelOption = None,
    panel: PanelOption = None,
    samples: Annotated[
        int, typer.Option("--samples", "-k", min=1, help="Fresh samples per held-out eval for the gate.")
    ] = 12,
    tolerance: Annotated[
        Optional[float],
        typer.Option(
            min=0, max=1, help="Non-inferiority margin of the gate (default: the study's tolerance, else 0.15)."
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Publish even if a held-out category regresses or tune withheld the winner (recorded)."
        ),
    ] = False,
    version: Annotated[Optional[str], typer.Option(help="Explicit version instead of the semver bump.")] = None,
    storage: Annotated[
        Optional[str], typer.Option(help="Optuna storage of the study (default: the tuner store).")
    ] = None,
    turns: TurnsOption = 1,
    plan: PlanOption = False,
    budget_calls: BudgetCallsOption = None,
    budget_usd: BudgetUsdOption = None,
    db: DbOption = None,
    cluster: ClusterOption = None,
    suite: SuiteOption = None,
    as_json: JsonOption = False,
) -> None:
    """Publish the winning rules as Markdown, Cursor .mdc and AGENTS.md with a manifest of evidence."""
    from tuner.publish import latest_study
    from tuner.publish import publish as run_publish
    from tuner.runs import Harness

    with Harness(db=db, cluster=cluster, turns=turns) as h:
        budget = install(
            h, "publish", budget_calls=budget_calls, budget_usd=budget_usd, plan_only=plan, as_json=as_json
        )
        name = name or h.suite.published_name
        if source is None:
            source = latest_study(h)
            note = (
                f"publishing the winner of tuning study {source} (the latest finished; --from to choose another)"
                if source
                else "no finished tuning study for this suite: publishing the set all-active (--from to choose)"
            )
            source = source or "all-active"
            if not as_json:
                console().print(note)
        # A study is gated on its own models unless told otherwise; a set on the panel.
        from tuner.publish import resolve_source

        given = bool(model or panel) or resolve_source(h, source, storage).kind == "set"
        specs = resolve_models(h.project, model, panel) if given else None
        with phase_progress(not as_json) as progress:
            result = run_publish(
                h,
                source=source,
                name=name,
                specs=specs,
                samples=samples,
                force=force,
                storage=storage,
                version=version,
                tolerance=tolerance,
                progress=progress,
            )
    if as_json:
        print_json({**result.model_dump(mode="json"), "spent": budget.spent})
        return
    out = console()
    out.print(f"[dim]{spent_line(budget)}[/dim]")
    m = result.manifest
    if result.unchanged:
        out.print(f"{name} {m.version} already publishes exactly this text; nothing written")
        return
    out.print(
        f"published {name} {m.version} ({len(m.rules)} rules, {m.tokens} tokens) from {m.source['kind']} {m.source['name']}"
    )
    g = m.gate
    status = {
        "passed": "[green]passed[/green]",
        "regressed": "[red]FORCED past a regression[/red]",
        "not enough evidence": "[yellow]not enough evidence[/yellow] (no cell regressed, but not every cell is "
        "shown within the margin: more --samples would tell)",
    }.get(g["status"], g["status"])
    out.print(
        f"held-out gate against {g['against']} on {', '.join(g['models'])} (margin {g['margin']:.0%}, "
        f"{g['samples']} fresh samples per eval): {status}"
    )
    for row in g["rows"]:
        p = row["paired"]
        out.print(
            f"  {row['model']} {row['category']}: {p['delta']:+.0%} [{p['lo']:+.0%}, {p['hi']:+.0%}] {row['gate']}"
        )
    out.print(result.changelog)
    for f in result.files:
        out.print(f"[dim]wrote {f}[/dim]")


def register(app: typer.Typer) -> None:
    app.command("publish")(publish)
