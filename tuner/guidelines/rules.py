"""Rule fragments: one rule per Markdown file with YAML front matter.

File format (``guidelines/rules/**/*.md``)::

    ---
    id: actions.use-node-directive      # stable id: lowercase words joined by dots and dashes
    title: Put "use node" at the top of files that use Node built-ins
    section: [Actions, Runtimes]        # heading path in the published file
    targets: [actions]                  # categories the rule is meant to help
    status: active                      # active | candidate | retired
    variants:                           # optional alternative phrasings, by name
      terse: |
        Files importing Node built-ins need "use node"; first.
    provenance:                         # optional; written by `tuner propose` (see Provenance)
      proposed_by: sim/proposer
      ...
    ---
    The rule text in Markdown (the "default" variant).

Content hash (stable, documented): ``sha256:`` + hex SHA-256 of the canonical JSON (sorted keys,
no spaces, ASCII) of ``{"id", "title", "section", "text"}`` where ``text`` is the variant's body
normalised: CRLF to LF, trailing spaces stripped per line, leading/trailing blank lines removed.
Only what reaches the prompt is hashed, so editing ``targets`` or ``status`` keeps the version while
editing a single character of the text makes a new one. ``provenance`` is not hashed either.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from tuner.errors import InputError, NotFoundError
from tuner.hashing import sha256_json

__all__ = ["Provenance", "Rule", "RuleLibrary", "load_rules", "normalise_text", "rule_from_text", "DEFAULT_VARIANT"]

DEFAULT_VARIANT = "default"
_ID = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9][a-z0-9-]*)+$")


def normalise_text(text: str) -> str:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return "\n".join(lines).strip("\n")


class Provenance(BaseModel):
    """Where a proposed rule came from (``tuner propose``). Context, not content: it never reaches
    the prompt, so it is not part of the rule's hash."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    proposed_by: str = Field(min_length=1, description="The proposing model (litellm string).")
    simulated: bool = Field(False, description="True when the proposer was the offline simulator.")
    date: str = Field(min_length=1, description="When it was proposed (YYYY-MM-DD, UTC).")
    runs: list[str] = Field(default_factory=list, description="Run ids whose failures motivated it.")
    evals: list[str] = Field(min_length=1, description="Evals whose failures motivated it.")
    similarity: str = Field("", description="How it was checked against existing rules (closest rule and score).")


class _FrontMatter(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    title: str = Field(min_length=1)
    section: list[str] = Field(min_length=1)
    targets: list[str] = Field(min_length=1)
    status: Literal["active", "candidate", "retired"]
    variants: dict[str, str] = Field(default_factory=dict)
    provenance: Provenance | None = None

    @field_validator("id")
    @classmethod
    def _id_format(cls, value: str) -> str:
        if not _ID.match(value):
            raise ValueError("must look like 'area.rule-name' (lowercase, dots, dashes)")
        return value

    @field_validator("section", mode="before")
    @classmethod
    def _section_path(cls, value):
        return [part.strip() for part in value.split(">")] if isinstance(value, str) else value

    @field_validator("targets")
    @classmethod
    def _known_targets(cls, value: list[str], info: ValidationInfo) -> list[str]:
        # The categories come from the suite's manifest (validation context); none given, none checked.
        categories = (info.context or {}).get("categories")
        unknown = [t for t in value if categories is not None and t not in categories]
        if unknown:
            raise ValueError(f"unknown categor{'y' if len(unknown) == 1 else 'ies'} {', '.join(unknown)}")
        return value

    @field_validator("variants")
    @classmethod
    def _variant_names(cls, value: dict[str, str]) -> dict[str, str]:
        for name, body in value.items():
            if name == DEFAULT_VARIANT:
                raise ValueError("'default' is the file body; name variants otherwise")
            if not normalise_text(body or ""):
                raise ValueError(f"variant '{name}' is empty")
        return value


class Rule(BaseModel):
    """One validated rule fragment."""

    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    section: tuple[str, ...]
    targets: tuple[str, ...]
    status: str
    body: str
    variants: dict[str, str]
    path: str
    # Not hashed (see ``hash``): where the rule came from does not change what the model reads.
    provenance: Provenance | None = None

    @property
    def variant_names(self) -> list[str]:
        return [DEFAULT_VARIANT, *sorted(self.variants)]

    def text(self, variant: str = DEFAULT_VARIANT) -> str:
        if variant == DEFAULT_VARIANT:
            return self.body
        if variant not in self.variants:
            raise NotFoundError(f"rule {self.id}: unknown variant '{variant}' (has: {', '.join(self.variant_names)})")
        return normalise_text(self.variants[variant])

    def hash(self, variant: str = DEFAULT_VARIANT) -> str:
        return sha256_json(
            {"id": self.id, "title": self.title, "section": list(self.section), "text": self.text(variant)}
        )


class RuleLibrary(BaseModel):
    """All rules of a project, by id."""

    model_config = ConfigDict(frozen=True)

    rules: dict[str, Rule]

    def get(self, rule_id: str) -> Rule:
        try:
            return self.rules[rule_id]
        except KeyError:
            raise NotFoundError(f"unknown rule id '{rule_id}'") from None

    def by_status(self, *statuses: str) -> list[Rule]:
        return [r for r in self.rules.values() if r.status in statuses]

    def __iter__(self):
        return iter(self.rules.values())

    def __len__(self) -> int:
        return len(self.rules)


def _parse_rule(path: Path, root: Path, categories: list[str] | None = None) -> Rule:
    rel = path.relative_to(root.parent).as_posix() if root.parent in path.parents else str(path)
    try:
        source = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{rel}: not UTF-8 text (byte {exc.start})") from None
    return rule_from_text(source, rel, categories)


def rule_from_text(source: str, rel: str, categories: list[str] | None = None) -> Rule:
    """Validate a rule file's text (as ``load_rules`` does), naming it ``rel`` in errors."""
    import frontmatter
    import yaml

    try:
        post = frontmatter.loads(source)
    except (yaml.YAMLError, UnicodeDecodeError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"{rel}: bad front matter: {first}") from None
    if not post.metadata:
        raise InputError(f"{rel}: no front matter (expected a '---' YAML block with id, title, ...)")
    try:
        meta = _FrontMatter.model_validate(post.metadata, context={"categories": categories})
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "front matter"
        message = "unknown key" if err["type"] == "extra_forbidden" else err["msg"]
        raise InputError(f"{rel}: field '{field}': {message}") from None
    body = normalise_text(post.content)
    if not body:
        raise InputError(f"{rel}: empty body (the rule text goes below the front matter)")
    return Rule(
        id=meta.id,
        title=meta.title,
        section=tuple(meta.section),
        targets=tuple(meta.targets),
        status=meta.status,
        body=body,
        variants=dict(meta.variants),
        path=rel,
        provenance=meta.provenance,
    )


def load_rules(rules_dir: Path, categories: list[str] | None = None) -> RuleLibrary:
    """Load and validate every ``*.md`` under ``rules_dir``; ids must be unique; ``targets`` must
    be among ``categories`` (the suite's) when given."""
    if not rules_dir.is_dir():
        raise InputError(f"{rules_dir}: rules folder not found")
    rules: dict[str, Rule] = {}
    for path in sorted(rules_dir.rglob("*.md")):
        rule = _parse_rule(path, rules_dir, categories)
        if rule.id in rules:
            raise InputError(f"{rule.path}: field 'id': duplicate id '{rule.id}' (also in {rules[rule.id].path})")
        rules[rule.id] = rule
    return RuleLibrary(rules=dict(sorted(rules.items())))
