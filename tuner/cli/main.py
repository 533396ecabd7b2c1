"""The ``tuner`` command. Only this layer turns errors into exit codes."""

from __future__ import annotations

import importlib
from typing import Annotated

import typer
import typer.core

from tuner import __version__
from tuner.errors import EXIT_CODES, IncompleteError, PlanShown, TunerError, exit_code

__all__ = ["app", "main"]

# Command modules, registered in this order. Each exposes ``register(app)`` and imports nothing
# heavy at module level, so `tuner --help` stays fast.
_MODULES = (
    "guidelines",
    "evals",
    "grade",
    "models",
    "run",
    "runs",
    "compare",
    "tune",
    "ablate",
    "publish",
    "analyze",
    "sessions",
    "keys",
    "serve",
    "store",
    "bench",
    "cluster",
)


class _Group(typer.core.TyperGroup):
    def main(self, *args, standalone_mode: bool = True, **kwargs):
        """Click's usage errors as one line on stderr (Typer draws a multi-line box), exit 2."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        import sys

        from typer._click import exceptions as click  # Typer ships its own copy of Click

        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except click.NoArgsIsHelpError as exc:
            exc.show()  # the help text, as before
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            where = exc.ctx.command_path if getattr(exc, "ctx", None) else "tuner"
            message = " ".join(exc.format_message().split())
            hint = f" (see '{where} --help')" if isinstance(exc, click.UsageError) else ""
            from tuner.secrets import scrub

            typer.echo(f"tuner: error: {scrub(message, 1000)}{hint}", err=True)  # a bad value may be a key
            sys.exit(exc.exit_code)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PlanShown:
            raise typer.Exit(exit_code(PlanShown())) from None  # --plan: shown, nothing else to say
        except TunerError as exc:
            from tuner.secrets import scrub

            message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            typer.echo(f"tuner: error: {scrub(message)}", err=True)  # never echo a key, whatever raised
            raise typer.Exit(exit_code(exc)) from None
        except KeyboardInterrupt as exc:
            typer.echo(
                "tuner: interrupted; everything recorded so far is kept (run the same command to resume)", err=True
            )
            raise typer.Exit(exit_code(exc)) from None
        except Exception as exc:  # noqa: BLE001 - whatever escaped: never a key on the screen
            from typer._click import exceptions as click

            if isinstance(exc, (click.ClickException, typer.Exit, typer.Abort)):
                raise  # Click's own flow (usage errors, exits): handled in main()
            _unexpected(exc)


_PROVIDER_MODULES = ("litellm", "openai", "anthropic", "httpx", "httpcore", "aiohttp", "requests")


def _unexpected(exc: Exception):
    """A provider library's error that no command turned into a named error: one scrubbed line,
    exit 4 (the work is incomplete; asking again may work). Anything else is a bug: its traceback,
    scrubbed (a provider message can echo the key it was sent), exit 1."""
    import traceback

    from tuner.secrets import mask, scrub

    if type(exc).__module__.split(".")[0] in _PROVIDER_MODULES:
        typer.echo(f"tuner: error: the model provider failed: {scrub(f'{type(exc).__name__}: {exc}')}", err=True)
        raise typer.Exit(EXIT_CODES[IncompleteError]) from None
    typer.echo(mask("".join(traceback.format_exception(exc))).rstrip(), err=True)
    typer.echo(
        f"tuner: internal error (a bug; please report it with the traceback above): "
        f"{scrub(f'{type(exc).__name__}: {exc}')}",
        err=True,
    )
    raise typer.Exit(EXIT_CODES[TunerError]) from None


def _flags_take_no_value() -> None:
    """Typer 0.29's rich help prints a type for every option, so flags read ``--help <bool>`` as if
    they took a value. A flag's type column is left empty instead (how Click's plain help shows it)."""
    option = typer.core.TyperOption
    shown = option.display_type_rich

    def display_type_rich(self, ctx):
        return None if self.is_flag or self.count else shown(self, ctx)

    option.display_type_rich = display_type_rich


_flags_take_no_value()

app = typer.Typer(
    cls=_Group,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Tune the guideline files that teach LLMs to write code for a product, with evidence.",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tuner {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """tuner: which rules make which models better at which kinds of task."""


for _name in _MODULES:
    importlib.import_module(f"tuner.cli.{_name}").register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
