"""Reads take no write lock: a viewer page or an export that reads for a long time must not hold up
a run or a tune that records results meanwhile (every session used to begin IMMEDIATE)."""

from __future__ import annotations

import sqlite3
import threading
import time
from types import SimpleNamespace

import pytest
from sqlalchemy import event

from tuner.store import ResultRecord, RunSpec, Store

_SLOW_READ_S = 2.0


def _spec() -> RunSpec:
    return RunSpec(
        prompt_hash="sha256:p",
        set_name="all-active",
        model="sim/careful",
        model_key="sha256:m",
        params={},
        suite="python",
        suite_hash="sha256:s",
        grader_hash="sha256:g",
        eval_ids=["001-text/001-a"],
        samples=1,
    )


@pytest.fixture
def filled(tmp_path):
    path = tmp_path / "tuner.db"
    store = Store.open(f"sqlite:///{path}")
    store.save_prompt(
        SimpleNamespace(
            hash="sha256:p", set_name="all-active", template="default", rules=[], tokens=1, text="the system prompt"
        )
    )
    run = store.start_run(_spec())
    store.record_result(
        run.id,
        ResultRecord(
            eval_id="001-text/001-a",
            category="text",
            sample_index=0,
            outcome="pass",
            output="answer",
            response_key="sha256:" + "ab" * 32,
            messages=[{"role": "user", "content": "hi"}],
        ),
    )
    yield store, path, run
    store.close()


def _writer_wait(path, started: threading.Event) -> float:
    """Seconds a plain writer on another connection waits for the write lock while the read runs."""
    started.wait(10)
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        t0 = time.monotonic()
        conn.execute("BEGIN IMMEDIATE")
        waited = time.monotonic() - t0
        conn.execute("UPDATE runs SET status = 'running'")
        conn.execute("COMMIT")
        return waited
    finally:
        conn.close()


@pytest.mark.parametrize(
    "read", ["results", "runs", "run", "sessions", "export", "viewer", "check", "usage", "api-key"]
)
def test_a_long_read_does_not_block_a_writer(filled, read):
    store, path, run = filled
    started = threading.Event()
    reader = threading.current_thread()

    # Every SELECT this thread sends takes _SLOW_READ_S: the read's transaction stays open that long.
    @event.listens_for(store.engine, "before_cursor_execute")
    def _slow(conn, cursor, statement, *args):
        if threading.current_thread() is reader and statement.lstrip().upper().startswith("SELECT"):
            started.set()
            time.sleep(_SLOW_READ_S)

    waits: list[float] = []
    writer = threading.Thread(target=lambda: waits.append(_writer_wait(path, started)))
    writer.start()
    from tuner.apikeys import verify_key
    from tuner.runs.usage import run_usage
    from tuner.sessions import export_sessions, list_sessions, session_filter
    from tuner.store.integrity import check_store
    from tuner.web.data import category_results

    calls = {
        "results": lambda: store.results(run.id),
        "runs": lambda: store.runs(),
        "run": lambda: store.run(run.id[:19]),
        "sessions": lambda: list_sessions(store),
        "export": lambda: export_sessions(store, "text", session_filter(ready=False)),
        "viewer": lambda: category_results(store, run.id, "text"),
        "check": lambda: check_store(store),
        "usage": lambda: run_usage(store, [run.id]),
        "api-key": lambda: verify_key(store, "tk_0123456789ab_" + "x" * 30),
    }
    calls[read]()
    event.remove(store.engine, "before_cursor_execute", _slow)
    writer.join(60)
    [waited] = waits
    assert waited < 0.5, f"{read}: the writer waited {waited:.2f}s for a read"


def test_writes_still_take_the_lock_up_front(filled):
    store, _, run = filled
    seen: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda c, cur, st, *a: seen.append(st.strip()))
    store.finish_run(run.id, "complete", {})
    assert seen[0] == "BEGIN IMMEDIATE"
    seen.clear()
    store.results(run.id)
    assert seen[0] == "BEGIN"


def test_a_read_session_that_changes_a_record_is_refused_and_changes_nothing(filled):
    from tuner.errors import StoreError
    from tuner.store.schema import RunRow

    store, _, run = filled
    with pytest.raises(StoreError, match="read session"):
        with store.reading() as s:
            s.get(RunRow, run.id).status = "broken"
    assert store.run(run.id).status == "running"


def test_rows_read_stay_usable_after_the_read_session(filled):
    from tuner.store.schema import RunRow

    store, _, run = filled
    with store.reading() as s:
        row = s.get(RunRow, run.id)
    assert row.status == "running" and row.id == run.id  # not expired, as after a write session
