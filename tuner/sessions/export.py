"""Exporting sessions: choose them, load their conversations a batch at a time, render one format.

Only eval-ready sessions are exported (a person marked them, or reviewed them), unless sessions are
named one by one (``SessionFilter.keys``): then exactly those. The CLI, the export API and the
viewer's download all call ``stream_export`` (or ``export_sessions`` for the whole text at once).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone

from pydantic import BaseModel, ConfigDict

from tuner.errors import InputError
from tuner.sessions.formats import EXTENSIONS, FORMATS, MEDIA_TYPES, render_chunks
from tuner.sessions.query import SessionFilter, conversations, iter_sessions

__all__ = ["Export", "ExportStream", "export_sessions", "stream_export", "MAX_EXPORT"]

MAX_EXPORT = 100_000
_BATCH = 500  # conversations loaded (and their text held) at once


class ExportStream(BaseModel):
    """An export whose text is produced piece by piece while ``chunks`` is iterated."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    format: str
    sessions: int
    media_type: str
    filename: str
    chunks: Iterator[str]


class Export(BaseModel):
    format: str
    sessions: int
    text: str
    media_type: str
    filename: str


def stream_export(store, fmt: str, filt: SessionFilter | None = None, limit: int | None = None) -> ExportStream:
    """Choose the sessions now (bad input fails here, before anything is written); render later."""
    if fmt not in FORMATS:
        raise InputError(f"format {fmt!r}: must be one of {', '.join(FORMATS)}")
    if limit is not None and not 1 <= limit <= MAX_EXPORT:
        raise InputError(f"limit {limit}: must be between 1 and {MAX_EXPORT}")
    filt = filt or SessionFilter()
    if filt.keys is None and filt.ready is None:
        filt = filt.model_copy(update={"ready": True})
    sessions = iter_sessions(store, filt, limit=limit or MAX_EXPORT)
    sessions.reverse()  # oldest first in the file: the order they were recorded in
    batches = (conversations(store, sessions[i : i + _BATCH]) for i in range(0, len(sessions), _BATCH))
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    return ExportStream(
        format=fmt,
        sessions=len(sessions),
        media_type=MEDIA_TYPES[fmt],
        filename=f"sessions-{fmt}-{stamp}.{EXTENSIONS[fmt]}",
        chunks=render_chunks(fmt, batches),
    )


def export_sessions(store, fmt: str, filt: SessionFilter | None = None, limit: int | None = None) -> Export:
    out = stream_export(store, fmt, filt, limit)
    return Export(
        format=out.format,
        sessions=out.sessions,
        text="".join(out.chunks),
        media_type=out.media_type,
        filename=out.filename,
    )
