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
     key created while the server runs works at once).
- A session opened with a key remembers it, and so do the links it mints and the sessions those
  open: every request checks the key is still unrevoked, so revoking it ends them all at once.
- Nothing lasts forever: a session ends after ``idle`` seconds without a request or ``lifetime``
  seconds after it was opened, whichever comes first, or when its browser logs out; an unused
  login link lapses after ``link_ttl`` seconds.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import Request
from fastapi.security import HTTPBearer

__all__ = ["COOKIE", "Login", "Session", "bearer", "api_identity", "viewer_session", "current_session"]

COOKIE = "tuner_viewer"
bearer = HTTPBearer(auto_error=False)

HOUR = 3600.0


def _digest(secret: str) -> str:
    # Tokens and session ids are looked up by their SHA-256: a dictionary lookup then reveals, by its
    # timing, at most something about a hash, never about the secret (what compare_digest guarded).
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Session:
    """A logged-in browser: the API key that opened it (None for a printed or minted link that no
    key stands behind) and its times on the server's monotonic clock."""

    key_id: str | None
    opened: float
    seen: float


@dataclass
class _Token:
    key_id: str | None
    minted: float


class Login:
    """The one-time login tokens (the one `tuner serve` printed, and any minted since) and the
    viewer sessions they opened; both expire (see the module docstring)."""

    def __init__(
        self,
        token: str | None = None,
        *,
        idle: float = 12 * HOUR,
        lifetime: float = 7 * 24 * HOUR,
        link_ttl: float = HOUR,
        clock: Callable[[], float] = time.monotonic,
    ):
        if min(idle, lifetime, link_ttl) <= 0:
            raise ValueError("session and link lifetimes must be positive")
        self.idle, self.lifetime, self.link_ttl = idle, lifetime, link_ttl
        self._clock = clock
        self.token = token or secrets.token_urlsafe(32)
        self._tokens: dict[str, _Token] = {_digest(self.token): _Token(None, clock())}
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def new_token(self, key_id: str | None = None) -> str:
        """Another one-time token (for a second browser), spent on its first use like the first;
        ``key_id``: the key behind the session that asked, which the new session inherits."""
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._prune()
            self._tokens[_digest(token)] = _Token(key_id, self._clock())
        return token

    def redeem(self, presented: str) -> str | None:
        """A new session id if ``presented`` is an unspent, unexpired token, else None."""
        with self._lock:
            self._prune()
            found = self._tokens.pop(_digest(presented), None)
            return None if found is None else self._open(found.key_id)

    def open_session(self, key_id: str | None = None) -> str:
        """A session for a caller proven some other way (``key_id``: the API key it showed)."""
        with self._lock:
            self._prune()
            return self._open(key_id)

    def _open(self, key_id: str | None) -> str:
        session = secrets.token_urlsafe(32)
        now = self._clock()
        self._sessions[_digest(session)] = Session(key_id, now, now)
        return session

    def session(self, session: str | None) -> Session | None:
        """The live session ``session`` names (its idle time restarts), or None: unknown, expired
        or ended."""
        if not session:
            return None
        with self._lock:
            digest = _digest(session)
            found = self._sessions.get(digest)
            if found is None:
                return None
            now = self._clock()
            if self._expired(found, now):
                del self._sessions[digest]
                return None
            found.seen = now
            return found

    def valid(self, session: str | None) -> bool:
        return self.session(session) is not None

    def end(self, session: str | None) -> None:
        """Log out: the session is forgotten (a no-op for an unknown one)."""
        if session:
            with self._lock:
                self._sessions.pop(_digest(session), None)

    def end_key(self, key_id: str) -> int:
        """Forget every session and unspent link that ``key_id`` stands behind; how many sessions."""
        with self._lock:
            gone = [d for d, s in self._sessions.items() if s.key_id == key_id]
            for d in gone:
                del self._sessions[d]
            for d in [d for d, t in self._tokens.items() if t.key_id == key_id]:
                del self._tokens[d]
            return len(gone)

    def _expired(self, s: Session, now: float) -> bool:
        return now - s.seen >= self.idle or now - s.opened >= self.lifetime

    def _prune(self) -> None:
        # Called under the lock whenever something is added: memory stays bounded by what is live.
        now = self._clock()
        for d in [d for d, s in self._sessions.items() if self._expired(s, now)]:
            del self._sessions[d]
        for d in [d for d, t in self._tokens.items() if now - t.minted >= self.link_ttl]:
            del self._tokens[d]


def current_session(request: Request, session_id: str | None = None) -> Session | None:
    """The request's live viewer session (or that of ``session_id``), or None. One opened with an API
    key lives only while the key does: the store is asked on every request, so `tuner keys revoke`
    (another process) ends it."""
    login: Login = request.app.state.login
    session = login.session(session_id if session_id is not None else request.cookies.get(COOKIE))
    if session is None or session.key_id is None:
        return session
    from tuner.apikeys import key_active

    if key_active(request.app.state.store, session.key_id):
        return session
    login.end_key(session.key_id)
    return None


def viewer_session(request: Request) -> bool:
    return current_session(request) is not None


def api_identity(request: Request, credentials) -> str | None:
    """'key:<id>' or 'viewer' for an authorised caller, None otherwise."""
    from tuner.apikeys import verify_key

    if credentials is not None:
        key = verify_key(request.app.state.store, credentials.credentials)
        return f"key:{key.id}" if key else None
    if request.headers.get("authorization"):
        return None  # a malformed Authorization header is not silently replaced by the cookie
    return "viewer" if viewer_session(request) else None
