"""Who may use the viewer and the API.

- The API (``/api/...``) takes ``Authorization: Bearer <key>`` with a key from `tuner keys create`
  (checked by ``tuner.apikeys.verify_key``), or the viewer's login cookie.
- The viewer: `tuner serve` prints a one-time login URL; opening it sets an HttpOnly, SameSite=Strict
  cookie holding a random session id kept only in this server's memory, and the token is spent.
  Label changes from the pages are JSON requests to the same API endpoints external clients use.
- Another browser, without restarting the server, logs in either way:
  1. from a browser already logged in, "Log in another browser" (``POST /login/another``) mints a
     new one-time link (same rules: spent on first use, in memory only);
  2. on the login page, with an API key from `tuner keys create` (the key lives in the store, so a
     key created while the server runs works at once; revoking it stops new logins with it).
"""

from __future__ import annotations

import hmac
import secrets
import threading

from fastapi import Request
from fastapi.security import HTTPBearer

__all__ = ["COOKIE", "Login", "bearer", "api_identity", "viewer_session"]

COOKIE = "tuner_viewer"
bearer = HTTPBearer(auto_error=False)


class Login:
    """The one-time login tokens (the one `tuner serve` printed, and any minted since) and the
    viewer sessions they opened."""

    def __init__(self, token: str | None = None):
        self.token = token or secrets.token_urlsafe(32)
        self._unspent: set[str] = {self.token}
        self._sessions: set[str] = set()
        self._lock = threading.Lock()

    def new_token(self) -> str:
        """Another one-time token (for a second browser), spent on its first use like the first."""
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._unspent.add(token)
        return token

    def redeem(self, presented: str) -> str | None:
        """A new session id if ``presented`` is an unspent token, else None."""
        with self._lock:
            match = next((t for t in self._unspent if hmac.compare_digest(presented.encode(), t.encode())), None)
            if match is None:
                return None
            self._unspent.discard(match)
            return self._open()

    def open_session(self) -> str:
        """A session for a caller proven some other way (a valid API key)."""
        with self._lock:
            return self._open()

    def _open(self) -> str:
        session = secrets.token_urlsafe(32)
        self._sessions.add(session)
        return session

    def valid(self, session: str | None) -> bool:
        if not session:
            return False
        with self._lock:
            return any(hmac.compare_digest(session.encode(), s.encode()) for s in self._sessions)


def viewer_session(request: Request) -> bool:
    return request.app.state.login.valid(request.cookies.get(COOKIE))


def api_identity(request: Request, credentials) -> str | None:
    """'key:<id>' or 'viewer' for an authorised caller, None otherwise."""
    from tuner.apikeys import verify_key

    if credentials is not None:
        key = verify_key(request.app.state.store, credentials.credentials)
        return f"key:{key.id}" if key else None
    if request.headers.get("authorization"):
        return None  # a malformed Authorization header is not silently replaced by the cookie
    return "viewer" if viewer_session(request) else None
