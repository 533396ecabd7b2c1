"""The results store.

Contract (every backend: SQLite by default, PostgreSQL to scale out; tested once against both):

- ``Store.open(url)`` creates the database schema if absent, migrates an older one, refuses a newer
  one (``StoreError``) and never drops data.
- Prompts are stored once per text hash; saving the same prompt again is a no-op.
- A run is addressed by its content hash (``RunSpec.id``). Starting a run that exists returns it
  unchanged apart from status, so re-running a configuration resumes it and loses nothing.
- ``record_result`` upserts by (run, eval, sample index). A recorded model outcome (pass/fail) is
  never replaced by an infrastructure failure; an infra outcome is replaced by any later outcome.
  The result and its steps are written in one transaction: nothing half-written.
- Reads return plain pydantic records (``tuner.store.records``), detached from any session. They
  run in read sessions (``Store.reading``) that take no write lock: on SQLite a long read (a viewer
  page, an export, ``store check``) never makes a writer wait.
- Secrets never reach the store: callers pass model parameters without API keys (``ModelSpec``
  refuses them) and the store rejects any params key that looks like a credential.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, event, select, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, selectinload, sessionmaker

from tuner.errors import InputError, NotFoundError, StoreError
from tuner.store.looks import _LooksMixin
from tuner.store.migrations import migrate
from tuner.store.points import _PointsMixin
from tuner.store.records import LabelRecord, ResultRecord, RunRecord, RunSpec
from tuner.store.schema import ExperimentRow, ExperimentRunRow, LabelRow, PromptRow, ResultRow, RunRow, StepRow

__all__ = ["Store"]


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    # Foreign keys for cascades. Nothing here writes to the file: a store refused below (not a
    # store, a newer schema) must be left exactly as it was; WAL is switched on after (_use_wal).
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()
    dbapi_conn.isolation_level = None  # transactions are begun by _sqlite_begin


_READ = "tuner_read_only"  # execution option of the engine that read sessions use


def _sqlite_begin(conn) -> None:
    # pysqlite opens transactions lazily and treats SAVEPOINT as the start of one: RELEASE then
    # committed the bare result row of _insert_once on its own, and a kill before the outer commit
    # left a "fail" without output, steps or grade that every resume kept (found by SIGKILL tests).
    # SQLAlchemy's documented remedy: the driver in autocommit, and BEGIN emitted here.
    # IMMEDIATE, not deferred: a deferred transaction that reads, then writes after another
    # connection committed (Optuna's heartbeat thread in the same file) fails at once with
    # "database is locked" (its WAL snapshot is stale; busy_timeout does not apply). Taking the
    # write lock up front makes such writers wait their turn instead. Write sessions are short and
    # never nested, so serialising them costs little.
    # Read sessions (``Store.reading``) begin deferred: in WAL a reader takes no lock a writer
    # waits for, so a long viewer page or export no longer holds up a running tune.
    conn.exec_driver_sql("BEGIN" if conn.get_execution_options().get(_READ) else "BEGIN IMMEDIATE")


def _use_wal(engine: Engine) -> None:
    """WAL lets a reader (the viewer, `runs show`) work while a run writes. The mode is stored in
    the file, so it is set once, on a store this tuner has accepted."""
    raw = engine.raw_connection()
    try:
        cur = raw.cursor()
        if str(cur.execute("PRAGMA journal_mode").fetchone()[0]).lower() not in ("wal", "memory"):
            cur.execute("PRAGMA journal_mode=WAL")
        cur.close()
    finally:
        raw.close()


def _insert_once(s: Session, row) -> bool:
    """Insert ``row`` unless a concurrent writer already did (then False; the session stays usable)."""
    try:
        with s.begin_nested():
            s.add(row)
            s.flush()
        return True
    except IntegrityError:
        return False


class Store(_PointsMixin, _LooksMixin):
    def __init__(self, engine: Engine, url: str):
        self.engine = engine
        self.url = url
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        # Same pool and events, flagged so that _sqlite_begin opens a deferred transaction.
        self._readers = sessionmaker(engine.execution_options(**{_READ: True}), expire_on_commit=False)

    @classmethod
    def open(cls, url: str, *, create: bool = True) -> Store:
        """The store at ``url``. ``create=False`` (read-only commands) refuses a SQLite file that
        does not exist instead of creating it and its folder."""
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise InputError(f"--db {url!r}: not a SQLAlchemy database URL") from None
        safe = parsed.render_as_string(hide_password=True)
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            if Path(parsed.database).is_dir():
                raise InputError(
                    f"--db {safe}: {parsed.database} is a folder, not a store file "
                    f"(e.g. sqlite:///{Path(parsed.database) / 'tuner.db'})"
                )
            if not create and not Path(parsed.database).is_file():
                raise NotFoundError(f"no store at {parsed.database} (nothing has been recorded yet)")
            if create:
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        try:
            engine = create_engine(parsed, pool_pre_ping=True)
        except (ArgumentError, ImportError) as exc:
            raise InputError(f"--db {safe}: {exc}") from None
        if parsed.get_backend_name() == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
            event.listen(engine, "begin", _sqlite_begin)
        try:
            cls._migrate(engine, safe)
            if parsed.get_backend_name() == "sqlite":
                _use_wal(engine)
        except DatabaseError as exc:  # OperationalError included; "file is not a database" is not one
            engine.dispose()
            reason = str(exc.orig).strip().splitlines()[0] if str(exc.orig).strip() else type(exc.orig).__name__
            raise StoreError(f"{safe}: cannot open the store: {reason}") from None
        except StoreError:
            engine.dispose()
            raise
        return cls(engine, safe)

    @staticmethod
    def _migrate(engine: Engine, safe: str) -> None:
        # Several workers may open a new store at once. PostgreSQL serialises the migration with a
        # transaction-scoped advisory lock; elsewhere the loser of a creation race simply retries
        # and then finds the schema in place.
        for attempt in range(3):
            try:
                with engine.begin() as conn:
                    if engine.dialect.name == "postgresql":
                        conn.execute(text("SELECT pg_advisory_xact_lock(7312026)"))
                    migrate(conn, safe)
                return
            except (IntegrityError, OperationalError) as exc:
                if attempt == 2 or "already exists" not in str(exc) and not isinstance(exc, IntegrityError):
                    raise

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self._sessions() as session:
            try:
                yield session
                session.commit()
            except SQLAlchemyError:
                session.rollback()
                raise

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session for reads only: it takes no write lock, and anything it changes is discarded
        (a read path that starts writing must move to ``session``, not write here by accident)."""
        with self._readers() as session:
            try:
                yield session
                if session.new or session.dirty or session.deleted:
                    raise StoreError("internal: a read session changed records; use Store.session() to write")
                # Ends the read transaction. Not a rollback: that would expire the rows read, and a
                # caller may still use them after the block (as after a write session).
                session.commit()
            except BaseException:
                session.rollback()
                raise

    def close(self) -> None:
        self.engine.dispose()

    # prompts -----------------------------------------------------------------------------------
    def save_prompt(self, prompt) -> None:
        with self.session() as s:
            if s.get(PromptRow, prompt.hash) is None:
                row = PromptRow(
                    hash=prompt.hash,
                    set_name=prompt.set_name,
                    template=prompt.template,
                    rules=[[r.id, r.variant, r.hash] for r in prompt.rules],
                    tokens=prompt.tokens,
                    text=prompt.text,
                )
                _insert_once(s, row)

    def chat_messages(self, result: ResultRecord) -> list[dict] | None:
        """The exact messages ``result`` was generated from (None when the store did not record them)."""
        if result.messages is None:
            return None
        out = []
        for m in result.messages:
            if m.get("role") == "system" and "prompt_hash" in m:
                out.append({"role": "system", "content": self.prompt_text(m["prompt_hash"])})
            else:
                out.append(dict(m))
        return out

    def prompt_text(self, prompt_hash: str) -> str:
        with self.reading() as s:
            row = s.get(PromptRow, prompt_hash)
            if row is None:
                raise NotFoundError(f"unknown prompt {prompt_hash}")
            return row.text

    # experiments -------------------------------------------------------------------------------
    def save_experiment(
        self, exp_id: str, name: str, kind: str, config: dict, result: dict | None = None, *, status: str = "finished"
    ) -> None:
        """Record (or update) an experiment; with ``result`` given it is stored with ``status``."""
        with self.session() as s:
            row = s.get(ExperimentRow, exp_id)
            if row is None:
                s.add(ExperimentRow(id=exp_id, name=name, kind=kind, config=config, result=result, status=status))
            else:
                row.status = status
                if result is not None:
                    row.result = result

    def start_experiment(self, exp_id: str, name: str, kind: str, config: dict) -> None:
        """Record an experiment as running (resuming one keeps its result until it finishes again)."""
        self.save_experiment(exp_id, name, kind, config, status="running")

    def finish_experiment(self, exp_id: str, status: str, result: dict | None = None) -> None:
        with self.session() as s:
            row = s.get(ExperimentRow, exp_id)
            if row is None:
                raise NotFoundError(f"unknown experiment {exp_id}")
            row.status = status
            if result is not None:
                row.result = result

    def link_runs(self, exp_id: str, run_ids: Iterable[str], role: str) -> None:
        """Say that ``exp_id`` made or read these runs as ``role`` (idempotent)."""
        ids = list(dict.fromkeys(run_ids))
        if not ids:
            return
        with self.session() as s:
            have = set(
                s.scalars(
                    select(ExperimentRunRow.run_id).where(
                        ExperimentRunRow.experiment_id == exp_id,
                        ExperimentRunRow.role == role,
                        ExperimentRunRow.run_id.in_(ids),
                    )
                )
            )
            for run_id in ids:
                if run_id not in have:
                    _insert_once(s, ExperimentRunRow(experiment_id=exp_id, run_id=run_id, role=role))

    def experiment_runs(self, exp_id: str) -> list[tuple[str, str]]:
        """``[(run_id, role), ...]`` linked to ``exp_id``, in a stable order."""
        with self.reading() as s:
            rows = s.execute(
                select(ExperimentRunRow.run_id, ExperimentRunRow.role)
                .where(ExperimentRunRow.experiment_id == exp_id)
                .order_by(ExperimentRunRow.role, ExperimentRunRow.run_id)
            )
            return [(r, role) for r, role in rows]

    @staticmethod
    def _experiment_dict(row) -> dict:
        return {
            "id": row.id,
            "name": row.name,
            "kind": row.kind,
            "config": row.config,
            "result": row.result,
            "status": row.status or "finished",
            "created_at": row.created_at,
            "updated_at": row.updated_at or row.created_at,
        }

    def experiment(self, exp_id: str) -> dict | None:
        with self.reading() as s:
            row = s.get(ExperimentRow, exp_id)
            return None if row is None else self._experiment_dict(row)

    def experiments(
        self, kind: str | None = None, *, status: str | None = None, limit: int | None = None
    ) -> list[dict]:
        """Experiments, most recently written first; ``status`` "finished" includes v3 rows (null)."""
        with self.reading() as s:
            q = select(ExperimentRow)
            if kind is not None:
                q = q.where(ExperimentRow.kind == kind)
            if status == "finished":
                q = q.where((ExperimentRow.status == "finished") | ExperimentRow.status.is_(None))
            elif status is not None:
                q = q.where(ExperimentRow.status == status)
            rows = [self._experiment_dict(r) for r in s.scalars(q)]
        rows.sort(key=lambda e: (e["updated_at"], e["created_at"]), reverse=True)
        return rows[:limit] if limit is not None else rows

    # runs --------------------------------------------------------------------------------------
    def start_run(self, spec: RunSpec) -> RunRecord:
        from tuner.secrets import secret_params

        bad = secret_params(spec.params)
        if bad:
            raise InputError(
                f"model parameter '{bad[0]}' looks like a credential; pass secrets through the environment"
            )
        with self.session() as s:
            row = s.get(RunRow, spec.id)
            if row is None and _insert_once(s, RunRow(**spec.model_dump(exclude={"id"}), id=spec.id, status="running")):
                row = s.get(RunRow, spec.id)
            else:
                row = row or s.get(RunRow, spec.id)
                row.status = "running"
            s.flush()
            return RunRecord.from_row(row)

    def finish_run(self, run_id: str, status: str, summary: dict) -> None:
        with self.session() as s:
            row = s.get(RunRow, run_id)
            if row is None:
                raise NotFoundError(f"unknown run {run_id}")
            row.status, row.summary = status, summary

    def record_result(self, run_id: str, result: ResultRecord) -> None:
        self.record_results(run_id, [result])

    def record_results(self, run_id: str, results: Iterable[ResultRecord]) -> None:
        with self.session() as s:
            for result in results:
                self._upsert_result(s, run_id, result)

    def _upsert_result(self, s: Session, run_id: str, result: ResultRecord) -> None:
        row = s.execute(
            select(ResultRow).where(
                ResultRow.run_id == run_id,
                ResultRow.eval_id == result.eval_id,
                ResultRow.sample_index == result.sample_index,
            )
        ).scalar_one_or_none()
        if row is not None and result.outcome == "infra" and row.outcome != "infra":
            return  # keep what the model really did; an outage later says nothing about it
        if row is None:
            fresh = ResultRow(
                run_id=run_id,
                eval_id=result.eval_id,
                sample_index=result.sample_index,
                category=result.category,
                outcome=result.outcome,
            )
            if not _insert_once(s, fresh):
                # Another worker recorded the same sample of the same run a moment ago.
                return self._upsert_result(s, run_id, result)
            row = fresh
        # Updated in place, so labels a person put on this result survive a re-grade.
        for field, value in result.model_dump(exclude={"id", "steps"}).items():
            setattr(row, field, value)
        row.steps = [StepRow(position=i, **st.model_dump()) for i, st in enumerate(result.steps)]

    def run(self, run_id_or_prefix: str) -> RunRecord:
        with self.reading() as s:
            rows = s.execute(select(RunRow).where(RunRow.id.startswith(self._full(run_id_or_prefix)))).scalars().all()
            if not rows:
                raise NotFoundError(f"unknown run '{run_id_or_prefix}'")
            if len(rows) > 1:
                raise InputError(f"run prefix '{run_id_or_prefix}' is ambiguous ({len(rows)} runs); give more digits")
            return RunRecord.from_row(rows[0])

    @staticmethod
    def _full(prefix: str) -> str:
        return prefix if prefix.startswith("sha256:") else "sha256:" + prefix

    def runs(
        self, *, model: str | None = None, suite_hash: str | None = None, limit: int | None = None
    ) -> list[RunRecord]:
        with self.reading() as s:
            q = select(RunRow).order_by(RunRow.updated_at.desc())
            if model:
                q = q.where(RunRow.model == model)
            if suite_hash:
                q = q.where(RunRow.suite_hash == suite_hash)
            if limit:
                q = q.limit(limit)
            return [RunRecord.from_row(r) for r in s.execute(q).scalars()]

    def results(self, run_id: str) -> list[ResultRecord]:
        with self.reading() as s:
            rows = s.execute(
                select(ResultRow)
                .where(ResultRow.run_id == run_id)
                .options(selectinload(ResultRow.steps))
                .order_by(ResultRow.eval_id, ResultRow.sample_index)
            ).scalars()
            return [ResultRecord.from_row(r) for r in rows]

    # labels ------------------------------------------------------------------------------------
    def add_label(self, result_id: int, label: str, note: str = "", author: str = "") -> LabelRecord:
        with self.session() as s:
            if s.get(ResultRow, result_id) is None:
                raise NotFoundError(f"unknown result id {result_id}")
            row = LabelRow(result_id=result_id, label=label, note=note, author=author)
            s.add(row)
            s.flush()
            return LabelRecord.model_validate(row, from_attributes=True)

    def labels(self, result_id: int) -> list[LabelRecord]:
        with self.reading() as s:
            rows = s.execute(select(LabelRow).where(LabelRow.result_id == result_id).order_by(LabelRow.id)).scalars()
            return [LabelRecord.model_validate(r, from_attributes=True) for r in rows]
