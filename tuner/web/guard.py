"""What every request and response passes through, below the routes.

- ``SecurityHeaders``: each response gets a Content-Security-Policy that runs only the viewer's own
  scripts (inline ones carrying this response's nonce, ``request.state.csp_nonce``) and loads
  images, styles and requests only from the viewer itself, may be framed by nobody, is never
  sniffed into another type, and sends no Referer outside the viewer. A route that sets its own policy
  (a file from ``reports/``) keeps it.
- Starlette's ``TrustedHostMiddleware``: the Host header must name the address the server listens
  on or an allowed name (``allowed_hosts``), which stops DNS rebinding.
- ``SameOriginWrites``: a request that can change something (any method but GET/HEAD/OPTIONS) is
  refused (403) when the browser says it comes from another origin (``Origin``, or
  ``Sec-Fetch-Site`` when no Origin is sent); other ports of 127.0.0.1 are other origins, though
  the same site for cookies. A body must be JSON or a form (415 otherwise: a text/plain body is
  the one a page elsewhere can send without asking). Clients that are not browsers (curl with a
  bearer key) send neither header and pass.
"""

from __future__ import annotations

import ipaddress
import json
import secrets
import socket
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SecurityHeaders", "SameOriginWrites", "LOOPBACK_HOSTS", "allowed_hosts", "is_loopback", "install"]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_BODY_TYPES = frozenset({"application/json", "application/x-www-form-urlencoded", "multipart/form-data"})

# A report file (anything in reports/ but Markdown) is a document of its own: no script, no
# requests, no same-origin privileges (sandbox), whatever it holds.
REPORT_FILE_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'none'"


def _policy(nonce: str) -> str:
    return "; ".join(
        [
            "default-src 'none'",
            f"script-src 'nonce-{nonce}'",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self'",
            "connect-src 'self'",
            "form-action 'self'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
        ]
    )


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        nonce = secrets.token_urlsafe(18)
        scope.setdefault("state", {})["csp_nonce"] = nonce

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", _policy(nonce))
                headers.setdefault("X-Content-Type-Options", "nosniff")
                # same-origin, not no-referrer: under no-referrer a browser sends "Origin: null" with the
                # viewer's own form posts (Log out, Log in another browser), which the origin check
                # must then refuse; no address of the viewer leaves it either way.
                headers.setdefault("Referrer-Policy", "same-origin")
                headers.setdefault("X-Frame-Options", "DENY")
                headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
                headers.setdefault("Cross-Origin-Resource-Policy", "same-origin")
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _origin(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname:
        return None
    return parts.scheme.lower(), parts.hostname.lower(), port or {"http": 80, "https": 443}.get(parts.scheme.lower(), 0)


def _same_origin(origin: str, scope: Scope, host: str) -> bool:
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    if parts.path or parts.query or not parts.scheme:
        return False
    theirs = _origin(parts.scheme, parts.netloc)
    ours = _origin(scope.get("scheme", "http"), host)
    return theirs is not None and theirs == ours


class SameOriginWrites:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in _SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin, fetch_site = headers.get("origin"), headers.get("sec-fetch-site")
        if origin is not None:
            refused = not _same_origin(origin, scope, headers.get("host", ""))
        else:
            refused = fetch_site is not None and fetch_site not in ("same-origin", "none")
        if refused:
            await _refuse(
                scope, receive, send, 403, f"refused: a change sent from another origin ({origin or fetch_site})"
            )
            return
        has_body = headers.get("transfer-encoding") is not None or headers.get("content-length", "0").strip() not in (
            "",
            "0",
        )
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if has_body and kind not in _BODY_TYPES:
            await _refuse(
                scope,
                receive,
                send,
                415,
                f"send the body as JSON (Content-Type: application/json), not {kind or 'untyped'}",
            )
            return
        await self.app(scope, receive, send)


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
    from starlette.responses import Response

    await Response(json.dumps({"error": message}), status_code=status, media_type="application/json")(
        scope, receive, send
    )


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _as_host_header(name: str) -> str:
    """How ``name`` appears in a Host header (IPv6 literals in brackets), lower case."""
    name = name.strip().lower()
    try:
        if ipaddress.ip_address(name.strip("[]")).version == 6:
            return f"[{name.strip('[]')}]"
    except ValueError:
        pass
    return name


def allowed_hosts(listen: str, extra: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The Host names the viewer answers to when it listens on ``listen``: loopback names for a
    loopback address, the address itself for another one, this machine's names and addresses for
    a wildcard (0.0.0.0, ::); plus ``extra`` (``*.example.com`` patterns, or ``*`` for any)."""
    hosts: list[str] = []
    if is_loopback(listen):
        hosts += LOOPBACK_HOSTS
    elif listen.strip("[]") in ("0.0.0.0", "::", ""):
        hosts += LOOPBACK_HOSTS
        names = {socket.gethostname(), socket.getfqdn()}
        hosts += sorted(n for n in names if n)
        for name in sorted(names):
            try:
                hosts += sorted({info[4][0] for info in socket.getaddrinfo(name, None)})
            except OSError:
                continue
    else:
        hosts.append(listen)
    hosts += extra
    out: list[str] = []
    for h in map(_as_host_header, hosts):
        if h and h not in out:
            out.append(h)
    _check_patterns(out)
    return out


def _check_patterns(hosts) -> None:
    for pattern in hosts:
        if "*" in pattern[1:] or (pattern.startswith("*") and pattern != "*" and not pattern.startswith("*.")):
            from tuner.errors import InputError

            raise InputError(f"allowed host {pattern!r}: a pattern is '*' or '*.example.com'")


def install(app, hosts: list[str] | tuple[str, ...]) -> None:
    """The three layers, outermost first: headers on every answer (a refused Host too), the Host
    check, then the origin check of changes."""
    from starlette.middleware.trustedhost import TrustedHostMiddleware

    _check_patterns(hosts)
    app.add_middleware(SameOriginWrites)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(hosts), www_redirect=False)
    app.add_middleware(SecurityHeaders)
