"""The suite manifest, ``evals/suite.toml``: what the suite is and how it is graded.

Validation errors name the file and the offending field, because a person edits this file.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from tuner.errors import InputError

__all__ = ["Manifest", "read_manifest", "STEP_NAMES"]

# The grading steps, in the order they run. The manifest must list exactly these: the pipeline
# does not know how to run any other step, and silently skipping one would inflate pass rates.
STEP_NAMES = ("filesystem", "codegen", "bundle", "tsc", "eslint", "tests")


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    version: str
    categories: list[str]
    steps: list[str]
    toolchain: str = "toolchain"
    held_out: list[str] = []


def read_manifest(path: Path) -> tuple[Manifest, str]:
    """Parse and validate the manifest; return it with its raw text (hashed into the suite)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: suite manifest not found") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{path}: invalid TOML: {e}") from None
    try:
        manifest = Manifest.model_validate(data)
    except ValidationError as e:
        raise InputError(f"{path}: {_describe(e)}") from None
    if tuple(manifest.steps) != STEP_NAMES:
        raise InputError(f"{path}: field 'steps' must be {list(STEP_NAMES)}, got {manifest.steps}")
    if len(set(manifest.categories)) != len(manifest.categories):
        raise InputError(f"{path}: field 'categories' lists a category twice")
    return manifest, text


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors():
        field = ".".join(str(p) for p in item["loc"]) or "(top level)"
        if item["type"] == "extra_forbidden":
            parts.append(f"unknown field '{field}'")
        elif item["type"] == "missing":
            parts.append(f"missing field '{field}'")
        else:
            parts.append(f"field '{field}': {item['msg']}")
    return "; ".join(parts)
