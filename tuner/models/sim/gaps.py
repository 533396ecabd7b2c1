"""Planted knowledge gaps: the mistakes a simulated model makes, as data.

A gap says where a mistake can happen (``trigger``: a regex that must match in an answer file,
optionally restricted to files matching ``files``), what the mistake is (``transform``: regex
substitutions applied to those files), and which guidance prevents it (``cures``: regexes matched
case-insensitively against the system prompt, each with a ``strength``; a detailed phrasing of a
rule carries a stronger cue than a terse one). ``induced_by`` is the opposite of a cure: guidance
that talks the model *into* the mistake (a harmful rule).

Side effects of over-eager rule following reuse the same trigger/transform shape.
"""

from __future__ import annotations

import fnmatch
import re
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = ["Substitution", "Cue", "Edit", "Gap", "cue_strength"]


@lru_cache(maxsize=4096)
def _compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


def _check_regex(pattern: str) -> str:
    try:
        _compile(pattern, re.MULTILINE)
    except re.error as exc:
        raise ValueError(f"bad regex {pattern!r}: {exc}") from None
    return pattern


class Substitution(BaseModel):
    """``re.sub(pattern, replace, text, count)`` in MULTILINE mode; ``count`` 0 means all."""

    model_config = ConfigDict(extra="forbid")
    pattern: str
    replace: str
    count: int = Field(0, ge=0)

    @field_validator("pattern")
    @classmethod
    def _valid(cls, value: str) -> str:
        return _check_regex(value)

    def apply(self, text: str) -> str:
        return _compile(self.pattern, re.MULTILINE).sub(self.replace, text, count=self.count)


class Cue(BaseModel):
    """A regex over the system prompt and how strongly its presence steers the model (0..1)."""

    model_config = ConfigDict(extra="forbid")
    pattern: str
    strength: float = Field(1.0, ge=0.0, le=1.0)

    @field_validator("pattern")
    @classmethod
    def _valid(cls, value: str) -> str:
        return _check_regex(value)

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: object) -> object:
        # A bare string in YAML is a full-strength cue.
        return {"pattern": value} if isinstance(value, str) else value

    def matches(self, system_prompt: str) -> bool:
        return _compile(self.pattern, re.IGNORECASE | re.MULTILINE).search(system_prompt) is not None


def cue_strength(cues: list[Cue], system_prompt: str) -> float:
    """The strongest cue present in the prompt (0 when none is)."""
    return max((c.strength for c in cues if c.matches(system_prompt)), default=0.0)


class Edit(BaseModel):
    """Where a change applies (trigger + file glob) and what it does (substitutions)."""

    model_config = ConfigDict(extra="forbid")
    id: str
    description: str = ""
    trigger: str
    files: str = "**"
    transform: list[Substitution] = Field(min_length=1)

    @field_validator("trigger")
    @classmethod
    def _valid(cls, value: str) -> str:
        return _check_regex(value)

    def _selected(self, path: str) -> bool:
        # "**" alone means every file; fnmatch's "*" already crosses "/".
        return self.files == "**" or fnmatch.fnmatch(path, self.files)

    def targets(self, files: dict[str, str]) -> list[str]:
        """Paths of the files this edit would change (selected by glob and trigger)."""
        trig = _compile(self.trigger, re.MULTILINE)
        return [p for p, text in files.items() if self._selected(p) and trig.search(text)]

    def applies_to(self, files: dict[str, str]) -> bool:
        return bool(self.targets(files))

    def apply(self, files: dict[str, str]) -> tuple[dict[str, str], bool]:
        """The edited files and whether anything actually changed."""
        out = dict(files)
        changed = False
        for path in self.targets(files):
            text = out[path]
            for sub in self.transform:
                text = sub.apply(text)
            changed = changed or text != out[path]
            out[path] = text
        return out, changed


class Gap(Edit):
    # Checked against the suite's manifest when the data is loaded for a suite.
    category: str
    cures: list[Cue] = Field(default_factory=list)
    induced_by: list[Cue] = Field(default_factory=list)

    def cure_strength(self, system_prompt: str) -> float:
        return cue_strength(self.cures, system_prompt)

    def induce_strength(self, system_prompt: str) -> float:
        return cue_strength(self.induced_by, system_prompt)
