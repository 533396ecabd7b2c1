"""``tuner models``: list a panel's models, ping one model.

Thin: each command calls the ``tuner.models`` API and prints; errors are TunerError subclasses
that the main CLI turns into exit codes.
"""

from __future__ import annotations

import json
import time
from typing import Annotated, Optional

import typer

__all__ = ["register"]

_PING_SYSTEM = "You are a health check. Reply with the single word: pong"


def register(app: typer.Typer) -> None:
    models = typer.Typer(help="Model panels and providers (litellm; sim/* offline).", no_args_is_help=True)
    models.command("list")(list_models)
    models.command("ping")(ping)
    app.add_typer(models, name="models")


def list_models(
    panel: Annotated[str, typer.Option("--panel", "-p", help="experiments/<name>.toml or a path")] = "panel",
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """The models of a panel, with their parameters and run identity."""
    from tuner.models import load_panel
    from tuner.paths import find_project

    specs = load_panel(panel, find_project())
    rows = [
        {
            "model": s.model,
            "key": s.key,
            "params": s.params,
            "api_base": s.api_base,
            "concurrency": s.concurrency,
            "rpm": s.rpm,
            "timeout_s": s.timeout_s,
            "max_retries": s.max_retries,
            "simulated": s.is_sim,
        }
        for s in specs
    ]
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    from rich.console import Console
    from rich.table import Column, Table

    from tuner.hashing import short

    table = Table("params", "api_base", "conc.", "rpm", "timeout", "retries", "sim")
    table.columns.insert(0, Column("key", no_wrap=True))
    table.columns.insert(0, Column("model", no_wrap=True))
    for r in rows:
        params = ", ".join(f"{k}={v}" for k, v in r["params"].items()) or "-"
        table.add_row(
            r["model"],
            short(r["key"], 8),
            params,
            r["api_base"] or "-",
            str(r["concurrency"]),
            str(r["rpm"] or "-"),
            f"{r['timeout_s']:g}s",
            str(r["max_retries"]),
            "yes" if r["simulated"] else "-",
        )
    Console().print(table)


def ping(
    model: Annotated[str, typer.Argument(help="litellm model string, e.g. openai/gpt-5-mini or sim/careful")],
    panel: Annotated[Optional[str], typer.Option("--panel", "-p", help="take params from this panel's entry")] = None,
    api_base: Annotated[Optional[str], typer.Option("--api-base", help="OpenAI-compatible endpoint")] = None,
) -> None:
    """One tiny call (never cached): latency, tokens and cost, or the one-line error."""
    from tuner.errors import ProviderError
    from tuner.models import CompletionRequest, complete_all

    spec = _spec_for(model, panel, api_base)
    started = time.monotonic()
    [done] = complete_all([CompletionRequest.chat(spec, _PING_SYSTEM, "ping")], cache=None)
    if done.status != "ok":
        raise ProviderError(f"{model}: {done.error}")
    cost = "unknown" if done.cost_usd is None else f"${done.cost_usd:.6f}"
    reply = " ".join(done.text.split())[:60]
    typer.echo(
        f"{model}: ok in {done.latency_s:.2f}s (wall {time.monotonic() - started:.2f}s, {done.attempts} attempt(s)); "
        f"tokens {done.prompt_tokens} in / {done.completion_tokens} out; cost {cost}; reply: {reply!r}"
    )


def _spec_for(model: str, panel: str | None, api_base: str | None):
    from tuner.errors import NotFoundError
    from tuner.models import ModelSpec, load_panel

    if panel:
        from tuner.paths import find_project

        matches = [s for s in load_panel(panel, find_project()) if s.model == model]
        if not matches:
            raise NotFoundError(f"{model}: not in panel {panel}")
        spec = matches[0]
        return ModelSpec.model_validate(spec.model_dump() | {"api_base": api_base}) if api_base else spec
    return ModelSpec(model=model, api_base=api_base, max_retries=1, timeout_s=60)
