"""Named rule sets: which rules (and which phrasing of each) make up a prompt.

``guidelines/sets/<name>.yaml``::

    description: Every active rule.
    template: default          # a file in guidelines/templates/
    statuses: [active]         # start from every rule with one of these statuses
    include: [style.*]         # then add these ids (fnmatch patterns allowed)
    exclude: [actions.crons-syntax]   # then remove these
    variants: {functions.args-validators: terse}   # phrasing per rule (default: the file body)

Sets are also built in code (tuning proposes them); ``RuleSet.from_selection`` does that.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from tuner.errors import InputError, NotFoundError
from tuner.guidelines._yaml import load_model
from tuner.guidelines.rules import DEFAULT_VARIANT, RuleLibrary

__all__ = ["RuleSet", "load_set", "list_sets"]


class RuleSet(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = ""
    description: str = ""
    template: str = "default"
    statuses: list[str] = Field(default_factory=list)
    include: list[str] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=list)
    variants: dict[str, str] = Field(default_factory=dict)

    @classmethod
    def from_selection(cls, name: str, selection: dict[str, str], template: str = "default") -> RuleSet:
        """An explicit set: exactly these rule ids, each with its variant."""
        variants = {rid: v for rid, v in selection.items() if v != DEFAULT_VARIANT}
        return cls(name=name, template=template, include=sorted(selection), variants=variants)

    def select(self, library: RuleLibrary) -> dict[str, str]:
        """Resolve to ``{rule_id: variant}``, sorted by id; unknown ids are errors."""
        chosen = {r.id for r in library if r.status in self.statuses}
        chosen |= self._match(library, self.include, "include")
        chosen -= self._match(library, self.exclude, "exclude")
        for rid, variant in self.variants.items():
            rule = library.get(rid) if rid in library.rules else None
            if rule is None:
                raise NotFoundError(f"set '{self.name}': field 'variants': unknown rule id '{rid}'")
            if rid not in chosen:
                raise InputError(
                    f"set '{self.name}': field 'variants': rule '{rid}' is not in the set (status {rule.status})"
                )
            if variant not in rule.variant_names:
                raise NotFoundError(
                    f"set '{self.name}': field 'variants.{rid}': unknown variant '{variant}' "
                    f"(has: {', '.join(rule.variant_names)})"
                )
        return {rid: self.variants.get(rid, DEFAULT_VARIANT) for rid in sorted(chosen)}

    def _match(self, library: RuleLibrary, patterns: list[str], field: str) -> set[str]:
        found: set[str] = set()
        for pattern in patterns:
            hits = {rid for rid in library.rules if fnmatch.fnmatchcase(rid, pattern)}
            if not hits:
                raise NotFoundError(f"set '{self.name}': field '{field}': unknown rule id '{pattern}'")
            found |= hits
        return found


def list_sets(sets_dir: Path) -> list[str]:
    return sorted(p.stem for p in sets_dir.glob("*.yaml"))


def load_set(sets_dir: Path, name_or_path: str) -> RuleSet:
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml") and path.is_file():
        name = path.stem
    else:
        path = sets_dir / f"{name_or_path}.yaml"
        name = name_or_path
        if not path.is_file():
            known = ", ".join(list_sets(sets_dir)) or "none"
            raise NotFoundError(f"unknown set '{name_or_path}' (known: {known})")
    rule_set = load_model(path, RuleSet, label=str(path))
    if rule_set.name and rule_set.name != name:
        raise InputError(f"{path}: field 'name': '{rule_set.name}' differs from the file name '{name}'")
    return rule_set.model_copy(update={"name": name})
