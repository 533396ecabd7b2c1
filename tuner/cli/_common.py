"""Options and output helpers shared by the CLI modules."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Optional

import typer

__all__ = ["DbOption", "JsonOption", "console", "err_console", "print_json", "open_store", "project"]

DbOption = Annotated[
    Optional[str],
    typer.Option("--db", envvar="TUNER_DB", help="SQLAlchemy URL of the results store (default: experiments/tuner.db)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of tables.")]


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


def open_store(db: str | None):
    from tuner.store import Store

    return Store.open(project().db_url(db))
