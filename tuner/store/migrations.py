"""Schema versions and how to move a store between them.

A new store is created at ``SCHEMA_VERSION``. An older store is upgraded one step at a time by the
functions in ``_STEPS`` (``_STEPS[n]`` takes a store from version n to n+1, inside one transaction).
A store written by a newer tuner is refused rather than misread.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, inspect, select, text
from sqlalchemy.schema import CreateColumn

from tuner.errors import StoreError
from tuner.store.schema import (
    SCHEMA_VERSION,
    ApiKeyRow,
    Base,
    DesignPointRow,
    ExperimentRow,
    ExperimentRunRow,
    Meta,
    ReportRow,
    ResultRow,
    RunRow,
    SessionLabelRow,
    StepRow,
)

__all__ = ["migrate", "current_version"]


def _add_columns(conn: Connection, table, names: list[str]) -> None:
    """ALTER TABLE ... ADD COLUMN for columns of the current model (same DDL as a fresh store)."""
    present = {c["name"] for c in inspect(conn).get_columns(table.name)}
    for name in names:
        if name not in present:
            ddl = CreateColumn(table.c[name]).compile(dialect=conn.dialect)
            conn.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {ddl}"))


def _v1_to_v2(conn: Connection) -> None:
    # v2 records what was sent (messages, response model, finish reason, attempts) and lint
    # warnings. Older results keep null there: what they were sent was not recorded.
    _add_columns(conn, ResultRow.__table__, ["messages", "response_model", "finish_reason", "attempts"])
    _add_columns(conn, StepRow.__table__, ["warnings"])


def _v2_to_v3(conn: Connection) -> None:
    # v3 adds tables (session reviews, reports, API keys) and indexes for browsing sessions and
    # runs by model; nothing recorded changes.
    for table in (SessionLabelRow.__table__, ReportRow.__table__, ApiKeyRow.__table__):
        table.create(conn, checkfirst=True)
    for index in (*ResultRow.__table__.indexes, *RunRow.__table__.indexes):
        index.create(conn, checkfirst=True)


def _v3_to_v4(conn: Connection) -> None:
    # v4 records experiments from their start (status, updated_at) and links them to their runs;
    # runs gain their inputs hash (answer format, simulator truth) and call settings.
    # Experiments of a v3 store were written when they finished: status stays null, read as finished.
    _add_columns(conn, ExperimentRow.__table__, ["status", "updated_at"])
    _add_columns(conn, RunRow.__table__, ["inputs_hash", "call_settings"])
    ExperimentRunRow.__table__.create(conn, checkfirst=True)


def _v4_to_v5(conn: Connection) -> None:
    # v5 stores an adaptive design's observations as points of its experiment (design_points).
    # Points recorded by v4 as one-eval runs stay runs: they are read as before and not converted,
    # so a design resumed after the upgrade buys nothing again (the response cache answers).
    DesignPointRow.__table__.create(conn, checkfirst=True)


def _v5_to_v6(conn: Connection) -> None:
    # v6 keeps an answer's reasoning and tool calls beside its text. Older results keep null there:
    # their text is what was recorded (a <think> block in it stays, and is split off when read).
    _add_columns(conn, ResultRow.__table__, ["reasoning", "tool_calls"])


def _v6_to_v7(conn: Connection) -> None:
    # v7 records the repair loop of a result (the turn it passed at, every turn). Older results
    # were one-turn answers: null there, read as the same outcome at every turn.
    _add_columns(conn, ResultRow.__table__, ["pass_turn", "turns"])


# version n -> function upgrading n to n+1.
_STEPS: dict[int, Callable[[Connection], None]] = {
    1: _v1_to_v2,
    2: _v2_to_v3,
    3: _v3_to_v4,
    4: _v4_to_v5,
    5: _v5_to_v6,
    6: _v6_to_v7,
}


def current_version(conn: Connection) -> int | None:
    if not inspect(conn).has_table(Meta.__tablename__):
        return None
    row = conn.execute(select(Meta.value).where(Meta.key == "schema_version")).scalar_one_or_none()
    return int(row) if row is not None else None


def _set_version(conn: Connection, version: int) -> None:
    table = Meta.__table__
    if conn.execute(select(Meta.key).where(Meta.key == "schema_version")).first():
        conn.execute(table.update().where(table.c.key == "schema_version").values(value=str(version)))
    else:
        conn.execute(table.insert().values(key="schema_version", value=str(version)))


def migrate(conn: Connection, url_for_errors: str, steps: dict[int, Callable[[Connection], None]] | None = None) -> int:
    """Bring the store at ``conn`` to ``SCHEMA_VERSION``; returns the version found before."""
    steps = _STEPS if steps is None else steps
    found = current_version(conn)
    if found is None:
        Base.metadata.create_all(conn)
        _set_version(conn, SCHEMA_VERSION)
        return 0
    if found > SCHEMA_VERSION:
        raise StoreError(
            f"{url_for_errors}: store schema v{found} is newer than this tuner understands (v{SCHEMA_VERSION}); upgrade tuner"
        )
    for version in range(found, SCHEMA_VERSION):
        if version not in steps:
            raise StoreError(f"{url_for_errors}: no migration from schema v{version}")
        steps[version](conn)
        _set_version(conn, version + 1)
    return found
