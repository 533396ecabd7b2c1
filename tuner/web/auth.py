"""Who may use the viewer and the API.

- The API (``/api/...``) takes ``Authorization: Bearer <key>`` with a key from `tuner keys create`
  (checked by ``tuner.apikeys.verify_key``), or the viewer's login cookie.
- The viewer: `tuner serve` prints a one-time login URL; opening it sets an HttpOnly, SameSite=Strict
  cookie holding a random session id kept only in this server's memory, and the token is spent.
  Label changes from the pages are JSON requests to the same API endpoints external clients use.
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
    """The one-time login token and the viewer sessions it opened."""

    def __init__(self, token: str | None = None):
        self.token = token or secrets.token_urlsafe(32)
        self._spent = False
        self._sessions: set[str] = set()
        self._lock = threading.Lock()

    def redeem(self, presented: str) -> str | None:
        """A new session id if ``presented`` is the unspent token, else None."""
        with self._lock:
            if self._spent or not hmac.compare_digest(presented.encode(), self.token.encode()):
                return None
            self._spent = True
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
