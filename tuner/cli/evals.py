"""`tuner evals list|validate`: look at the suite, and check every reference answer passes."""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from tuner.cli._common import SuiteOption

__all__ = ["register"]

evals_app = typer.Typer(help="The eval suite: list it, validate its reference answers.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(evals_app, name="evals")


@evals_app.command("list")
def list_evals(
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False, suite: SuiteOption = None
) -> None:
    """Evals per category, with the held-out count."""
    from rich.console import Console
    from rich.table import Table

    from tuner.evals import load_suite
    from tuner.paths import find_project

    suite = load_suite(find_project())
    per_cat = {c: [e for e in suite.evals if e.category == c] for c in suite.categories}
    if json_out:
        data = {
            "suite": suite.manifest.name,
            "version": suite.manifest.version,
            "hash": suite.hash,
            "total": len(suite.evals),
            "held_out": sum(e.held_out for e in suite.evals),
            "categories": {
                c: {"evals": [e.id for e in evs], "held_out": [e.id for e in evs if e.held_out]}
                for c, evs in per_cat.items()
            },
        }
        typer.echo(json.dumps(data, indent=2))
        return
    table = Table(title=f"suite {suite.manifest.name} v{suite.manifest.version}")
    for column in ("category", "evals", "held out", "ids"):
        table.add_column(column)
    for cat, evs in per_cat.items():
        ids = ", ".join(e.id.split("/", 1)[1] + ("*" if e.held_out else "") for e in evs)
        table.add_row(cat, str(len(evs)), str(sum(e.held_out for e in evs)), ids)
    table.add_row("total", str(len(suite.evals)), str(sum(e.held_out for e in suite.evals)), "(* held out)")
    Console().print(table)


@evals_app.command("validate")
def validate(
    category: Annotated[Optional[str], typer.Option("--category", "-c", help="Only this category.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Grade again even if cached.")] = False,
    suite: SuiteOption = None,
) -> None:
    """Grade every reference answer and alternative-correct answer (batched); exit 1 unless all pass every step."""
    from tuner.cli.grade import graded_with_progress, print_steps
    from tuner.evals import load_suite
    from tuner.grading import GradeRequest
    from tuner.paths import find_project

    project = find_project()
    loaded = load_suite(project)
    evals = loaded.select(category=category)
    answers = [(e, "answer", e.answer_files()) for e in evals]
    answers += [(e, f"alternatives/{name}", files) for e in evals for name, files in e.alternatives().items()]
    requests = [GradeRequest(eval=e, files=files) for e, _, files in answers]
    results = graded_with_progress(project, requests, suite=loaded, use_cache=not no_cache, quiet=json_out)
    bad = [(which, r) for (_, which, _), r in zip(answers, results) if not r.passed]
    alternatives = len(answers) - len(evals)
    if json_out:
        typer.echo(
            json.dumps(
                {
                    "total": len(results),
                    "passed": len(results) - len(bad),
                    "alternatives": alternatives,
                    "results": [{**r.model_dump(), "answer": which} for (_, which, _), r in zip(answers, results)],
                },
                indent=2,
            )
        )
    else:
        for which, result in bad:
            typer.echo(f"{result.eval_id} ({which}):")
            print_steps(result, only_problems=True)
        typer.echo(
            f"{len(results) - len(bad)}/{len(results)} answers pass every step "
            f"({len(evals)} reference, {alternatives} alternative)"
        )
    if bad:
        from tuner.errors import EXIT_CODES, TunerError

        raise typer.Exit(EXIT_CODES[TunerError])
