"""`tuner serve`: the local web viewer and export API over the store (127.0.0.1 by default)."""

from __future__ import annotations

from typing import Annotated

import typer

from tuner.cli._common import DbOption, SuiteOption, open_store, project

__all__ = ["register"]


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (default: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", "-p", min=0, max=65535, help="Port (0: any free port).")] = 8765,
    db: DbOption = None,
    suite: SuiteOption = None,
) -> None:
    """Browse runs, reports, the leaderboard and sessions; review and export sessions.

    Prints a one-time login URL: opening it logs that browser in (an HttpOnly cookie). Scripts use
    the export API with a key from `tuner keys create`.
    """
    import socket

    from tuner.errors import InputError

    proj = project()
    store = open_store(db, create=True)  # the viewer of a new project starts empty and records reviews
    # proto=IPPROTO_TCP: asyncio turns Nagle off (TCP_NODELAY) only on sockets that say they are TCP;
    # with Nagle on, every response on a kept-alive connection waited ~40 ms for a delayed ACK.
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        # Listening before the URL is printed: a client that connects as soon as it reads the URL
        # (a script, a test, a fast browser) waits in the backlog until uvicorn has loaded the app,
        # instead of being refused.
        sock.listen(2048)
    except OSError as e:
        store.close()
        sock.close()
        raise InputError(f"--host {host} --port {port}: cannot listen there: {e.strerror or e}") from None
    try:
        _run(proj, store, sock, host)
    finally:
        store.close()


def _run(proj, store, sock, host: str) -> None:
    import uvicorn

    from tuner.web import Login, create_app

    login = Login()
    app = create_app(store, proj, login)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"tuner viewer on http://{shown}:{bound}/  (Ctrl-C to stop)")
    typer.echo(f"log in (once, in your browser): http://{shown}:{bound}/login?token={login.token}", err=False)
    if host not in ("127.0.0.1", "localhost", "::1"):
        typer.echo(f"note: listening on {host}: anyone who can reach it needs the login link or an API key", err=True)
    import sys

    sys.stdout.flush()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    server.run(sockets=[sock])


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
