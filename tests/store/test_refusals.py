"""A store this tuner refuses is left exactly as it was: a newer schema is not switched to WAL (or
touched in any other way) before the refusal."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from tuner.errors import StoreError
from tuner.store import Store


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_newer_schema_store_is_refused_untouched(tmp_path):
    path = tmp_path / "tuner.db"
    Store.open(f"sqlite:///{path}").close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE tuner_meta SET value = '999' WHERE key = 'schema_version'")
    conn.execute("PRAGMA journal_mode=DELETE")  # as a newer tuner (or another tool) might leave it
    conn.close()
    before = _digest(path)
    with pytest.raises(StoreError, match="newer"):
        Store.open(f"sqlite:///{path}")
    assert _digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tuner.db"]  # no -wal, -shm or -journal left
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()


def test_an_accepted_store_is_in_wal_mode(tmp_path):
    path = tmp_path / "tuner.db"
    Store.open(f"sqlite:///{path}").close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    # ...and one left in another mode by someone else is switched back when this tuner opens it.
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    Store.open(f"sqlite:///{path}").close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_a_file_that_is_not_a_store_is_refused_untouched(tmp_path):
    path = tmp_path / "tuner.db"
    path.write_bytes(b"these bytes are not a SQLite database\n" * 200)
    before = _digest(path)
    with pytest.raises(StoreError, match="not a database"):
        Store.open(f"sqlite:///{path}")
    assert _digest(path) == before and sorted(p.name for p in tmp_path.iterdir()) == ["tuner.db"]
