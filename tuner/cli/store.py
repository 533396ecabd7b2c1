"""`tuner store check`: is the results store consistent (after a crash, a kill, racing workers)?"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from tuner.cli._common import JsonOption, console, open_store, print_json

__all__ = ["register"]

store_app = typer.Typer(no_args_is_help=True, help="The results store: check its consistency.")

StoreUrlOption = Annotated[
    Optional[str],
    typer.Option(
        "--store", "--db", envvar="TUNER_DB", help="SQLAlchemy URL of the store (default: experiments/tuner.db)."
    ),
]


@store_app.command("check")
def check_cmd(store: StoreUrlOption = None, as_json: JsonOption = False) -> None:
    """Duplicate or orphaned results, runs marked complete with results missing, graded results
    without steps; exit 1 if any is found. Reads only."""
    from tuner.store.integrity import check_store

    opened = open_store(store)
    try:
        report = check_store(opened)
    finally:
        opened.close()
    if as_json:
        print_json({**report.model_dump(), "ok": report.ok})
    else:
        out = console()
        out.print(f"{report.store}: {report.runs} runs, {report.results} results")
        for p in report.problems:
            out.print(f"[red]{p.check}[/red]: {p.count} × {p.description}")
            for example in p.examples:
                out.print(f"    {example}")
        if report.ok:
            out.print("[green]consistent[/green]: no problems found")
    if not report.ok:
        from tuner.errors import EXIT_CODES, TunerError

        raise typer.Exit(EXIT_CODES[TunerError])


def register(app: typer.Typer) -> None:
    app.add_typer(store_app, name="store")
