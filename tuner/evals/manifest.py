"""The suite manifest, ``suite.toml``: what the suite is, which kind grades it, how it is split.

Validation errors name the file and the offending field, because a person edits this file. The
steps a suite runs belong to its kind (``tuner.suites``); the manifest may list them, and then they
must be the kind's.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from tuner.errors import InputError

__all__ = ["Manifest", "Split", "LintOverride", "read_manifest"]


class Split(BaseModel):
    """How held-out evals are chosen: a rule, not a hand-kept list, so a new eval falls in place.

    The rule reads each eval's own folder number, not its position: adding an eval (in a gap of the
    numbering or at the end) or retiring one moves no other eval between selection and held-out,
    so studies and gates before and after the change judge the same evals the same way.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    held_out_every: int = Field(ge=2, description="An eval whose folder number (NNN of NNN-name) is a multiple of n "
                                "is held out (with contiguous numbering: every n-th eval of each category).")

    def holds_out(self, eval_id: str) -> bool:
        """Whether the eval ``CATEGORY/NNN-name`` is held out (folders are numbered: see ``tuner.evals.suite``)."""
        number = int(eval_id.rsplit("/", 1)[-1][:3])
        return number % self.held_out_every == 0


class LintOverride(BaseModel):
    """A lint rule whose level differs from the plugin's recommended configuration, with why."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rule: str
    level: Literal["error", "warn", "off"]
    reason: str = Field(min_length=10)


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(description="The suite's name (recorded with every run).")
    version: str = Field(description="The suite's own version label.")
    kind: str = Field("convex", description="Which suite kind grades it (tuner.suites): convex | pytest.")
    categories: list[str] = Field(min_length=1, description="Every category, in display order.")
    steps: list[str] | None = Field(None, description="Optional: the grading steps; must be the kind's.")
    toolchain: str = Field("toolchain", description="Folder of the grader's toolchain (kinds that have one).")
    guidelines: str | None = Field(None, description="Folder of this suite's guidelines, relative to the suite "
                                   "(default: the project's guidelines/).")
    published_name: str | None = Field(None, description="Name of the published guideline file (default: the kind's).")
    held_out: list[str] = Field(default_factory=list, description="Eval ids held out by name (besides the split rule).")
    split: Split | None = Field(None, description="The rule choosing held-out evals.")
    lint: list[LintOverride] = Field(default_factory=list, description="Lint levels that differ from the recommended set.")

    @model_validator(mode="after")
    def _unique_categories(self) -> Manifest:
        if len(set(self.categories)) != len(self.categories):
            raise ValueError("field 'categories' lists a category twice")
        return self


def read_manifest(path: Path) -> tuple[Manifest, str]:
    """Parse and validate the manifest; return it with its raw text (hashed into the suite)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        raise InputError(f"{path}: suite manifest not found") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{path}: invalid TOML: {e}") from None
    try:
        manifest = Manifest.model_validate(data)
    except ValidationError as e:
        raise InputError(f"{path}: {_describe(e)}") from None
    return manifest, text


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors():
        field = ".".join(str(p) for p in item["loc"]) or "(top level)"
        if item["type"] == "extra_forbidden":
            parts.append(f"unknown field '{field}'")
        elif item["type"] == "missing":
            parts.append(f"missing field '{field}'")
        elif field == "(top level)":
            parts.append(str(item["msg"]).removeprefix("Value error, "))
        else:
            parts.append(f"field '{field}': {item['msg']}")
    return "; ".join(parts)
