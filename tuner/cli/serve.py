"""`tuner serve`: the local web viewer and export API over the store (127.0.0.1 by default)."""

from __future__ import annotations

import re
from typing import Annotated, Optional

import typer

from tuner.cli._common import DbOption, SuiteOption, open_store, project

__all__ = ["register"]

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNIT = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def _seconds(option: str, value: str) -> float:
    """'90s', '30m', '12h', '7d' or a number of seconds."""
    m = _DURATION.match(value or "")
    if not m or float(m.group(1)) <= 0:
        raise typer.BadParameter(f"{option} {value!r}: give a positive duration such as 90s, 30m, 12h or 7d")
    return float(m.group(1)) * _UNIT[m.group(2)]


def serve(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (default: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", "-p", min=0, max=65535, help="Port (0: any free port).")] = 8765,
    allowed_host: Annotated[
        Optional[list[str]],
        typer.Option(
            "--allowed-host",
            metavar="HOST",
            help="Another Host name the viewer answers to (repeatable; '*.example.com' patterns; '*': any). "
            "By default only the address it listens on (127.0.0.1, localhost, [::1] for loopback).",
        ),
    ] = None,
    trusted_proxy: Annotated[
        Optional[list[str]],
        typer.Option(
            "--trusted-proxy",
            metavar="ADDRESS",
            help="Address (or network) of a reverse proxy whose X-Forwarded-For/-Proto headers are "
            "believed (repeatable). By default no client's are.",
        ),
    ] = None,
    session_idle: Annotated[
        str,
        typer.Option(
            "--session-idle", metavar="DURATION", help="A browser session ends after this long without a request."
        ),
    ] = "12h",
    session_max: Annotated[
        str,
        typer.Option("--session-max", metavar="DURATION", help="A browser session ends this long after it was opened."),
    ] = "7d",
    link_expiry: Annotated[
        str,
        typer.Option("--link-expiry", metavar="DURATION", help="An unused one-time login link lapses after this long."),
    ] = "1h",
    db: DbOption = None,
    suite: SuiteOption = None,
) -> None:
    """Browse runs, reports, the leaderboard and sessions; review and export sessions.

    Prints a one-time login URL: opening it logs that browser in (an HttpOnly cookie). Scripts use
    the export API with a key from `tuner keys create`.
    """
    import socket

    from tuner.errors import InputError

    times = {
        "idle": _seconds("--session-idle", session_idle),
        "lifetime": _seconds("--session-max", session_max),
        "link_ttl": _seconds("--link-expiry", link_expiry),
    }
    proxies = [p.strip() for value in trusted_proxy or [] for p in value.split(",") if p.strip()]
    _check_proxies(proxies)
    from tuner.web.guard import allowed_hosts

    hosts = allowed_hosts(host, allowed_host or [])
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
        _run(proj, store, sock, host, hosts, proxies, times)
    finally:
        store.close()


def _check_proxies(proxies: list[str]) -> None:
    import ipaddress

    for p in proxies:
        try:
            ipaddress.ip_network(p, strict=False)
        except ValueError:
            raise typer.BadParameter(f"--trusted-proxy {p!r}: give an IP address or network (10.0.0.0/8)") from None


def _run(proj, store, sock, host: str, hosts: list[str], proxies: list[str], times: dict) -> None:
    import uvicorn

    from tuner.web import Login, create_app
    from tuner.web.guard import is_loopback

    login = Login(**times)
    app = create_app(store, proj, login, allowed_hosts=hosts)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"tuner viewer on http://{shown}:{bound}/  (Ctrl-C to stop)")
    typer.echo(f"log in (once, in your browser): http://{shown}:{bound}/login?token={login.token}", err=False)
    if not is_loopback(host):
        typer.echo(
            f"warning: listening on {host} over plain HTTP: the login link, cookie and API keys cross the network "
            "unencrypted; serve it behind a TLS proxy (docs/viewer.md) or reach it through an SSH tunnel",
            err=True,
        )
    import sys

    sys.stdout.flush()
    # X-Forwarded-* headers change what the app believes about the client and the scheme: only the
    # proxies named with --trusted-proxy may send them (uvicorn otherwise trusts 127.0.0.1 by default).
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            log_level="warning",
            access_log=False,
            proxy_headers=bool(proxies),
            forwarded_allow_ips=",".join(proxies) or None,
        )
    )
    server.run(sockets=[sock])


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
