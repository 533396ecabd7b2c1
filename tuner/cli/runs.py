"""`tuner runs list | show RUN` (what is in the store) and `tuner leaderboard` (models over time)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from tuner.cli._common import DbOption, JsonOption, SuiteOption, console, print_json
from tuner.cli._table import WideOption

__all__ = ["register"]

runs_app = typer.Typer(no_args_is_help=True, help="Stored runs: list them, show one.")


def _est_json(est) -> dict:
    return {"rate": est.rate, "lo": est.lo, "hi": est.hi, "passes": est.passes, "n": est.n, "tasks": est.tasks}


def _fmt(est) -> str:
    from tuner.compare.report import fmt_rate

    return fmt_rate(est)


@runs_app.command("list")
def list_cmd(
    model: Annotated[Optional[str], typer.Option("--model", "-m", help="Only runs of this model.")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="Most recent N runs.")] = 20,
    every: Annotated[
        bool, typer.Option("--all", help="Also the runs ablations and tunes made as parts of themselves.")
    ] = False,
    db: DbOption = None,
    suite: SuiteOption = None,
    wide: WideOption = False,
    as_json: JsonOption = False,
) -> None:
    """Recent runs, newest first, with the overall pass rate, its 95% interval, calls and cost.

    The one-eval runs an ablation or a tune makes are hidden (see them from `tuner serve`'s
    experiment pages, or with --all); --suite lists only that suite's runs."""
    from tuner.cli._common import open_store
    from tuner.compare import OVERALL, model_label, rate_rows
    from tuner.errors import NotFoundError
    from tuner.hashing import short
    from tuner.models.panel import is_sim_model

    try:
        store = open_store(db)
    except NotFoundError:  # nothing recorded yet: an empty list, and no store file created
        store = None
    from tuner.store.runs import list_runs

    suite_name = None
    if suite:
        from tuner.cli._common import project
        from tuner.evals import load_suite

        suite_name = load_suite(project()).name
    rows = []
    usage = {}
    try:
        for run in list_runs(store, model=model, suite=suite_name, include_parts=every, limit=limit) if store else []:
            overall = next(r for r in rate_rows(store.results(run.id)) if r.category == OVERALL)
            rows.append((run, overall))
        if store:
            from tuner.runs.usage import run_usage

            usage = run_usage(store, [run.id for run, _ in rows])
    finally:
        if store:
            store.close()
    if as_json:
        print_json(
            [
                {
                    "id": run.id,
                    "model": run.model,
                    "simulated": is_sim_model(run.model),
                    "set": run.set_name,
                    "status": run.status,
                    "overall": _est_json(o.estimate),
                    "infra": o.infra,
                    "samples": run.samples,
                    "evals": len(run.eval_ids),
                    "usage": usage[run.id].as_json(),
                    "updated_at": run.updated_at,
                }
                for run, o in rows
            ]
        )
        return
    from tuner.cli._table import Column, fitted_table, print_wide

    # Tokens are in `runs show` and --json; columns a terminal cannot fit are left out by priority.
    columns = [
        Column("id", 0),
        Column("model", 0, wrap=True),
        Column("set", 0),
        Column("calls", 1, "right"),
        Column("cost", 1, "right"),
        Column("overall [95% CI]", 2),
        Column("status", 3),
        Column("when", 4),
        Column("k × evals", 5, "right"),
    ]
    cells = []
    for run, o in rows:
        u = usage[run.id]
        cells.append(
            [
                short(run.id),
                model_label(run.model, run.params),
                run.set_name,
                str(u.calls),
                u.cost_text(),
                _fmt(o.estimate),
                run.status,
                run.updated_at.strftime("%m-%d %H:%M") if run.updated_at else "",
                f"{run.samples} × {len(run.eval_ids)}",
            ]
        )
    out = console()
    table, left_out, needed = fitted_table("runs (newest first)", columns, cells, width=out.width, wide=wide)
    print_wide(out, table, needed)
    if left_out:
        out.print(f"[dim]not shown at {out.width} columns: {', '.join(left_out)} (--wide shows them)[/dim]")


def _first_line(text: str | None) -> str:
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()[:200]
    return ""


def _eval_rows(results) -> list[dict]:
    """Per eval: outcomes in sample order and, for the first failing sample, where and why."""
    by_eval: dict[str, list] = {}
    for r in results:
        by_eval.setdefault(r.eval_id, []).append(r)
    rows = []
    for eval_id, rs in sorted(by_eval.items()):
        failing = next((r for r in rs if r.outcome == "fail"), None)
        step = failing.failed_step if failing else None
        detail = ""
        if failing:
            failed = next((s for s in failing.steps if s.status == "fail"), None)
            detail = _first_line(failed.detail if failed and failed.detail else failing.error)
        rows.append(
            {
                "eval": eval_id,
                "category": rs[0].category,
                "outcomes": [r.outcome for r in rs],
                "passes": sum(r.outcome == "pass" for r in rs),
                "scored": sum(r.outcome != "infra" for r in rs),
                "infra": sum(r.outcome == "infra" for r in rs),
                "first_failing_step": step,
                "first_error": detail or None,
            }
        )
    return rows


@runs_app.command("show")
def show_cmd(
    run_id: Annotated[str, typer.Argument(metavar="RUN", help="Run id or unique prefix.")],
    db: DbOption = None,
    suite: SuiteOption = None,
    as_json: JsonOption = False,
) -> None:
    """One run: what defined it, pass rates per category with intervals, each eval's outcomes."""
    from tuner.cli._common import open_store, project
    from tuner.compare import model_label, rate_rows
    from tuner.models.panel import is_sim_model
    from tuner.runs.usage import run_usage

    store = open_store(db)
    try:
        run = store.run(run_id)
        results = store.results(run.id)
        usage = run_usage(store, [run.id])[run.id]
    finally:
        store.close()
    try:
        from tuner.evals import load_suite

        order = load_suite(project()).categories
    except Exception:  # noqa: BLE001 - showing a run must not depend on the suite still loading
        order = None
    rates = rate_rows(results, order)
    evals = _eval_rows(results)
    meta = run.model_dump(mode="json", exclude={"summary", "eval_ids"})
    if as_json:
        print_json(
            {
                **meta,
                "simulated": is_sim_model(run.model),
                "evals": len(run.eval_ids),
                "usage": usage.as_json(),
                "rates": {r.category: {**_est_json(r.estimate), "infra": r.infra} for r in rates},
                "results": evals,
            }
        )
        return
    _print_show(run, rates, evals, model_label, usage)


def _print_show(run, rates, evals, model_label, usage) -> None:
    from rich.table import Table

    from tuner.hashing import short

    out = console()
    out.print(
        f"[bold]run {short(run.id)}[/bold]  {model_label(run.model, run.params)} · set {run.set_name} · {run.status}"
    )
    out.print(
        f"prompt {short(run.prompt_hash)} · suite {run.suite} {short(run.suite_hash)} · grader {short(run.grader_hash)} "
        f"· {len(run.eval_ids)} evals × {run.samples} samples (offset {run.sample_offset}) · git {run.git_rev or 'n/a'}"
    )
    if run.params:
        out.print(f"params {run.params}")
    out.print(f"created {run.created_at} · updated {run.updated_at}")
    out.print(
        f"{usage.calls} provider calls · {usage.prompt_tokens:,} tokens in, {usage.completion_tokens:,} out · "
        f"cost {usage.cost_text()}"
    )
    rt = Table(title="pass rates (95% CI; tasks are the unit)")
    for col in ("category", "pass rate", "passes / scored", "infra"):
        rt.add_column(col, justify="left" if col == "category" else "right")
    for i, r in enumerate(rates):
        rt.add_row(
            r.category,
            _fmt(r.estimate),
            f"{r.estimate.passes}/{r.estimate.n}",
            str(r.infra),
            end_section=i == len(rates) - 2,
        )
    out.print(rt)
    et = Table(title="evals")
    for col in ("eval", "outcomes", "first failing step", "first error line"):
        et.add_column(col, overflow="fold")
    marks = {"pass": "[green]✓[/green]", "fail": "[red]✗[/red]", "infra": "[yellow]![/yellow]"}
    for e in evals:
        et.add_row(
            e["eval"],
            "".join(marks.get(o, "?") for o in e["outcomes"]) + f" {e['passes']}/{e['scored']}",
            e["first_failing_step"] or "",
            e["first_error"] or "",
        )
    out.print(et)


def leaderboard_cmd(
    last: Annotated[int, typer.Option("--last", "-n", min=1, help="Use each model's last N complete runs.")] = 5,
    include_partial: Annotated[
        bool, typer.Option("--include-partial", help="Also count runs of part of the suite (one category, some evals).")
    ] = False,
    db: DbOption = None,
    suite: SuiteOption = None,
    as_json: JsonOption = False,
) -> None:
    """Per model and rule set: mean ± sd of the overall pass rate over its last N complete runs of this suite version."""
    from tuner.cli._common import open_store, project
    from tuner.evals import load_suite
    from tuner.leaderboard import leaderboard

    suite = load_suite(project())
    store = open_store(db)
    try:
        rows = leaderboard(store, suite.hash, None if include_partial else [e.id for e in suite.evals], last=last)
    finally:
        store.close()
    if as_json:
        print_json({"suite_hash": suite.hash, "last": last, "rows": [r.model_dump(mode="json") for r in rows]})
        return
    from rich.table import Table

    from tuner.hashing import short

    table = Table(title=f"leaderboard · suite {suite.manifest.name} {short(suite.hash)} · last {last} complete runs")
    for col in ("model", "rule set (prompt)", "mean pass rate", "sd", "runs"):
        table.add_column(col, justify="left" if col in ("model", "rule set (prompt)") else "right")
    for r in rows:
        table.add_row(
            r.model_label,
            f"{r.set_name} ({short(r.prompt_hash, 8)})",
            f"{r.mean:.1%}",
            "n/a" if r.sd is None else f"{r.sd:.1%}",
            str(r.runs),
        )
    out = console()
    out.print(table)
    if not rows:
        out.print(
            "No complete run of this suite version"
            + ("" if include_partial else " covering every eval (see --include-partial)")
            + "."
        )


def register(app: typer.Typer) -> None:
    app.add_typer(runs_app, name="runs")
    app.command("leaderboard")(leaderboard_cmd)
