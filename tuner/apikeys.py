"""Keys for the export API.

A key is ``tk_<id>_<secret>``: the id is public (shown in lists, used to revoke), the secret is
``secrets.token_urlsafe`` and is shown once, at creation. The store keeps only the SHA-256 of the
whole key; checking a presented key finds the row by its id and compares hashes in constant time
(``hmac.compare_digest``), so neither the key nor a timing difference on it leaves the server.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import datetime, timezone

from pydantic import BaseModel
from sqlalchemy import select

from tuner.errors import InputError, NotFoundError
from tuner.store.schema import ApiKeyRow

__all__ = ["ApiKey", "NewKey", "create_key", "key_active", "list_keys", "revoke_key", "verify_key"]

_FORMAT = re.compile(r"^tk_([0-9a-f]{12})_([A-Za-z0-9_-]{20,100})$")
_ID = re.compile(r"^[0-9a-f]{4,12}$")


class ApiKey(BaseModel):
    id: str
    name: str
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class NewKey(BaseModel):
    key: ApiKey
    secret: str  # the full key: shown once, never stored


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def _record(row: ApiKeyRow) -> ApiKey:
    return ApiKey(id=row.id, name=row.name, created_at=row.created_at, revoked_at=row.revoked_at)


def create_key(store, name: str) -> NewKey:
    name = name.strip()
    if not name or len(name) > 200:
        raise InputError(f"key name {name!r}: give a short description of what the key is for (1-200 characters)")
    key_id = secrets.token_hex(6)
    secret = f"tk_{key_id}_{secrets.token_urlsafe(32)}"
    with store.session() as s:
        row = ApiKeyRow(id=key_id, name=name, key_hash=_hash(secret), created_at=_now())
        s.add(row)
        s.flush()
        return NewKey(key=_record(row), secret=secret)


def list_keys(store) -> list[ApiKey]:
    with store.reading() as s:
        return [_record(r) for r in s.execute(select(ApiKeyRow).order_by(ApiKeyRow.created_at)).scalars()]


def revoke_key(store, key_id: str) -> ApiKey:
    """Revoke by id (or a unique prefix of it); revoking a revoked key keeps its first date."""
    if not _ID.match(key_id):
        raise InputError(f"key id {key_id!r}: expected the hex id `tuner keys list` shows")
    with store.session() as s:
        rows = s.execute(select(ApiKeyRow).where(ApiKeyRow.id.startswith(key_id))).scalars().all()
        if not rows:
            raise NotFoundError(f"unknown key id '{key_id}' (see `tuner keys list`)")
        if len(rows) > 1:
            raise InputError(f"key id prefix '{key_id}' is ambiguous; give the whole id")
        row = rows[0]
        if row.revoked_at is None:
            row.revoked_at = _now()
        return _record(row)


def verify_key(store, presented: str | None) -> ApiKey | None:
    """The active key ``presented`` is, or None (missing, malformed, unknown, wrong or revoked)."""
    m = _FORMAT.match(presented or "")
    if not m:
        return None
    with store.reading() as s:
        row = s.get(ApiKeyRow, m.group(1))
        # Compare even when the id is unknown, so that case takes the same time as a wrong secret.
        stored = row.key_hash if row is not None else "0" * 64
        if not hmac.compare_digest(stored, _hash(presented)) or row is None or row.revoked_at is not None:
            return None
        return _record(row)


def key_active(store, key_id: str) -> bool:
    """Whether the key ``key_id`` exists and is not revoked (the check a key's browser sessions make
    on every request)."""
    with store.reading() as s:
        row = s.get(ApiKeyRow, key_id)
        return row is not None and row.revoked_at is None
