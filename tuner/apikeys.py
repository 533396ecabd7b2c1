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

from tuner.errors import InputError
from tuner.store import keys as stored
from tuner.store.keys import KeyRecord as ApiKey

__all__ = ["ApiKey", "NewKey", "create_key", "key_active", "list_keys", "revoke_key", "verify_key"]

_FORMAT = re.compile(r"^tk_([0-9a-f]{12})_([A-Za-z0-9_-]{20,100})$")
_ID = re.compile(r"^[0-9a-f]{4,12}$")


class NewKey(BaseModel):
    key: ApiKey
    secret: str  # the full key: shown once, never stored


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def create_key(store, name: str) -> NewKey:
    name = name.strip()
    if not name or len(name) > 200:
        raise InputError(f"key name {name!r}: give a short description of what the key is for (1-200 characters)")
    key_id = secrets.token_hex(6)
    secret = f"tk_{key_id}_{secrets.token_urlsafe(32)}"
    return NewKey(key=stored.insert_key(store, key_id, name, _hash(secret), _now()), secret=secret)


def list_keys(store) -> list[ApiKey]:
    return stored.list_keys(store)


def revoke_key(store, key_id: str) -> ApiKey:
    """Revoke by id (or a unique prefix of it); revoking a revoked key keeps its first date."""
    if not _ID.match(key_id):
        raise InputError(f"key id {key_id!r}: expected the hex id `tuner keys list` shows")
    return stored.revoke_key(store, key_id, _now())


def verify_key(store, presented: str | None) -> ApiKey | None:
    """The active key ``presented`` is, or None (missing, malformed, unknown, wrong or revoked)."""
    m = _FORMAT.match(presented or "")
    if not m:
        return None
    found = stored.key_hash(store, m.group(1))
    # Compare even when the id is unknown, so that case takes the same time as a wrong secret.
    expected = found[1] if found is not None else "0" * 64
    if not hmac.compare_digest(expected, _hash(presented)) or found is None or not found[0].active:
        return None
    return found[0]


def key_active(store, key_id: str) -> bool:
    """Whether the key ``key_id`` exists and is not revoked (the check a key's browser sessions make
    on every request)."""
    found = stored.key_hash(store, key_id)
    return found is not None and found[0].active
