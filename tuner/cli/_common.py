"""Options and output helpers shared by the CLI modules."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Optional

import typer

__all__ = [
    "ClusterOption",
    "DbOption",
    "JsonOption",
    "SuiteOption",
    "console",
    "err_console",
    "print_json",
    "open_store",
    "project",
]


def _choose_suite(value: Optional[str]) -> Optional[str]:
    # The chosen suite reaches find_project() through TUNER_SUITE: every command resolves its
    # project the same way, whichever way (flag or variable) the person chose the suite.
    if value:
        import os

        from tuner.paths import _suite_path

        os.environ["TUNER_SUITE"] = str(_suite_path(value))
    return value


DbOption = Annotated[
    Optional[str],
    typer.Option(
        "--db", envvar="TUNER_DB", help="SQLAlchemy URL of the results store (default: experiments/tuner.db)."
    ),
]
ClusterOption = Annotated[
    Optional[str],
    typer.Option(
        "--cluster",
        envvar="TUNER_CLUSTER",
        help="Scheduler address (tcp://HOST:PORT, `tuner cluster scheduler`): provider calls and grading run "
        "on its workers; the cap, caches and store stay here.",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of tables.")]
SuiteOption = Annotated[
    Optional[str],
    typer.Option(
        "--suite",
        envvar="TUNER_SUITE",
        callback=_choose_suite,
        is_eager=True,
        help="Suite folder (holding suite.toml) to run instead of evals/.",
    ),
]


def console():
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False)


def err_console():
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, default=str, sort_keys=False) + "\n")


def project():
    from tuner.paths import find_project

    return find_project()


def open_store(db: str | None, *, create: bool = False):
    """The store for a command; read-only by default (a missing SQLite file is not created)."""
    from tuner.store import Store

    return Store.open(project().db_url(db), create=create)


ModelOption = Annotated[
    Optional[list[str]],
    typer.Option("--model", "-m", help="litellm model string (repeatable), e.g. sim/careful or openai/gpt-5-mini."),
]
PanelOption = Annotated[Optional[str], typer.Option("--panel", help="Model panel: experiments/NAME.toml or a path.")]
SamplesOption = Annotated[int, typer.Option("--samples", "-k", min=1, max=1000, help="Samples per eval.")]
NoCacheOption = Annotated[bool, typer.Option("--no-cache", help="Ignore the response and grading caches.")]
TurnsOption = Annotated[
    int,
    typer.Option(
        "--turns",
        min=1,
        max=10,
        help="Repair loop: a failed answer is shown its "
        "failed step and error and answered again, up to N turns (1: one shot).",
    ),
]

DEFAULT_MODEL = "sim/careful"


def resolve_models(proj, models: list[str] | None, panel: str | None) -> list:
    """Specs from --model flags (taking a panel's settings for a model it lists) or from a panel.

    With neither, the default panel's first model, else the offline simulator.
    """
    from tuner.models import ModelSpec, load_panel

    listed = load_panel(panel, proj) if panel else []
    if not models:
        if listed:
            return listed
        default = proj.experiments / "panel.toml"
        return load_panel(default, proj, check_sim=False)[:1] if default.is_file() else [ModelSpec(model=DEFAULT_MODEL)]
    by_name = {s.model: s for s in listed}
    if not listed and (proj.experiments / "panel.toml").is_file():
        by_name = {s.model: s for s in load_panel(proj.experiments / "panel.toml", proj, check_sim=False)}
    specs = [by_name.get(m) or ModelSpec(model=m) for m in models]
    from tuner.models.panel import _check_prefix  # noqa: PLC2701 - same check a panel gets

    for spec in specs:
        _check_prefix(spec)
    return specs
