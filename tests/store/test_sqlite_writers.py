"""Two writers on one SQLite store: a session that reads, then writes after another connection
committed, must wait its turn, not fail with "database is locked" (seen in CI: Optuna's heartbeat
thread wrote between a results session's read and its insert)."""

from __future__ import annotations

import sqlite3
import threading

from sqlalchemy import select, text

from tuner.store import Store
from tuner.store.schema import RunRow


def test_read_then_write_while_another_connection_commits(tmp_path):
    path = tmp_path / "tuner.db"
    store = Store.open(f"sqlite:///{path}")
    with store.session() as s:
        s.execute(text("CREATE TABLE scratch (who TEXT)"))
    read_done, other_done = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def other_writer():
        read_done.wait(10)
        conn = sqlite3.connect(path, timeout=20)
        try:
            conn.execute("INSERT INTO scratch VALUES ('other')")
            conn.commit()
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
        finally:
            conn.close()
            other_done.set()

    thread = threading.Thread(target=other_writer)
    thread.start()
    with store.session() as s:
        s.execute(select(RunRow)).all()  # the read that opens the snapshot
        read_done.set()
        other_done.wait(1.0)  # give the other writer its chance to commit in between
        s.execute(text("INSERT INTO scratch VALUES ('store')"))
    thread.join(30)
    assert not errors
    with store.session() as s:
        assert sorted(s.execute(text("SELECT who FROM scratch")).scalars()) == ["other", "store"]
    store.close()
