"""A real v1 store (made by the v1 code: tests/fixtures/store/) migrates to v2 with nothing lost,
and ends identical in schema to a fresh v2 store, on SQLite and on PostgreSQL."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import sqlalchemy
from sqlalchemy import inspect, text

from tuner.store import SCHEMA_VERSION, Store

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "store"


def _v1_sqlite(tmp_path: Path) -> str:
    path = tmp_path / "v1.db"
    shutil.copy(FIXTURES / "v1.sqlite", path)
    return f"sqlite:///{path}"


def _v1_postgres(pg_url: str) -> str:
    schema = re.search(r"search_path%3D(\w+)", pg_url).group(1)
    dump = (FIXTURES / "v1.postgres.sql").read_text().replace("v1fixture", schema)
    # pg_dump's session settings and schema creation: the test's schema already exists.
    dump = re.sub(r"^CREATE SCHEMA .*?;$", "", dump, flags=re.M)
    psql = shutil.which("psql")
    if psql is None:
        pytest.skip("psql (PostgreSQL's client) is needed to load the v1 dump")
    url = sqlalchemy.engine.make_url(pg_url.split("?")[0])
    # pg_dump writes COPY ... FROM stdin: only psql loads that.
    done = subprocess.run(
        [
            psql,
            "-h",
            url.host,
            "-p",
            str(url.port or 5432),
            "-U",
            url.username,
            "-d",
            url.database,
            "-v",
            "ON_ERROR_STOP=1",
            "-q",
        ],
        input=dump,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return pg_url


def _fresh(kind: str, tmp_path: Path, request) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'fresh.db'}"
    return request.getfixturevalue("pg_url_2")


def _url(kind: str, tmp_path: Path, request, name: str) -> str:
    return f"sqlite:///{tmp_path / name}" if kind == "sqlite" else request.getfixturevalue("pg_url")


def _same_schema_as_fresh(url: str, kind: str, tmp_path: Path, request) -> None:
    fresh = _fresh(kind, tmp_path, request)
    Store.open(fresh).close()
    assert _schema(url) == _schema(fresh)


class _Prompt:  # a prompt as save_prompt reads it
    hash, set_name, template, rules, tokens, text = "sha256:p", "", "default", (), 1, "x"


@pytest.fixture
def pg_url_2(pg_url):
    """A second, separate PostgreSQL schema (the fresh store), dropped afterwards."""
    import uuid

    base = pg_url.split("?")[0]
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = sqlalchemy.create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    yield f"{base}?options=-csearch_path%3D{schema}"
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


def _schema(url: str) -> dict:
    engine = sqlalchemy.create_engine(url)
    insp = inspect(engine)
    out = {}
    for table in sorted(insp.get_table_names()):
        columns = {c["name"]: (str(c["type"]), c["nullable"]) for c in insp.get_columns(table)}
        indexes = sorted((i["name"], tuple(i["column_names"]), bool(i["unique"])) for i in insp.get_indexes(table))
        uniques = sorted(tuple(u["column_names"]) for u in insp.get_unique_constraints(table))
        fks = sorted((tuple(f["constrained_columns"]), f["referred_table"]) for f in insp.get_foreign_keys(table))
        out[table] = {"columns": columns, "indexes": indexes, "uniques": uniques, "fks": fks}
    engine.dispose()
    return out


def _snapshot(store: Store) -> dict:
    runs = sorted(store.runs(), key=lambda r: r.id)
    return {
        "runs": [r.model_dump(exclude={"updated_at"}) for r in runs],
        "results": {
            r.id: [
                x.model_dump(exclude={"messages", "response_model", "finish_reason", "attempts"})
                for x in store.results(r.id)
            ]
            for r in runs
        },
        "labels": {x.id: [lb.model_dump() for lb in store.labels(x.id)] for r in runs for x in store.results(r.id)},
    }


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_v1_store_migrates_with_nothing_lost(kind, tmp_path, request):
    url = _v1_sqlite(tmp_path) if kind == "sqlite" else _v1_postgres(request.getfixturevalue("pg_url"))
    engine = sqlalchemy.create_engine(url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT value FROM tuner_meta WHERE key = 'schema_version'")).scalar() == "1"
        counts = {
            t: conn.execute(text(f"SELECT count(*) FROM {t}")).scalar()
            for t in ("runs", "results", "steps", "labels", "prompts", "experiments")
        }
    engine.dispose()
    assert counts["results"] > 0 and counts["labels"] > 0

    store = Store.open(url)  # migrates
    snapshot = _snapshot(store)
    store.close()
    assert sum(len(v) for v in snapshot["results"].values()) == counts["results"]
    assert sum(len(v) for v in snapshot["labels"].values()) == counts["labels"]
    assert all(x["outcome"] in ("pass", "fail") and x["output"] for v in snapshot["results"].values() for x in v)

    reopened = Store.open(url)  # idempotent: a second open changes nothing
    assert _snapshot(reopened) == snapshot
    result = next(iter(reopened.results(reopened.runs()[0].id)))
    assert result.messages is None and reopened.chat_messages(result) is None  # v1 did not record them
    reopened.close()

    engine = sqlalchemy.create_engine(url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT value FROM tuner_meta WHERE key = 'schema_version'")).scalar() == str(
            SCHEMA_VERSION
        )
    engine.dispose()
    _same_schema_as_fresh(url, kind, tmp_path, request)


def _as_v4(url: str) -> None:
    """Turn a fresh store into what v4 wrote: no design_points table, version 4."""
    engine = sqlalchemy.create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE design_points"))
        conn.execute(text("UPDATE tuner_meta SET value = '4' WHERE key = 'schema_version'"))
    engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_v4_store_gains_design_points(kind, tmp_path, request):
    from tuner.store import PointRecord

    url = _url(kind, tmp_path, request, "v4.db")
    store = Store.open(url)
    store.save_experiment("exp-1", "ablate-adaptive-x", "ablate", {"k": 1}, status="running")
    store.close()
    _as_v4(url)
    assert "design_points" not in _schema(url)

    store = Store.open(url)  # migrates v4 -> v5
    try:
        assert [e["id"] for e in store.experiments("ablate")] == ["exp-1"]  # nothing lost

        store.save_prompt(_Prompt)
        base = dict(
            prompt_hash="sha256:p",
            model_key="m",
            model="sim/careful",
            inputs_key="i",
            eval_id="e",
            category="c",
            sample_index=0,
            dropped=["r1"],
        )
        assert store.record_points("exp-1", [PointRecord(**base, outcome="fail", response_key="k1")]) == 1
        # A later outage does not overwrite what the model did; an infra point is replaced.
        assert store.record_points("exp-1", [PointRecord(**base, outcome="infra")]) == 0
        other = {**base, "sample_index": 1}
        store.record_points("exp-1", [PointRecord(**other, outcome="infra")])
        store.record_points("exp-1", [PointRecord(**other, outcome="pass")])
        points = store.design_points("exp-1")
        assert {k[4]: p.outcome for k, p in points.items()} == {0: "fail", 1: "pass"}
        assert points[("sha256:p", "m", "i", "e", 0)].dropped == ["r1"]
    finally:
        store.close()
    engine = sqlalchemy.create_engine(url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT value FROM tuner_meta WHERE key = 'schema_version'")).scalar() == str(
            SCHEMA_VERSION
        )
    engine.dispose()
    _same_schema_as_fresh(url, kind, tmp_path, request)


def _older_run(url: str, version: int, missing: tuple[str, ...], samples: int) -> object:
    """A fresh store with one run, turned into what ``version`` wrote: ``missing`` (the results
    columns later versions added) dropped, and one result recorded as that version did."""
    from tuner.store import RunSpec

    store = Store.open(url)
    store.save_prompt(_Prompt)
    spec = RunSpec(
        prompt_hash="sha256:p",
        set_name="s",
        model="m",
        model_key="k",
        params={},
        suite="x",
        suite_hash="h",
        grader_hash="g",
        eval_ids=["e"],
        samples=samples,
    )
    run = store.start_run(spec)
    store.close()
    engine = sqlalchemy.create_engine(url)
    with engine.begin() as conn:
        for column in missing:
            conn.execute(text(f"ALTER TABLE results DROP COLUMN {column}"))
        conn.execute(text(f"UPDATE tuner_meta SET value = '{version}' WHERE key = 'schema_version'"))
        conn.execute(
            text(
                "INSERT INTO results (run_id, eval_id, category, sample_index, outcome, output, created_at) "
                "VALUES (:r, 'e', 'c', 0, :outcome, :output, CURRENT_TIMESTAMP)"
            ),
            {"r": run.id, **_OLD_RESULT[version]},
        )
    engine.dispose()
    return run


# The one result each older version recorded: v5's with its <think> block in the text, v6's one-shot.
_OLD_RESULT = {5: {"outcome": "fail", "output": "<think>hm</think>\n# Files"}, 6: {"outcome": "pass", "output": None}}


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_v5_store_gains_reasoning_and_tool_calls(kind, tmp_path, request):
    from tuner.store import ResultRecord

    url = _url(kind, tmp_path, request, "v5.db")
    run = _older_run(url, 5, ("reasoning", "tool_calls"), samples=1)
    store = Store.open(url)  # migrates v5 -> v6
    try:
        [old] = store.results(run.id)
        assert old.output == "<think>hm</think>\n# Files" and old.reasoning is None and old.tool_calls is None
        calls = [{"id": "c0", "name": "write_file", "arguments": '{"path": "app/a.py", "content": "A = 1"}'}]
        store.record_result(
            run.id,
            ResultRecord(
                eval_id="e",
                category="c",
                sample_index=1,
                outcome="pass",
                output="",
                reasoning="one file",
                tool_calls=calls,
                finish_reason="tool_calls",
            ),
        )
        new = next(r for r in store.results(run.id) if r.sample_index == 1)
        assert (new.reasoning, new.tool_calls, new.output) == ("one file", calls, "")
    finally:
        store.close()
    _same_schema_as_fresh(url, kind, tmp_path, request)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_v6_store_gains_the_repair_loop(kind, tmp_path, request):
    from tuner.runs.repair import outcome_at
    from tuner.store import ResultRecord

    url = _url(kind, tmp_path, request, "v6.db")
    run = _older_run(url, 6, ("pass_turn", "turns"), samples=2)
    store = Store.open(url)  # migrates v6 -> v7
    try:
        [old] = store.results(run.id)
        assert old.turns is None and old.pass_turn is None and outcome_at(old, 3) == "pass"
        turns = [{"turn": 1, "outcome": "fail", "feedback": "Your answer failed"}, {"turn": 2, "outcome": "pass"}]
        store.record_result(
            run.id, ResultRecord(eval_id="e", category="c", sample_index=1, outcome="pass", pass_turn=2, turns=turns)
        )
        new = next(r for r in store.results(run.id) if r.sample_index == 1)
        assert (new.pass_turn, new.turns) == (2, turns)
    finally:
        store.close()
    _same_schema_as_fresh(url, kind, tmp_path, request)
