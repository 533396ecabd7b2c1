"""The suite manifest, ``suite.toml``: what the suite is, which kind grades it, how it is split.

Validation errors name the file and the offending field, because a person edits this file. The
shared keys are ``Manifest``'s; every other key belongs to the suite's kind, which validates it
with its own model (``SuiteKind.settings_model``; Convex: the toolchain folder and lint levels).
The steps a suite runs belong to its kind too; the manifest may list them, and then they must be
the kind's.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from tuner.errors import InputError, NotFoundError

__all__ = ["Manifest", "Split", "read_manifest", "describe_error"]


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


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(description="The suite's name (recorded with every run).")
    version: str = Field(description="The suite's own version label.")
    kind: str = Field(description="Which suite kind grades it (an entry point of tuner.suite_kinds).")
    categories: list[str] = Field(min_length=1, description="Every category, in display order.")
    steps: list[str] | None = Field(None, description="Optional: the grading steps; must be the kind's.")
    guidelines: str | None = Field(None, description="Folder of this suite's guidelines, relative to the suite "
                                   "(default: the project's guidelines/).")
    published_name: str | None = Field(None, description="Name of the published guideline file (default: the kind's).")
    answer_format: Literal["text", "tool"] = Field("text", description="How models hand in files: 'text' (a '## <path>' "
                                                   "line and a fenced block per file, read leniently) or 'tool' (a "
                                                   "write_file(path, content) tool call per file; an answer in text is "
                                                   "still read). Part of every run's identity.")
    held_out: list[str] = Field(default_factory=list, description="Eval ids held out by name (besides the split rule).")
    split: Split | None = Field(None, description="The rule choosing held-out evals.")
    # The kind's own keys, validated by its ``settings_model`` (None when it has none).
    kind_settings: Any = Field(None, exclude=True)

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
    kind = _kind(path, data)
    shared = Manifest.model_fields.keys() - {"kind_settings"}
    own = {k: v for k, v in data.items() if k not in shared}
    model = getattr(kind, "settings_model", None)
    if own and model is None:
        raise InputError(f"{path}: unknown field '{sorted(own)[0]}' (kind '{kind.name}' has no settings of its own)")
    try:
        settings = model.model_validate(own) if model is not None else None
        manifest = Manifest.model_validate({k: v for k, v in data.items() if k in shared} | {"kind_settings": settings})
    except ValidationError as e:
        raise InputError(f"{path}: {describe_error(e)}") from None
    return manifest, text


def _kind(path: Path, data: dict):
    from tuner.suites import get_kind, kind_names

    name = data.get("kind")
    if not isinstance(name, str):
        raise InputError(f"{path}: missing field 'kind' (one of: {', '.join(kind_names())})")
    try:
        return get_kind(name)
    except NotFoundError as e:
        raise InputError(f"{path}: field 'kind': {e}") from None


def describe_error(error: ValidationError) -> str:
    """A pydantic error as the one line a person editing the file needs (fields by name)."""
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
