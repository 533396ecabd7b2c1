"""`tuner grade DIR --eval ID`: grade one output folder against one eval."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tuner.cli._common import SuiteOption

if TYPE_CHECKING:
    from tuner.evals import Eval, Suite
    from tuner.grading import GradeRequest, GradeResult
    from tuner.paths import Project

__all__ = ["register", "graded_with_progress", "print_steps"]

_STYLE = {"pass": "green", "fail": "red", "error": "magenta", "skip": "dim"}


def register(app: typer.Typer) -> None:
    app.command("grade")(grade_dir)


def grade_dir(
    directory: Annotated[
        Path,
        typer.Argument(
            help="Output folder holding the answer roots of the suite's kind (`tuner evals list` names them)."
        ),
    ],
    eval_ref: Annotated[str, typer.Option("--eval", "-e", help="Eval id (005-actions/001-x) or eval folder.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Grade again even if cached.")] = False,
    suite: SuiteOption = None,
) -> None:
    """Grade an output folder; print each step's status, time and errors; exit 1 if it fails."""
    from tuner.errors import InputError
    from tuner.evals import load_suite
    from tuner.grading import GradeRequest, read_output_dir
    from tuner.paths import find_project

    if not directory.is_dir():
        raise InputError(f"{directory}: not a folder")
    project = find_project()
    suite = load_suite(project)
    ev = _resolve_eval(suite, eval_ref)
    # The suite's kind says where an answer's files live and grades them (not Convex's folders).
    files, symlinks = read_output_dir(directory, suite.kind.answer_roots)
    generated = getattr(suite.kind, "generated_paths", None)  # a tool's output in the folder, not the answer's
    for path in generated(files) if generated else []:
        del files[path]
    request = GradeRequest(eval=ev, files=files, symlinks=symlinks)
    [result] = graded_with_progress(project, [request], suite=suite, use_cache=not no_cache, quiet=True)
    if json_out:
        typer.echo(json.dumps(result.model_dump(), indent=2))
    else:
        print_steps(result)
    if not result.passed:
        from tuner.errors import EXIT_CODES, TunerError

        raise typer.Exit(EXIT_CODES[TunerError])


def _resolve_eval(suite: Suite, ref: str) -> Eval:
    from tuner.evals import load_eval

    path = Path(ref)
    if path.is_dir() and (path / suite.kind.grader_file).exists():
        resolved = path.resolve()
        for ev in suite.evals:
            if ev.path.resolve() == resolved:
                return ev
        return load_eval(resolved, kind=suite.kind)
    return suite.get(ref.strip("/"))


def graded_with_progress(
    project: Project, requests: list[GradeRequest], *, suite: Suite, use_cache: bool, quiet: bool
) -> list[GradeResult]:
    """``grade()`` with a progress bar on stderr when there is more than one request."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from tuner.suites import grade

    if quiet or len(requests) < 2:
        return grade(project, requests, use_cache=use_cache, suite=suite)
    columns = (TextColumn("grading"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(file=sys.stderr), transient=True) as bar:
        task = bar.add_task("grading", total=len(requests))
        return grade(
            project,
            requests,
            use_cache=use_cache,
            suite=suite,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )


def print_steps(result: GradeResult, *, only_problems: bool = False) -> None:
    from rich.console import Console
    from rich.markup import escape

    console = Console()
    verdict = "[green]PASS[/]" if result.passed else ("[magenta]ERROR[/]" if result.infra_error else "[red]FAIL[/]")
    tests = f"tests {result.tests_passed}/{result.tests_total}" if result.tests_total else ""
    cached = " (cached)" if result.cached else ""
    console.print(f"{verdict} {escape(result.eval_id)} {tests}{cached}")
    for step in result.steps:
        if only_problems and step.status in ("pass", "skip"):
            continue
        style = _STYLE[step.status]
        console.print(f"  [{style}]{step.status:5}[/] {step.name:10} {step.duration_s:6.2f}s")
        for line in step.detail.splitlines():
            console.print(f"        {escape(line)}", highlight=False)
        for line in step.warnings if not only_problems else ():
            console.print(f"        [yellow]warning[/] {escape(line)}", highlight=False)
    if result.infra_error:
        console.print(
            f"  [magenta]infrastructure error[/]: {escape(result.infra_error)} (not counted as a model failure)"
        )
