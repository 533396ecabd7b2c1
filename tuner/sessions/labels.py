"""Reviews of sessions: status, eval-readiness, tags, notes, the expected output.

Labels are keyed by the session key (the generation's ``response_key``), never by a result row, so
re-grading an answer or recording it again in another run keeps its review. Every change, from the
CLI, the export API or the viewer, goes through ``LabelChange`` (validated) and ``apply_labels``.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator
from sqlalchemy import select

from tuner.errors import InputError
from tuner.sessions.query import STATUSES, TAG_PATTERN, SessionLabel
from tuner.store.schema import SessionLabelRow

__all__ = ["LabelChange", "label_change", "apply_labels", "get_label"]

Tag = Annotated[str, StringConstraints(pattern=TAG_PATTERN.pattern)]
MAX_TAGS = 32


class LabelChange(BaseModel):
    """What to change on each chosen session; a field left out (None) is kept as it is."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    status: Literal["golden", "correct", "incorrect", "needs_review"] | None = None
    # None: a review (golden/correct/incorrect) makes the session eval-ready; otherwise unchanged.
    ready: bool | None = None
    tags: list[Tag] | None = Field(default=None, max_length=MAX_TAGS)   # replace the tags
    add_tags: list[Tag] = Field(default_factory=list, max_length=MAX_TAGS)
    remove_tags: list[Tag] = Field(default_factory=list, max_length=MAX_TAGS)
    notes: str | None = Field(default=None, max_length=20_000)
    expected_output: str | None = Field(default=None, max_length=1_000_000)
    clear_expected_output: bool = False

    @model_validator(mode="after")
    def _something(self) -> LabelChange:
        if self.tags is not None and (self.add_tags or self.remove_tags):
            raise ValueError("give either tags (replace) or add_tags/remove_tags, not both")
        if self.expected_output is not None and self.clear_expected_output:
            raise ValueError("give expected_output or clear_expected_output, not both")
        if not self.model_fields_set - {"add_tags", "remove_tags"} and not (self.add_tags or self.remove_tags):
            raise ValueError("nothing to change: give a status, ready, tags, notes or an expected output")
        return self


def label_change(**values) -> LabelChange:
    """A ``LabelChange`` from option values; a bad value is an ``InputError`` naming it."""
    try:
        return LabelChange(**{k: v for k, v in values.items() if v is not None})
    except ValidationError as e:
        raise InputError(_message(e)) from None


def _message(e: ValidationError) -> str:
    err = e.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    if err["type"] == "extra_forbidden":
        return f"unknown label field '{loc}' (known: {', '.join(LabelChange.model_fields)})"
    if err["loc"] and err["loc"][0] == "status":
        return f"status {err.get('input')!r}: must be one of {', '.join(STATUSES)}"
    if err["type"] == "string_pattern_mismatch":
        return f"tag {err.get('input')!r}: use letters, digits and _ . : - (at most 64, starting with a letter or digit)"
    msg = err["msg"].removeprefix("Value error, ")
    return f"{loc}: {msg}" if loc else msg


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def apply_labels(store, keys: list[str], change: LabelChange) -> int:
    """Apply ``change`` to the sessions ``keys`` (full keys) in one transaction; returns how many."""
    if not keys:
        return 0
    keys = list(dict.fromkeys(keys))
    now = _now()
    with store.session() as s:
        _check_known(s, keys)
        rows = {r.session_key: r for r in s.execute(select(SessionLabelRow).where(SessionLabelRow.session_key.in_(keys))).scalars()}
        for key in keys:
            row = rows.get(key)
            if row is None:
                row = SessionLabelRow(session_key=key, eval_ready=False, eval_status="needs_review", eval_notes="",
                                      eval_tags=[])
                s.add(row)
                rows[key] = row
            _change(row, change)
            row.reviewed_at = now
    return len(keys)


def _check_known(s, keys: list[str]) -> None:
    from tuner.errors import NotFoundError
    from tuner.store.schema import ResultRow

    known: set[str] = set()
    for i in range(0, len(keys), 500):
        chunk = keys[i:i + 500]
        known |= set(s.execute(select(ResultRow.response_key).where(
            ResultRow.response_key.in_(chunk), ResultRow.output.isnot(None)).distinct()).scalars())
    missing = [k for k in keys if k not in known]
    if missing:
        raise NotFoundError(f"unknown session '{missing[0]}'" + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))


def _change(row: SessionLabelRow, change: LabelChange) -> None:
    if change.status is not None:
        row.eval_status = change.status
    if change.ready is not None:
        row.eval_ready = change.ready
    elif change.status in ("golden", "correct", "incorrect"):
        row.eval_ready = True
    tags = set(row.eval_tags or [])
    if change.tags is not None:
        tags = set(change.tags)
    tags = (tags | set(change.add_tags)) - set(change.remove_tags)
    if len(tags) > MAX_TAGS:
        raise InputError(f"session {row.session_key}: at most {MAX_TAGS} tags")
    row.eval_tags = sorted(tags)
    if change.notes is not None:
        row.eval_notes = change.notes
    if change.expected_output is not None:
        row.expected_output = change.expected_output
    elif change.clear_expected_output:
        row.expected_output = None


def get_label(store, key: str) -> SessionLabel:
    with store.reading() as s:
        row = s.get(SessionLabelRow, key)
        if row is None:
            return SessionLabel()
        return SessionLabel(eval_ready=row.eval_ready, eval_status=row.eval_status, eval_notes=row.eval_notes,
                            eval_tags=list(row.eval_tags or []), expected_output=row.expected_output,
                            reviewed_at=row.reviewed_at)
