"""`tuner keys create | list | revoke`: keys for the export API (shown once, stored hashed)."""

from __future__ import annotations

from typing import Annotated

import typer

from tuner.cli._common import DbOption, JsonOption, console, open_store, print_json

__all__ = ["register"]

keys_app = typer.Typer(no_args_is_help=True, help="Keys for the export API: create (shown once), list, revoke.")


def _json(k) -> dict:
    return {"id": k.id, "name": k.name, "created_at": k.created_at, "revoked_at": k.revoked_at, "active": k.active}


@keys_app.command("create")
def create_cmd(
    name: Annotated[str, typer.Argument(help="What the key is for (e.g. 'ci export job').")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Create a key and print it once: only its hash is stored."""
    from tuner.apikeys import create_key

    store = open_store(db, create=True)  # a key may come before any run
    try:
        new = create_key(store, name)
    finally:
        store.close()
    if as_json:
        print_json({**_json(new.key), "key": new.secret})
        return
    typer.echo(new.secret)
    typer.echo(
        f"key {new.key.id} ({new.key.name}): copy it now, it is not shown again. "
        "Use it as `Authorization: Bearer <key>`.",
        err=True,
    )


@keys_app.command("list")
def list_cmd(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Keys by id and name (never the key itself)."""
    from tuner.apikeys import list_keys

    store = open_store(db)
    try:
        keys = list_keys(store)
    finally:
        store.close()
    if as_json:
        print_json([_json(k) for k in keys])
        return
    from rich.table import Table

    table = Table(title="API keys")
    for col in ("id", "name", "created", "state"):
        table.add_column(col)
    for k in keys:
        state = "active" if k.active else f"revoked {k.revoked_at:%Y-%m-%d %H:%M}"
        table.add_row(k.id, k.name, f"{k.created_at:%Y-%m-%d %H:%M}", state)
    console().print(table)


@keys_app.command("revoke")
def revoke_cmd(
    key_id: Annotated[str, typer.Argument(help="The key's id (as `tuner keys list` shows).")],
    db: DbOption = None,
) -> None:
    """Revoke a key: requests with it are refused (401) from now on."""
    from tuner.apikeys import revoke_key

    store = open_store(db)
    try:
        key = revoke_key(store, key_id)
    finally:
        store.close()
    typer.echo(f"revoked key {key.id} ({key.name})")


def register(app: typer.Typer) -> None:
    app.add_typer(keys_app, name="keys")
