"""`tuner analyze RUN` (failure-analysis report) and `tuner propose --category C` (candidate rules)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from tuner.cli._common import DbOption, JsonOption, SuiteOption, console, print_json
from tuner.hashing import short

__all__ = ["register"]

AnalystOption = Annotated[
    str, typer.Option("--analyst", help="litellm model string of the analyst (default: the offline simulated analyst).")
]
ApiBaseOption = Annotated[
    Optional[str], typer.Option("--api-base", help="Base URL of the analyst's / proposer's OpenAI-compatible server.")
]


def analyze(
    run: Annotated[str, typer.Argument(metavar="RUN", help="Run id, unique prefix, or viewer URL .../run/<id>/...")],
    analyst: AnalystOption = "sim/analyst",
    api_base: ApiBaseOption = None,
    db: DbOption = None,
    suite: SuiteOption = None,
    as_json: JsonOption = False,
) -> None:
    """Classify every failed eval of RUN (at most 4 analyses at a time) and write reports/{provider}/{model}/{run8}_{date}.md."""
    from tuner.analysis import analyze_run, check_author
    from tuner.cli._common import open_store, project

    proj = project()
    check_author(analyst, "analyst", api_base)  # before the store is even opened
    store = open_store(db)
    try:
        result = analyze_run(proj, store, run, analyst=analyst, api_base=api_base)
    finally:
        store.close()
    if as_json:
        print_json(
            {
                "run": result.run_id,
                "all_passed": result.all_passed,
                "report": str(result.path) if result.path else None,
                **({"body": result.body} if result.body else {}),
            }
        )
        return
    if result.all_passed:
        console().print(
            f"run {short(result.run_id)}: all {result.total} results passed; nothing to analyse (no report written)."
        )
        return
    _summary(result)


def _summary(result) -> None:
    """What the analysis found, in a few lines; the whole report is the file (the viewer shows it)."""
    from tuner.runs.usage import plural

    b, out = result.body or {}, console()
    t = b.get("totals") or {}
    rate = "n/a" if t.get("pass_rate") is None else f"{t['pass_rate']:.0%}"
    out.print(
        f"run {short(result.run_id)} · {b.get('model', '')} · set {b.get('set', '')}: "
        f"{plural(t.get('failed', 0), 'result')} failed of {t.get('results', result.total)} ({rate} passed)"
        + (f", {t['infra']} infrastructure failures" if t.get("infra") else ""),
        soft_wrap=True,
    )
    counts = b.get("counts") or {}
    who = b.get("analyst", "") + (" (simulated)" if b.get("simulated_analyst") else "")
    out.print(
        f"classified {plural(len(b.get('verdicts') or []), 'failed eval')} ({who}): "
        + (", ".join(f"{n} {k}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1]) if n) or "none"),
        soft_wrap=True,
    )
    steps = b.get("by_step") or {}
    if steps:
        out.print(
            "failed at: " + ", ".join(f"{k} {v}" for k, v in sorted(steps.items(), key=lambda kv: -kv[1])),
            soft_wrap=True,
        )
    if b.get("actionable") is not None:
        fixed = b.get("pass_rate_if_fixed")
        out.print(
            f"actionable: {b['actionable']} (grader, eval or rule changes), genuine model faults: {b.get('model_faults', 0)}"
            + (f"; pass rate if the actionable ones were fixed: {fixed:.0%}" if fixed is not None else ""),
            soft_wrap=True,
        )
    recs = b.get("recommendations") or []
    if recs:
        out.print(f"{plural(len(recs), 'recommendation')} in the report")
    out.print(
        f"report: {result.path} (and {result.path.with_suffix('.json').name}; `tuner serve` shows it)", soft_wrap=True
    )


def propose(
    category: Annotated[str, typer.Option("--category", "-c", help="Category whose failures to learn from.")],
    run: Annotated[
        Optional[str],
        typer.Option("--run", help="Run id, prefix or viewer URL (default: the latest run with failures in CATEGORY)."),
    ] = None,
    proposer: Annotated[
        str,
        typer.Option(
            "--proposer", help="litellm model string of the proposer (default: the offline simulated proposer)."
        ),
    ] = "sim/proposer",
    api_base: ApiBaseOption = None,
    db: DbOption = None,
    suite: SuiteOption = None,
    as_json: JsonOption = False,
) -> None:
    """Draft candidate rules (status: candidate, with provenance) from CATEGORY's failures; near-duplicates are skipped."""
    from tuner.analysis import check_author
    from tuner.cli._common import open_store, project
    from tuner.proposals import propose_rules

    proj = project()
    check_author(proposer, "proposer", api_base)
    store = open_store(db)
    try:
        result = propose_rules(proj, store, category, run=run, proposer=proposer, api_base=api_base)
    finally:
        store.close()
    if as_json:
        print_json(result.model_dump(mode="json"))
        return
    out = console()
    out.print(
        f"run {short(result.run_id)} · {category}: {result.failures} failed eval(s) read by {result.proposer}"
        + (" (simulated)" if result.simulated else "")
    )
    for w in result.written:
        out.print(f"[green]wrote[/green] {w.path}  ({w.id}: {w.title}; from {', '.join(w.evals)})")
    for d in result.skipped:
        # A declined draft has no title: the eval it came from is what tells the reader which one.
        what = f"'{d.title}' (from {d.eval_id})" if d.title else f"the draft for {d.eval_id}"
        out.print(f"[yellow]skipped[/yellow] {what}: {d.reason}", soft_wrap=True)
    out.print(f"{len(result.written)} written, {len(result.skipped)} skipped")
    if result.written:
        out.print(
            f"candidates are off until measured: [bold]tuner tune --category {category}[/bold] (or `tuner ablate`) decides"
        )


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze)
    app.command("propose")(propose)
