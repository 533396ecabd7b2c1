"""The manifest of a published guideline version (``guidelines/published/<name>/manifest.json``).

Every version is also kept as ``history/<version>.json``; ``tuner guidelines diff NAME@VERSION ...``
reads them.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, Field

from tuner.errors import InputError

__all__ = ["PublishedRule", "Manifest", "read_manifest", "next_version", "MANIFEST_VERSION"]

MANIFEST_VERSION = 1


class PublishedRule(BaseModel):
    id: str = Field(description="Stable rule id.")
    variant: str = Field(description="Phrasing used.")
    hash: str = Field(description="Content hash of the rule text as published.")
    title: str = Field(description="Rule title.")


class Manifest(BaseModel):
    manifest_version: int = Field(MANIFEST_VERSION, description="Version of this manifest format.")
    name: str = Field(description="Published guideline name, e.g. convex_rules.")
    version: str = Field(description="Semantic version: major = rules removed, minor = added, patch = reworded.")
    previous: str | None = Field(description="The version this one replaces.")
    published_at: str = Field(description="UTC date of publishing (metadata, not identity).")
    source: dict = Field(description="Where the selection came from: {kind: study|set, name, trial}.")
    prompt_hash: str = Field(description="Hash of the exact published text.")
    tokens: int = Field(description="Token count of the published text.")
    rules: list[PublishedRule] = Field(description="Rules in the file, by id, with content hashes.")
    evidence: list[dict] = Field(
        description="Per model × category: previous vs this version, with intervals (all evals, fresh samples)."
    )
    gate: dict = Field(description="The held-out regression check: rows, passed, forced.")
    run_ids: list[str] = Field(description="Store runs behind the evidence.")


def read_manifest(path: Path) -> Manifest | None:
    if not path.is_file():
        return None
    try:
        return Manifest.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, TypeError) as exc:
        raise InputError(f"{path}: not a valid manifest ({str(exc).splitlines()[0]})") from None


def next_version(previous: Manifest | None, added: int, removed: int, changed: int) -> str:
    if previous is None:
        return "1.0.0"
    major, minor, patch = (int(x) for x in previous.version.split("."))
    if removed:
        return f"{major + 1}.0.0"
    if added:
        return f"{major}.{minor + 1}.0"
    return f"{major}.{minor}.{patch + 1}" if changed else previous.version
