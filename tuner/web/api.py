"""The JSON/export API: ``GET /api/export``, ``GET /api/sessions``, ``POST /api/labels``.

Every endpoint needs a key (``Authorization: Bearer <key>``) or the viewer's login cookie; the
viewer's pages change labels through ``POST /api/labels`` too, so every change is validated here.
Errors: 401 without valid credentials, 400 for a bad parameter (the message names it), 404 for an
unknown session or run, 415 when a change is not sent as JSON.
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials

from tuner.errors import InputError
from tuner.web.auth import api_identity, bearer

__all__ = ["router", "ApiError"]

router = APIRouter(prefix="/api")

_EXPORT_PARAMS = ("format", "status", "tag", "limit", "model", "category", "run", "eval", "outcome", "session")
_SESSION_PARAMS = ("status", "tag", "model", "category", "run", "eval", "outcome", "ready", "limit", "offset")
_FULL_KEY = re.compile(r"^sha256:[0-9a-f]{64}$")


class ApiError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def require_caller(
    request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
) -> str:
    who = api_identity(request, credentials)
    if who is None:
        reason = (
            "missing credentials"
            if credentials is None and not request.headers.get("authorization")
            else "invalid or revoked key"
        )
        raise ApiError(401, f"{reason}: send Authorization: Bearer <key> (create one with `tuner keys create`)")
    return who


Caller = Annotated[str, Depends(require_caller)]


def _params(request: Request, allowed: tuple[str, ...], repeatable: tuple[str, ...] = ()) -> dict:
    out: dict = {}
    for name in request.query_params:
        if name not in allowed:
            raise ApiError(400, f"unknown parameter '{name}' (known: {', '.join(allowed)})")
        values = request.query_params.getlist(name)
        if name in repeatable:
            out[name] = values
        elif len(values) > 1:
            raise ApiError(400, f"parameter '{name}' given {len(values)} times; give it once")
        else:
            out[name] = values[0]
    return out


def _int(params: dict, name: str, lo: int, hi: int) -> int | None:
    if name not in params:
        return None
    raw = params[name]
    if not re.fullmatch(r"\d{1,7}", raw or "") or not lo <= int(raw) <= hi:
        raise ApiError(400, f"{name} {raw!r}: must be a whole number from {lo} to {hi}")
    return int(raw)


def _filter(params: dict, store, **extra):
    from tuner.sessions import session_filter

    return session_filter(
        status=params.get("status"),
        tag=params.get("tag"),
        model=params.get("model"),
        category=params.get("category"),
        run=params.get("run"),
        eval=params.get("eval"),
        outcome=params.get("outcome"),
        **extra,
    )


@router.get("/export")
def export(request: Request, caller: Caller) -> Response:
    """Eval-ready sessions (or exactly the ``session`` keys given) in one format, as a download."""
    from tuner.sessions import FORMATS, MAX_EXPORT, stream_export

    params = _params(request, _EXPORT_PARAMS, repeatable=("session",))
    fmt = params.get("format")
    if not fmt:
        raise ApiError(400, f"format is required: one of {', '.join(FORMATS)}")
    if fmt not in FORMATS:
        raise ApiError(400, f"format {fmt!r}: must be one of {', '.join(FORMATS)}")
    limit = _int(params, "limit", 1, MAX_EXPORT)
    keys = params.get("session")
    if keys is not None:
        bad = next((k for k in keys if not _FULL_KEY.match(k)), None)
        if bad is not None:
            raise ApiError(400, f"session {bad!r}: not a session key (sha256:<64 hex digits>)")
    store = request.app.state.store
    filt = _filter(params, store, keys=tuple(keys) if keys is not None else None)
    result = stream_export(store, fmt, filt, limit)
    # Streamed a batch of conversations at a time: a large export never sits whole in memory.
    return StreamingResponse(
        result.chunks,
        media_type=result.media_type,
        headers={
            "Content-Disposition": f'attachment; filename="{result.filename}"',
            "X-Tuner-Sessions": str(result.sessions),
        },
    )


@router.get("/sessions")
def sessions(request: Request, caller: Caller) -> JSONResponse:
    """A page of sessions (newest first) with their reviews, as JSON."""
    from tuner.sessions import list_sessions

    params = _params(request, _SESSION_PARAMS)
    ready = params.get("ready")
    if ready not in (None, "true", "false"):
        raise ApiError(400, f"ready {ready!r}: must be true or false")
    limit = _int(params, "limit", 1, 1000) or 50
    offset = _int(params, "offset", 0, 10_000_000) or 0
    store = request.app.state.store
    filt = _filter(params, store, ready=None if ready is None else ready == "true")
    page = list_sessions(store, filt, limit=limit, offset=offset)
    return JSONResponse(
        {
            "sessions": [s.model_dump(mode="json") for s in page.items],
            "offset": offset,
            "limit": limit,
            "has_more": page.has_more,
        }
    )


@router.post("/labels")
async def labels(request: Request, caller: Caller) -> JSONResponse:
    """Change the review of sessions: ``{"sessions": [key, ...], "status": ..., "add_tags": [...], ...}``."""
    import json

    from tuner.sessions import apply_labels, label_change

    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ApiError(415, "send the change as JSON (Content-Type: application/json)")
    try:
        body = json.loads(await request.body() or b"null")
    except ValueError:
        raise ApiError(400, "the body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ApiError(400, 'the body must be a JSON object: {"sessions": [...], "status": ...}')
    keys = body.pop("sessions", None)
    if not isinstance(keys, list) or not keys or len(keys) > 10_000 or not all(isinstance(k, str) for k in keys):
        raise ApiError(400, "sessions: give a list of 1 to 10000 session keys")
    bad = next((k for k in keys if not _FULL_KEY.match(k)), None)
    if bad is not None:
        raise ApiError(400, f"session {bad!r}: not a session key (sha256:<64 hex digits>)")
    change = label_change(**body)
    n = apply_labels(request.app.state.store, keys, change)
    return JSONResponse({"labelled": n, "by": caller, "change": change.model_dump(exclude_defaults=True)})


def error_response(exc: Exception) -> JSONResponse:
    from tuner.errors import NotFoundError

    if isinstance(exc, ApiError):
        status, message = exc.status, str(exc)
    elif isinstance(exc, NotFoundError):
        status, message = 404, str(exc)
    elif isinstance(exc, InputError):
        status, message = 400, str(exc)
    else:
        raise exc
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse({"error": message}, status_code=status, headers=headers)
