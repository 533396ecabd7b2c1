"""Sessions: recorded generations, found by filters, a page at a time.

What a session is and how filters select it is the store's (``tuner.store.sessions``, re-exported
here); this module adds what a person types (``session_filter``, ``check_tag``) and the whole
conversation of a session (``conversations``).
"""

from __future__ import annotations

from pydantic import BaseModel

from tuner.errors import InputError
from tuner.store.sessions import (
    OUTCOMES,
    STATUSES,
    TAG_PATTERN,
    Session,
    SessionFilter,
    SessionLabel,
    SessionPage,
    answer_parts,
    count_sessions,
    iter_sessions,
    list_sessions,
    resolve_keys,
)

__all__ = [
    "STATUSES",
    "OUTCOMES",
    "TAG_PATTERN",
    "SessionFilter",
    "SessionLabel",
    "Session",
    "SessionPage",
    "Conversation",
    "session_filter",
    "list_sessions",
    "count_sessions",
    "iter_sessions",
    "conversations",
    "resolve_keys",
    "check_tag",
]


def check_tag(tag: str) -> str:
    if not TAG_PATTERN.match(tag):
        raise InputError(f"tag {tag!r}: use letters, digits and _ . : - (at most 64, starting with a letter or digit)")
    return tag


class Conversation(BaseModel):
    """A session with its whole conversation: the messages sent, then the assistant's answer (its
    text, and its tool calls when it wrote files through them)."""

    session: Session
    messages: list[dict]
    reasoning: str | None = None  # the model's reasoning, kept apart from the answer
    finish_reason: str | None = None  # the provider's; "length": the answer was cut off
    # The repair loop: one entry per answer (tuner.runs.repair), None for a one-turn session.
    turns: list[dict] | None = None

    @property
    def stopped(self) -> str | None:
        """Why the answer is incomplete ("truncated at the token limit (finish_reason length)")."""
        from tuner.models.answers import stop_reason

        return stop_reason(self.finish_reason)


def conversations(store, sessions: list[Session]) -> list[Conversation]:
    """The whole conversation of each session, in the given order (system prompt text resolved)."""
    if not sessions:
        return []
    parts = answer_parts(store, [x.result_id for x in sessions])
    out = []
    for session in sessions:
        p = parts[session.result_id]
        answer = {"role": "assistant", "content": p["output"]}
        if p["tool_calls"]:
            answer["tool_calls"] = [dict(c) for c in p["tool_calls"]]
        out.append(
            Conversation(
                session=session,
                messages=[*p["messages"], answer],
                reasoning=p["reasoning"],
                finish_reason=p["finish_reason"],
                turns=p["turns"],
            )
        )
    return out


def session_filter(**values) -> SessionFilter:
    """A ``SessionFilter`` from option values (None = not given); a bad value is an ``InputError``
    naming the field and the values it takes."""
    from pydantic import ValidationError

    given = {k: v for k, v in values.items() if v is not None}
    try:
        return SessionFilter(**given)
    except ValidationError as e:
        raise InputError(_one_line(e, given)) from None


def _one_line(e, given: dict) -> str:
    err = e.errors()[0]
    field = str(err["loc"][0]) if err["loc"] else "?"
    if err["type"] == "extra_forbidden":
        return f"unknown filter '{field}' (known: {', '.join(SessionFilter.model_fields)})"
    choices = {"status": STATUSES, "outcome": OUTCOMES}.get(field)
    if choices:
        return f"{field} {given.get(field)!r}: must be one of {', '.join(choices)}"
    return f"{field} {given.get(field)!r}: {err['msg'].removeprefix('Value error, ')}"
