"""Reviews of sessions: status, eval-readiness, tags, notes, the expected output.

Labels are keyed by the session key (the generation's ``response_key``), never by a result row, so
re-grading an answer or recording it again in another run keeps its review. Every change, from the
CLI, the export API or the viewer, goes through ``LabelChange`` (validated) and ``apply_labels``.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from tuner.errors import InputError
from tuner.store.sessions import STATUSES, TAG_PATTERN, SessionLabel, session_labels, update_labels

__all__ = ["LabelChange", "label_change", "apply_labels", "get_label"]

Tag = Annotated[str, StringConstraints(pattern=TAG_PATTERN.pattern)]
MAX_TAGS = 32


class LabelChange(BaseModel):
    """What to change on each chosen session; a field left out (None) is kept as it is."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    status: Literal["golden", "correct", "incorrect", "needs_review"] | None = None
    # None: a review (golden/correct/incorrect) makes the session eval-ready; otherwise unchanged.
    ready: bool | None = None
    tags: list[Tag] | None = Field(default=None, max_length=MAX_TAGS)  # replace the tags
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
        return (
            f"tag {err.get('input')!r}: use letters, digits and _ . : - (at most 64, starting with a letter or digit)"
        )
    msg = err["msg"].removeprefix("Value error, ")
    return f"{loc}: {msg}" if loc else msg


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def apply_labels(store, keys: list[str], change: LabelChange) -> int:
    """Apply ``change`` to the sessions ``keys`` (full keys) in one transaction; returns how many."""
    return update_labels(store, keys, lambda key, label: _change(key, label, change), _now())


def _change(key: str, label: SessionLabel, change: LabelChange) -> SessionLabel:
    new = label.model_copy()
    if change.status is not None:
        new.eval_status = change.status
    if change.ready is not None:
        new.eval_ready = change.ready
    elif change.status in ("golden", "correct", "incorrect"):
        new.eval_ready = True
    tags = set(label.eval_tags or [])
    if change.tags is not None:
        tags = set(change.tags)
    tags = (tags | set(change.add_tags)) - set(change.remove_tags)
    if len(tags) > MAX_TAGS:
        raise InputError(f"session {key}: at most {MAX_TAGS} tags")
    new.eval_tags = sorted(tags)
    if change.notes is not None:
        new.eval_notes = change.notes
    if change.expected_output is not None:
        new.expected_output = change.expected_output
    elif change.clear_expected_output:
        new.expected_output = None
    return new


def get_label(store, key: str) -> SessionLabel:
    return session_labels(store, [key])[key]
