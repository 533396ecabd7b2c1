"""Keys of the export API as the store keeps them (``tuner.apikeys`` makes and checks them).

Contract: only a key's hash is stored, never the key. ``insert_key`` records a new key;
``list_keys`` returns every key, oldest first; ``revoke_key`` revokes the one key an id or a unique
prefix of one names (unknown: ``NotFoundError``; ambiguous: ``InputError``), and revoking a revoked
key keeps its first date; ``key_hash`` returns a key's record and stored hash, or None.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel
from sqlalchemy import select

from tuner.errors import InputError, NotFoundError
from tuner.store.schema import ApiKeyRow

__all__ = ["KeyRecord", "insert_key", "list_keys", "revoke_key", "key_hash"]


class KeyRecord(BaseModel):
    """A key's public part (its id and what it is for) and its dates."""

    id: str
    name: str
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


def _record(row: ApiKeyRow) -> KeyRecord:
    return KeyRecord(id=row.id, name=row.name, created_at=row.created_at, revoked_at=row.revoked_at)


def insert_key(store, key_id: str, name: str, hashed: str, created_at: datetime) -> KeyRecord:
    with store.session() as s:
        row = ApiKeyRow(id=key_id, name=name, key_hash=hashed, created_at=created_at)
        s.add(row)
        s.flush()
        return _record(row)


def list_keys(store) -> list[KeyRecord]:
    with store.reading() as s:
        return [_record(r) for r in s.execute(select(ApiKeyRow).order_by(ApiKeyRow.created_at)).scalars()]


def revoke_key(store, key_id: str, when: datetime) -> KeyRecord:
    """Revoke the key ``key_id`` (or a unique prefix of it) as of ``when``."""
    with store.session() as s:
        rows = s.execute(select(ApiKeyRow).where(ApiKeyRow.id.startswith(key_id))).scalars().all()
        if not rows:
            raise NotFoundError(f"unknown key id '{key_id}' (see `tuner keys list`)")
        if len(rows) > 1:
            raise InputError(f"key id prefix '{key_id}' is ambiguous; give the whole id")
        row = rows[0]
        if row.revoked_at is None:
            row.revoked_at = when
        return _record(row)


def key_hash(store, key_id: str) -> tuple[KeyRecord, str] | None:
    """The key ``key_id`` (exact id) and the hash stored for it, or None."""
    with store.reading() as s:
        row = s.get(ApiKeyRow, key_id)
        return None if row is None else (_record(row), row.key_hash)
