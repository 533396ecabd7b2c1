"""`tuner guidelines ...`: list, show, render, validate and diff rule sets."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from tuner.cli._common import JsonOption, SuiteOption, console, err_console, print_json, project

__all__ = ["register"]

app = typer.Typer(no_args_is_help=True, help="Rule fragments, sets and composed prompts.")


def _guidelines():
    from tuner.evals import suite_categories
    from tuner.guidelines import load_guidelines

    return load_guidelines(project(), categories=suite_categories(project()))


@app.command("list")
def list_rules(
    status: Annotated[
        Optional[str], typer.Option(help="Only rules with this status (active, candidate, retired).")
    ] = None,
    category: Annotated[Optional[str], typer.Option(help="Only rules targeting this category.")] = None,
    as_json: JsonOption = False,
    suite: SuiteOption = None,
) -> None:
    """List the rules with their status, targets and content hash."""
    from tuner.hashing import short

    rules = [
        r
        for r in _guidelines().library
        if (status is None or r.status == status) and (category is None or category in r.targets)
    ]
    if as_json:
        print_json(
            [
                {**r.model_dump(exclude={"body", "variants"}), "hash": r.hash(), "variants": r.variant_names}
                for r in rules
            ]
        )
        return
    from rich.table import Table

    table = Table(title=f"{len(rules)} rules")
    for col in ("id", "status", "targets", "variants", "hash"):
        table.add_column(col)
    for r in rules:
        table.add_row(r.id, r.status, ", ".join(r.targets), ", ".join(r.variant_names), short(r.hash()))
    console().print(table)


@app.command("show")
def show(
    rule_id: str,
    variant: Annotated[str, typer.Option(help="Phrasing to show.")] = "default",
    as_json: JsonOption = False,
    suite: SuiteOption = None,
) -> None:
    """Show one rule: metadata, hash and text."""
    rule = _guidelines().library.get(rule_id)
    text = rule.text(variant)
    if as_json:
        print_json({**rule.model_dump(), "hash": rule.hash(variant), "variant": variant, "text": text})
        return
    typer.echo(f"{rule.id}  ({rule.status}; targets: {', '.join(rule.targets)}; {rule.path})")
    typer.echo(f"section: {' > '.join(rule.section)}   variant: {variant}   hash: {rule.hash(variant)}")
    typer.echo(f"\n{rule.title}\n\n{text}")


@app.command("render")
def render(
    rule_set: Annotated[str, typer.Argument(metavar="SET", help="Set name (guidelines/sets/NAME.yaml) or a set file.")],
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the prompt to this file.")] = None,
    as_json: JsonOption = False,
    suite: SuiteOption = None,
) -> None:
    """Print the exact system prompt a set composes to (hash and tokens on stderr)."""
    g = _guidelines()
    prompt = g.compose(g.load_set(rule_set))
    if as_json:
        print_json(prompt.model_dump())
        return
    if output:
        from tuner.files import write_atomic

        write_atomic(output, prompt.text)
    else:
        typer.echo(prompt.text, nl=False)
    err_console().print(
        f"[dim]{prompt.set_name}: {len(prompt.rules)} rules, {prompt.tokens} tokens, {prompt.hash}[/dim]"
    )


@app.command("validate")
def validate(as_json: JsonOption = False, suite: SuiteOption = None) -> None:
    """Check every rule file, set and template; exit 2 naming the first problem."""
    g = _guidelines()
    names = g.validate()
    if as_json:
        print_json({"rules": len(g.library), "sets": names, "ok": True})
    else:
        typer.echo(f"ok: {len(g.library)} rules, {len(names)} sets ({', '.join(names)})")


@app.command("diff")
def diff(
    before: Annotated[str, typer.Argument(help="Set name, set file, published name, NAME@VERSION or manifest.json.")],
    after: Annotated[str, typer.Argument(help="The same kinds of reference.")],
    as_json: JsonOption = False,
    suite: SuiteOption = None,
) -> None:
    """Rules added, removed and changed (by content hash) between two sets or published versions."""
    from tuner.hashing import short

    d = _guidelines().diff(before, after)
    if as_json:
        print_json(d.model_dump())
        return
    out = console()
    out.print(
        f"{before} -> {after}: {len(d.added)} added, {len(d.removed)} removed, {len(d.changed)} changed, {len(d.unchanged)} unchanged"
    )
    for r in d.added:
        out.print(f"[green]+ {r.id}[/green] ({r.variant}, {short(r.hash)})")
    for r in d.removed:
        out.print(f"[red]- {r.id}[/red] ({r.variant}, {short(r.hash)})")
    for a, b in d.changed:
        out.print(f"[yellow]~ {a.id}[/yellow] {a.variant} {short(a.hash)} -> {b.variant} {short(b.hash)}")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="guidelines")
