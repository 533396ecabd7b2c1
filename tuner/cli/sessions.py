"""`tuner sessions list | show`, `tuner label` and `tuner export`: recorded generations, their
reviews and exports (DeepEval JSON, OpenAI JSONL, plain text)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from tuner.cli._common import DbOption, JsonOption, console, open_store, print_json

__all__ = ["register"]

sessions_app = typer.Typer(no_args_is_help=True, help="Recorded generations (sessions): list them, show one.")

RunOpt = Annotated[Optional[str], typer.Option("--run", help="Only sessions of this run (id or prefix).")]
ModelOpt = Annotated[Optional[str], typer.Option("--model", "-m", help="Only sessions of this model.")]
CategoryOpt = Annotated[Optional[str], typer.Option("--category", "-c", help="Only this category.")]
EvalOpt = Annotated[Optional[str], typer.Option("--eval", help="Only this eval (id as `tuner evals list` shows).")]
OutcomeOpt = Annotated[Optional[str], typer.Option("--outcome", help="Only this grading outcome: pass | fail | infra.")]


def _filter(**values):
    from tuner.sessions import session_filter

    return session_filter(**values)


def _row(s) -> dict:
    return {
        "key": s.key,
        "result_id": s.result_id,
        "run": s.run_id,
        "model": s.model,
        "eval": s.eval_id,
        "category": s.category,
        "sample": s.sample_index,
        "outcome": s.outcome,
        "failed_step": s.failed_step,
        "prompt_tokens": s.prompt_tokens,
        "completion_tokens": s.completion_tokens,
        "cost_usd": s.cost_usd,
        **s.label.model_dump(mode="json"),
    }


@sessions_app.command("list")
def list_cmd(
    run: RunOpt = None,
    model: ModelOpt = None,
    category: CategoryOpt = None,
    eval_id: EvalOpt = None,
    outcome: OutcomeOpt = None,
    status: Annotated[
        Optional[str], typer.Option("--status", help="golden | correct | incorrect | needs_review.")
    ] = None,
    tag: Annotated[Optional[str], typer.Option("--tag", help="Only sessions with this tag.")] = None,
    ready: Annotated[
        Optional[bool], typer.Option("--ready/--not-ready", help="Only eval-ready (or not ready) sessions.")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=10_000, help="At most N sessions.")] = 20,
    offset: Annotated[int, typer.Option("--offset", min=0, help="Skip the first N (paging).")] = 0,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Sessions, newest first: one per recorded generation, with its review."""
    from tuner.sessions import list_sessions

    store = open_store(db)
    try:
        filt = _filter(
            run=run, model=model, category=category, eval=eval_id, outcome=outcome, status=status, tag=tag, ready=ready
        )
        page = list_sessions(store, filt, limit=limit, offset=offset)
    finally:
        store.close()
    if as_json:
        print_json({"sessions": [_row(s) for s in page.items], "offset": offset, "has_more": page.has_more})
        return
    _table(page)


def _table(page) -> None:
    from rich.table import Table

    from tuner.hashing import short

    table = Table(title="sessions (newest first; --json for runs, tokens, notes)")
    for col in ("session", "eval #sample", "model", "outcome", "review", "tags"):
        table.add_column(col, no_wrap=col in ("session", "outcome"), overflow="fold")
    for s in page.items:
        review = s.label.eval_status + (", ready" if s.label.eval_ready else "")
        table.add_row(
            short(s.key), f"{s.eval_id} #{s.sample_index}", s.model, s.outcome, review, ", ".join(s.label.eval_tags)
        )
    out = console()
    out.print(table)
    if page.has_more:
        out.print(f"[dim]more: --offset {page.offset + page.limit}[/dim]")


@sessions_app.command("show")
def show_cmd(
    session: Annotated[str, typer.Argument(help="Session key or prefix (as `tuner sessions list` shows).")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """One session's whole conversation (system prompt included), where grading failed and why, and its review."""
    from tuner.sessions import conversations, iter_sessions, openai_messages, render, resolve_keys

    store = open_store(db)
    try:
        [key] = resolve_keys(store, [session])
        [s] = iter_sessions(store, _filter(keys=(key,)))
        [conv] = conversations(store, [s])
        error = _failure(store, s.result_id)
    finally:
        store.close()
    system = next((m.get("content") or "" for m in conv.messages if m.get("role") == "system"), None)
    if as_json:
        print_json(
            {
                **_row(s),
                "run": s.run_id,
                "error": error,
                "finish_reason": conv.finish_reason,
                "stopped": conv.stopped,
                "reasoning": conv.reasoning,
                "system_prompt": system,
                "messages": openai_messages(conv),
            }
        )
        return
    # The export's text format leaves the system prompt out (an exported case carries it as context);
    # a reviewer reading one session needs it, where grading stopped, and why an answer is cut short.
    title, _, rest = render("text", [conv]).partition("\n")
    head = [
        title,
        f"Run: {s.run_id} | Outcome: {s.outcome} | Failed step: {s.failed_step or 'none'} | "
        f"Finish: {conv.finish_reason or 'unknown'}",
    ]
    if conv.stopped and conv.stopped not in (error or ""):
        head.append("Answer: " + conv.stopped)
    if error:
        head.append("Error: " + error)
    if system is not None:
        head += ["", "**System:**", system.rstrip()]
    typer.echo("\n".join(head) + "\n" + rest, nl=False)


def _failure(store, result_id: int) -> str | None:
    """The failed step's detail, else the result's own error (a parse or provider failure)."""
    from tuner.store.results import failure_text

    return failure_text(store, result_id)


def label(
    sessions: Annotated[
        Optional[list[str]], typer.Argument(help="Session keys or prefixes; or choose with the filters.")
    ] = None,
    run: RunOpt = None,
    model: ModelOpt = None,
    category: CategoryOpt = None,
    eval_id: EvalOpt = None,
    outcome: OutcomeOpt = None,
    where_status: Annotated[
        Optional[str], typer.Option("--where-status", help="Only sessions that now have this status.")
    ] = None,
    where_tag: Annotated[
        Optional[str], typer.Option("--where-tag", help="Only sessions that now have this tag.")
    ] = None,
    every: Annotated[
        bool, typer.Option("--all", help="Every session (needed when no session or filter is given).")
    ] = False,
    status: Annotated[
        Optional[str], typer.Option("--status", help="Set: golden | correct | incorrect | needs_review.")
    ] = None,
    ready: Annotated[
        Optional[bool],
        typer.Option(
            "--ready/--not-ready", help="Set eval-ready (a golden/correct/incorrect review sets it unless --not-ready)."
        ),
    ] = None,
    tag: Annotated[Optional[list[str]], typer.Option("--tag", help="Add a tag (repeatable).")] = None,
    untag: Annotated[Optional[list[str]], typer.Option("--untag", help="Remove a tag (repeatable).")] = None,
    notes: Annotated[Optional[str], typer.Option("--notes", help="Set the reviewer's notes.")] = None,
    expected: Annotated[
        Optional[str], typer.Option("--expected-output", help="Set the expected output (text).")
    ] = None,
    expected_file: Annotated[
        Optional[Path], typer.Option("--expected-file", help="Set the expected output from a file.")
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Review sessions: one by key, or many by run, model, category, eval, outcome or current status."""
    from tuner.errors import InputError
    from tuner.sessions import apply_labels, iter_sessions, label_change, resolve_keys

    if expected is not None and expected_file is not None:
        raise InputError("give --expected-output or --expected-file, not both")
    if expected_file is not None:
        try:
            expected = expected_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise InputError(f"--expected-file {expected_file}: {e}") from None
    change = label_change(
        status=status,
        ready=ready,
        add_tags=tag or None,
        remove_tags=untag or None,
        notes=notes,
        expected_output=expected,
    )
    filters = dict(
        run=run, model=model, category=category, eval=eval_id, outcome=outcome, status=where_status, tag=where_tag
    )
    if not sessions and not every and not any(v is not None for v in filters.values()):
        raise InputError("say which sessions: give session keys, a filter (--run, --category, --eval, ...) or --all")
    store = open_store(db)
    try:
        filt = _filter(**filters)
        keys = tuple(resolve_keys(store, sessions)) if sessions else None
        if keys is not None:
            filt = filt.model_copy(update={"keys": keys})
        chosen = [s.key for s in iter_sessions(store, filt)]
        n = apply_labels(store, chosen, change)
    finally:
        store.close()
    if as_json:
        print_json({"labelled": n, "sessions": chosen, "change": change.model_dump(exclude_defaults=True)})
        return
    what = ", ".join(f"{k}={v}" for k, v in change.model_dump(exclude_defaults=True).items())
    console().print(f"labelled {n} session{'s' if n != 1 else ''}: {what}")


def export(
    fmt: Annotated[str, typer.Option("--format", "-f", help="deepeval | openai | text.")],
    status: Annotated[Optional[str], typer.Option("--status", help="Only sessions with this status.")] = None,
    tag: Annotated[Optional[str], typer.Option("--tag", help="Only sessions with this tag.")] = None,
    limit: Annotated[Optional[int], typer.Option("--limit", "-n", help="At most N sessions (the newest).")] = None,
    run: RunOpt = None,
    model: ModelOpt = None,
    category: CategoryOpt = None,
    eval_id: EvalOpt = None,
    outcome: OutcomeOpt = None,
    output: Annotated[
        Optional[Path], typer.Option("--output", "-o", help="Write to this file (default: standard output).")
    ] = None,
    db: DbOption = None,
) -> None:
    """Export eval-ready sessions as DeepEval JSON, OpenAI chat JSONL or plain text."""
    import sys

    from tuner.files import write_atomic
    from tuner.sessions import stream_export

    store = open_store(db)
    try:
        filt = _filter(run=run, model=model, category=category, eval=eval_id, outcome=outcome, status=status, tag=tag)
        result = stream_export(store, fmt, filt, limit)
        if output is None:
            for chunk in result.chunks:
                sys.stdout.write(chunk)
        else:
            write_atomic(output, lambda tmp: _write_chunks(tmp, result.chunks))
    finally:
        store.close()
    where = f" to {output}" if output else ""
    hint = "" if result.sessions else " (only eval-ready sessions are exported: review some with `tuner label`)"
    typer.echo(
        f"exported {result.sessions} session{'s' if result.sessions != 1 else ''} as {fmt}{where}{hint}", err=True
    )


def _write_chunks(path: Path, chunks) -> None:
    with path.open("w", encoding="utf-8") as f:
        for chunk in chunks:
            f.write(chunk)


def register(app: typer.Typer) -> None:
    app.add_typer(sessions_app, name="sessions")
    app.command("label")(label)
    app.command("export")(export)
