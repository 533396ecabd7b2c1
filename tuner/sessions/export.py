"""Exporting sessions: choose them, load their conversations, render one format.

Only eval-ready sessions are exported (a person marked them, or reviewed them), unless sessions are
named one by one (``SessionFilter.keys``): then exactly those. The CLI, the export API and the
viewer's download all call ``export_sessions``.
"""

from __future__ import annotations

from datetime import datetime, timezone

from pydantic import BaseModel

from tuner.errors import InputError
from tuner.sessions.formats import EXTENSIONS, FORMATS, MEDIA_TYPES, render
from tuner.sessions.query import SessionFilter, conversations, iter_sessions

__all__ = ["Export", "export_sessions", "MAX_EXPORT"]

MAX_EXPORT = 100_000


class Export(BaseModel):
    format: str
    sessions: int
    text: str
    media_type: str
    filename: str


def export_sessions(store, fmt: str, filt: SessionFilter | None = None, limit: int | None = None) -> Export:
    if fmt not in FORMATS:
        raise InputError(f"format {fmt!r}: must be one of {', '.join(FORMATS)}")
    if limit is not None and not 1 <= limit <= MAX_EXPORT:
        raise InputError(f"limit {limit}: must be between 1 and {MAX_EXPORT}")
    filt = filt or SessionFilter()
    if filt.keys is None and filt.ready is None:
        filt = filt.model_copy(update={"ready": True})
    sessions = iter_sessions(store, filt, limit=limit or MAX_EXPORT)
    # Oldest first in the file: the order the sessions were recorded in.
    sessions.reverse()
    text = render(fmt, conversations(store, sessions))
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    return Export(format=fmt, sessions=len(sessions), text=text, media_type=MEDIA_TYPES[fmt],
                  filename=f"sessions-{fmt}-{stamp}.{EXTENSIONS[fmt]}")
