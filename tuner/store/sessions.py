"""Sessions as the store finds them: recorded generations, by filters, a page at a time, and their reviews.

A session is one model answer the harness recorded: the exact messages sent and the answer that
came back, with its tokens, cost, model, run, eval and grading outcome. It is identified by the
result's ``response_key`` (hash of model, parameters, messages and sample index), so the same answer
recorded in several runs (a re-grade, a run of a subset) is one session, shown once through its
newest result row that holds an answer.

Contract (every backend):

- ``list_sessions``, ``iter_sessions`` and ``count_sessions`` agree on which sessions a
  ``SessionFilter`` selects; sessions come newest first. With ``run`` given, a later run recording
  the same generation does not hide it from this run's sessions.
- ``resolve_keys`` turns keys or unambiguous prefixes into full keys (unknown: ``NotFoundError``,
  ambiguous or malformed: ``InputError``).
- ``answer_parts`` returns what each result sent and got back, system prompts resolved to their text.
- Reviews are keyed by the session key, never by a result row, so a re-grade keeps them.
  ``session_labels`` gives the defaults (``SessionLabel()``) for an unreviewed session;
  ``update_labels`` changes the reviews of known sessions in one transaction, and refuses
  (``NotFoundError``, nothing written) when any key is not a recorded session.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy import Text, cast, exists, func, literal, or_, select

from tuner.errors import InputError, NotFoundError
from tuner.store.schema import PromptRow, ResultRow, RunRow, SessionLabelRow

__all__ = [
    "STATUSES",
    "OUTCOMES",
    "TAG_PATTERN",
    "SessionFilter",
    "SessionLabel",
    "Session",
    "SessionPage",
    "list_sessions",
    "count_sessions",
    "iter_sessions",
    "resolve_keys",
    "answer_parts",
    "session_labels",
    "update_labels",
]

STATUSES = ("golden", "correct", "incorrect", "needs_review")
OUTCOMES = ("pass", "fail", "infra")
# Tags are plain words: no quotes or spaces, so a tag is matched exactly inside the stored JSON list.
TAG_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")
_KEY = re.compile(r"^(sha256:)?[0-9a-f]{6,64}$")


class SessionFilter(BaseModel):
    """Which sessions: every field narrows the selection; none given means all sessions."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    run: str | None = None  # a run id or a prefix of one
    model: str | None = None  # litellm model string
    category: str | None = None
    eval: str | None = None  # eval id, e.g. 003-queries/001-paginate
    outcome: Literal["pass", "fail", "infra"] | None = None
    status: Literal["golden", "correct", "incorrect", "needs_review"] | None = None
    tag: str | None = None
    ready: bool | None = None  # eval-ready only (True), not ready (False), either (None)
    keys: tuple[str, ...] | None = None  # these sessions (full keys)

    @field_validator("tag")
    @classmethod
    def _tag(cls, v: str | None) -> str | None:
        if v is not None and not TAG_PATTERN.match(v):
            raise ValueError(f"tag {v!r} is not a tag (letters, digits, _ . : -)")
        return v


class SessionLabel(BaseModel):
    """A session's review; these defaults are what an unreviewed session has."""

    eval_ready: bool = False
    eval_status: str = "needs_review"
    eval_notes: str = ""
    eval_tags: list[str] = Field(default_factory=list)
    expected_output: str | None = None
    reviewed_at: datetime | None = None


class Session(BaseModel):
    key: str
    result_id: int
    run_id: str
    model: str
    eval_id: str
    category: str
    sample_index: int
    outcome: str
    failed_step: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None
    created_at: datetime | None = None
    label: SessionLabel = Field(default_factory=SessionLabel)

    @property
    def tokens(self) -> int | None:
        if self.prompt_tokens is None and self.completion_tokens is None:
            return None
        return (self.prompt_tokens or 0) + (self.completion_tokens or 0)

    @property
    def title(self) -> str:
        return f"{self.eval_id} · {self.model} · sample {self.sample_index}"


class SessionPage(BaseModel):
    items: list[Session]
    offset: int
    limit: int
    has_more: bool


_R = ResultRow.__table__
_RUNS = RunRow.__table__
_L = SessionLabelRow.__table__
_LABEL_COLS = ("eval_ready", "eval_status", "eval_notes", "eval_tags", "expected_output", "reviewed_at")


def _base(store, filt: SessionFilter):
    newer = _R.alias("newer")
    run_id = store.run(filt.run).id if filt.run else None
    # Newest row of each generation; a newer row that holds no answer (a provider failure of the
    # same request) does not hide one that does. Only duplicates reach the row itself.
    hiding = [newer.c.response_key == _R.c.response_key, newer.c.id > _R.c.id, newer.c.output.isnot(None)]
    if run_id is not None:
        # Among the rows of the run asked for: a later run (a re-grade, a subset) recording the same
        # generation again must not hide it from this run's sessions.
        hiding.append(newer.c.run_id == run_id)
    shadowed = exists(select(literal(1)).where(*hiding))
    q = (
        select(
            _R.c.id,
            _R.c.response_key,
            _R.c.run_id,
            _RUNS.c.model,
            _R.c.eval_id,
            _R.c.category,
            _R.c.sample_index,
            _R.c.outcome,
            _R.c.failed_step,
            _R.c.prompt_tokens,
            _R.c.completion_tokens,
            _R.c.cost_usd,
            _R.c.created_at,
            *(_L.c[c] for c in _LABEL_COLS),
        )
        .select_from(
            _R.join(_RUNS, _RUNS.c.id == _R.c.run_id).join(
                _L, _L.c.session_key == _R.c.response_key, isouter=not _needs_review(filt)
            )
        )
        .where(_R.c.response_key.isnot(None), _R.c.output.isnot(None), ~shadowed)
    )
    return q.where(*_conditions(filt, run_id))


def _needs_review(filt: SessionFilter) -> bool:
    """Whether only reviewed sessions can match (then the few reviews drive the query, not the
    many results)."""
    return bool(filt.ready or filt.tag or filt.status in ("golden", "correct", "incorrect"))


def _conditions(filt: SessionFilter, run_id: str | None) -> list:
    conds = []
    if run_id is not None:
        conds.append(_R.c.run_id == run_id)
    if filt.model:
        conds.append(_RUNS.c.model == filt.model)
    if filt.category:
        conds.append(_R.c.category == filt.category)
    if filt.eval:
        conds.append(_R.c.eval_id == filt.eval)
    if filt.outcome:
        conds.append(_R.c.outcome == filt.outcome)
    if filt.status == "needs_review":
        conds.append(or_(_L.c.eval_status.is_(None), _L.c.eval_status == "needs_review"))
    elif filt.status:
        conds.append(_L.c.eval_status == filt.status)
    if filt.tag:
        # Tags are stored as a JSON list and cannot contain quotes: '"tag"' matches one exactly.
        conds.append(cast(_L.c.eval_tags, Text).contains(f'"{filt.tag}"', autoescape=True))
    if filt.ready is True:
        conds.append(_L.c.eval_ready.is_(True))
    elif filt.ready is False:
        conds.append(or_(_L.c.eval_ready.is_(None), _L.c.eval_ready.is_(False)))
    if filt.keys is not None:
        conds.append(_R.c.response_key.in_(list(filt.keys)) if filt.keys else literal(False))
    return conds


def _session(row) -> Session:
    m = row._mapping
    label = SessionLabel()
    if m["eval_status"] is not None:
        label = SessionLabel(**{c: m[c] for c in _LABEL_COLS if m[c] is not None})
    return Session(
        key=m["response_key"],
        result_id=m["id"],
        run_id=m["run_id"],
        model=m["model"],
        eval_id=m["eval_id"],
        category=m["category"],
        sample_index=m["sample_index"],
        outcome=m["outcome"],
        failed_step=m["failed_step"],
        prompt_tokens=m["prompt_tokens"],
        completion_tokens=m["completion_tokens"],
        cost_usd=m["cost_usd"],
        created_at=m["created_at"],
        label=label,
    )


def list_sessions(store, filt: SessionFilter | None = None, *, limit: int = 50, offset: int = 0) -> SessionPage:
    """One page of sessions, newest first (``has_more`` says whether another page follows)."""
    if limit < 1 or offset < 0:
        raise InputError(f"limit must be at least 1 and offset at least 0 (got {limit}, {offset})")
    filt = filt or SessionFilter()
    q = _base(store, filt).order_by(_R.c.id.desc()).limit(limit + 1).offset(offset)
    with store.reading() as s:
        rows = s.execute(q).all()
    return SessionPage(
        items=[_session(r) for r in rows[:limit]], offset=offset, limit=limit, has_more=len(rows) > limit
    )


def iter_sessions(store, filt: SessionFilter | None = None, *, limit: int | None = None) -> list[Session]:
    """Every matching session (up to ``limit``), newest first."""
    q = _base(store, filt or SessionFilter()).order_by(_R.c.id.desc())
    if limit is not None:
        q = q.limit(limit)
    with store.reading() as s:
        return [_session(r) for r in s.execute(q)]


def count_sessions(store, filt: SessionFilter | None = None) -> int:
    q = select(func.count()).select_from(_base(store, filt or SessionFilter()).subquery())
    with store.reading() as s:
        return int(s.execute(q).scalar_one())


def resolve_keys(store, keys: list[str]) -> list[str]:
    """Full session keys from keys or unambiguous prefixes (as `tuner sessions list` prints them)."""
    out: list[str] = []
    with store.reading() as s:
        for key in keys:
            if not _KEY.match(key):
                raise InputError(f"session {key!r}: not a session key (hex digits, as `tuner sessions list` shows)")
            full = key if key.startswith("sha256:") else "sha256:" + key
            # A range, not LIKE: it uses the session index on SQLite and PostgreSQL alike.
            match = (
                _R.c.response_key == full
                if len(full) == 71
                else (_R.c.response_key >= full) & (_R.c.response_key < full + "g")
            )
            found = (
                s.execute(select(_R.c.response_key).where(match, _R.c.output.isnot(None)).distinct().limit(2))
                .scalars()
                .all()
            )
            if not found:
                raise NotFoundError(f"unknown session '{key}' (see `tuner sessions list`)")
            if len(found) > 1:
                raise InputError(f"session prefix '{key}' is ambiguous; give more digits")
            out.append(found[0])
    return list(dict.fromkeys(out))


def answer_parts(store, result_ids: list[int]) -> dict[int, dict]:
    """{result id: {messages, output, tool_calls, reasoning, finish_reason, turns}}; ``messages`` are
    those sent, each system prompt's text resolved ("" if the prompt is not stored)."""
    rows: dict[int, dict] = {}
    columns = (_R.c.id, _R.c.messages, _R.c.output, _R.c.tool_calls, _R.c.reasoning, _R.c.finish_reason, _R.c.turns)
    with store.reading() as s:
        for chunk in (result_ids[i : i + 500] for i in range(0, len(result_ids), 500)):
            for row in s.execute(select(*columns).where(_R.c.id.in_(chunk))):
                m = dict(row._mapping)
                rows[m.pop("id")] = m
        hashes = {
            m["prompt_hash"]
            for r in rows.values()
            for m in r["messages"] or []
            if m.get("role") == "system" and "prompt_hash" in m
        }
        prompts = (
            dict(s.execute(select(PromptRow.hash, PromptRow.text).where(PromptRow.hash.in_(hashes))).all())
            if hashes
            else {}
        )
    for r in rows.values():
        r["messages"] = [
            {"role": "system", "content": prompts.get(m["prompt_hash"], "")}
            if m.get("role") == "system" and "prompt_hash" in m
            else dict(m)
            for m in r["messages"] or []
        ]
    return rows


def _label(row: SessionLabelRow) -> SessionLabel:
    return SessionLabel(
        eval_ready=row.eval_ready,
        eval_status=row.eval_status,
        eval_notes=row.eval_notes,
        eval_tags=list(row.eval_tags or []),
        expected_output=row.expected_output,
        reviewed_at=row.reviewed_at,
    )


def session_labels(store, keys: list[str]) -> dict[str, SessionLabel]:
    """{session key: its review} for the given keys, in their order (unreviewed: the defaults)."""
    out = {k: SessionLabel() for k in keys}
    if keys:
        with store.reading() as s:
            for row in s.execute(select(SessionLabelRow).where(SessionLabelRow.session_key.in_(keys))).scalars():
                out[row.session_key] = _label(row)
    return out


def update_labels(store, keys: list[str], edit: Callable[[str, SessionLabel], SessionLabel], when: datetime) -> int:
    """Replace the review of each session ``keys`` names (full keys) with ``edit(key, current)``,
    reviewed ``when``, in one transaction; returns how many. An exception from ``edit`` writes nothing."""
    if not keys:
        return 0
    keys = list(dict.fromkeys(keys))
    with store.session() as s:
        _check_known(s, keys)
        rows = {
            r.session_key: r
            for r in s.execute(select(SessionLabelRow).where(SessionLabelRow.session_key.in_(keys))).scalars()
        }
        for key in keys:
            row = rows.get(key)
            if row is None:
                row = SessionLabelRow(
                    session_key=key, eval_ready=False, eval_status="needs_review", eval_notes="", eval_tags=[]
                )
                s.add(row)
                rows[key] = row
            new = edit(key, _label(row))
            row.eval_ready, row.eval_status, row.eval_notes = new.eval_ready, new.eval_status, new.eval_notes
            row.eval_tags, row.expected_output = list(new.eval_tags), new.expected_output
            row.reviewed_at = when
    return len(keys)


def _check_known(s, keys: list[str]) -> None:
    known: set[str] = set()
    for i in range(0, len(keys), 500):
        chunk = keys[i : i + 500]
        known |= set(
            s.execute(
                select(ResultRow.response_key)
                .where(ResultRow.response_key.in_(chunk), ResultRow.output.isnot(None))
                .distinct()
            ).scalars()
        )
    missing = [k for k in keys if k not in known]
    if missing:
        raise NotFoundError(
            f"unknown session '{missing[0]}'" + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else "")
        )
