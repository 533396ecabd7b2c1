"""Which run a person means: a full id, a unique prefix, or a viewer URL ``.../run/<id>/...``."""

from __future__ import annotations

import re

from tuner.errors import InputError, NotFoundError
from tuner.hashing import short
from tuner.store.records import RunRecord
from tuner.store.runs import runs_by_prefix

__all__ = ["resolve_run"]

_URL_RUN = re.compile(r"/runs?/([^/?#]+)")
_HEX = re.compile(r"^[0-9a-f]+$")


def _id_text(text: str) -> str:
    text = text.strip()
    if "://" in text or text.startswith("/"):
        m = _URL_RUN.search(text)
        if m is None:
            raise InputError(f"{text!r}: a viewer URL must contain /run/<id>/")
        text = m.group(1)
    from urllib.parse import unquote

    text = unquote(text).removeprefix("sha256:").lower()
    if not text or not _HEX.match(text):
        raise InputError(f"run {text!r}: expected a run id, a prefix of one (hex digits) or a viewer URL")
    return "sha256:" + text


def resolve_run(store, text: str) -> RunRecord:
    """The one run ``text`` names; an ambiguous prefix lists the candidates (one line)."""
    prefix = _id_text(text)
    records = runs_by_prefix(store, prefix, 11)
    if not records:
        raise NotFoundError(f"unknown run '{text}' (see `tuner runs list`)")
    if len(records) > 1:
        shown = "; ".join(f"{short(r.id)} ({r.model}, {r.set_name})" for r in records[:10])
        more = " and more" if len(records) > 10 else ""
        raise InputError(f"run prefix '{text}' is ambiguous: {shown}{more}; give more digits")
    return records[0]
