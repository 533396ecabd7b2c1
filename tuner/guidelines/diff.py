"""Differences between two rule selections: sets or published versions.

A reference is one of: a set name (``all-active``), a set file (``path/to/set.yaml``), a published
guideline name (``convex_rules``: its current manifest), a published version (``convex_rules@1.2.0``)
or a manifest file (``path/to/manifest.json``). Rules are compared by content hash, so a changed
phrasing or edited text shows as "changed" even when the id is the same.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from tuner.errors import InputError, NotFoundError

__all__ = ["RuleRef", "SelectionDiff", "resolve_ref", "diff_refs"]


class RuleRef(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    variant: str
    hash: str


class SelectionDiff(BaseModel):
    before: str
    after: str
    added: list[RuleRef]
    removed: list[RuleRef]
    changed: list[tuple[RuleRef, RuleRef]]
    unchanged: list[str]

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)


def _from_manifest(path: Path) -> dict[str, RuleRef]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        rules = data["rules"]
        return {r["id"]: RuleRef(id=r["id"], variant=r.get("variant", "default"), hash=r["hash"]) for r in rules}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{path}: not a published manifest ({type(exc).__name__}: {exc})") from None


def resolve_ref(guidelines, ref: str) -> dict[str, RuleRef]:
    """``{rule_id: RuleRef}`` for any reference form described in the module docstring."""
    published = guidelines.project.published_dir
    path = Path(ref)
    if path.suffix == ".json" and path.is_file():
        return _from_manifest(path)
    if "@" in ref:
        name, version = ref.split("@", 1)
        candidate = published / name / "history" / f"{version}.json"
        if not candidate.is_file():
            raise NotFoundError(f"unknown published version '{ref}' (no {candidate})")
        return _from_manifest(candidate)
    if (published / ref / "manifest.json").is_file():
        return _from_manifest(published / ref / "manifest.json")
    prompt = guidelines.compose(guidelines.load_set(ref))
    return {r.id: RuleRef(id=r.id, variant=r.variant, hash=r.hash) for r in prompt.rules}


def diff_refs(guidelines, before: str, after: str) -> SelectionDiff:
    a, b = resolve_ref(guidelines, before), resolve_ref(guidelines, after)
    return SelectionDiff(
        before=before,
        after=after,
        added=[b[i] for i in sorted(b.keys() - a.keys())],
        removed=[a[i] for i in sorted(a.keys() - b.keys())],
        changed=[(a[i], b[i]) for i in sorted(a.keys() & b.keys()) if a[i].hash != b[i].hash],
        unchanged=[i for i in sorted(a.keys() & b.keys()) if a[i].hash == b[i].hash],
    )
