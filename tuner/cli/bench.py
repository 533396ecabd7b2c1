"""`tuner bench`: every benchmark, one table (start-up, model-call overhead, cache, grading, tuning, viewer)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from tuner.cli._common import JsonOption, console, err_console, print_json

__all__ = ["register"]


def bench(
    quick: Annotated[bool, typer.Option("--quick", help="Smaller measurements (seconds, not minutes).")] = False,
    only: Annotated[
        Optional[str],
        typer.Option("--only", help="Comma-separated rows: startup,overhead,cache,grading,tuning,viewer."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Measure the harness: CLI start-up, overhead per model call, cache replay, grading, tuning, viewer."""
    import os
    import platform

    from tuner.bench import run_benchmarks

    chosen = [x.strip() for x in only.split(",") if x.strip()] if only else None
    note = None if as_json else (lambda name: err_console().print(f"[dim]measuring {name} ...[/dim]"))
    rows = run_benchmarks(quick=quick, only=chosen, progress=note)
    machine = {
        "cpus": os.cpu_count(),
        "load_1min": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.machine()}",
        "quick": quick,
    }
    if as_json:
        print_json({"machine": machine, "rows": [r.model_dump() for r in rows]})
        return
    from rich.table import Table

    table = Table(
        title=f"tuner bench{' --quick' if quick else ''} · {machine['cpus']} CPUs, load {machine['load_1min']}"
    )
    for col in ("benchmark", "result", "target", "", "detail"):
        table.add_column(col, overflow="fold")
    for r in rows:
        mark = {True: "[green]ok[/green]", False: "[red]missed[/red]", None: ""}[r.ok]
        table.add_row(r.name, r.value, r.target, mark, r.detail)
    console().print(table)


def register(app: typer.Typer) -> None:
    app.command("bench")(bench)
