"""Sessions (recorded generations): find them, review them, export them.

See ``query`` (what a session is, filters, paging), ``labels`` (reviews that survive re-grading),
``formats`` (DeepEval JSON, OpenAI JSONL, plain text) and ``export``.
"""

from tuner.sessions.export import MAX_EXPORT, Export, ExportStream, export_sessions, stream_export
from tuner.sessions.formats import FORMATS, openai_messages, render
from tuner.sessions.labels import LabelChange, apply_labels, get_label, label_change
from tuner.sessions.query import (
    OUTCOMES,
    STATUSES,
    Conversation,
    Session,
    SessionFilter,
    SessionLabel,
    SessionPage,
    check_tag,
    conversations,
    count_sessions,
    iter_sessions,
    list_sessions,
    resolve_keys,
    session_filter,
)

__all__ = [
    "FORMATS",
    "MAX_EXPORT",
    "OUTCOMES",
    "STATUSES",
    "Conversation",
    "Export",
    "ExportStream",
    "LabelChange",
    "Session",
    "SessionFilter",
    "SessionLabel",
    "SessionPage",
    "apply_labels",
    "check_tag",
    "conversations",
    "count_sessions",
    "export_sessions",
    "get_label",
    "iter_sessions",
    "label_change",
    "list_sessions",
    "openai_messages",
    "render",
    "resolve_keys",
    "session_filter",
    "stream_export",
]
