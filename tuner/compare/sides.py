"""What ``--before`` / ``--after`` name: a rule set (name or YAML file), a published guideline
(``NAME`` for its current version, ``NAME@VERSION`` for one in its history; the forms ``tune
--baseline`` and ``guidelines diff`` take) or a stored run (id or prefix).

A set name wins over a run prefix that happens to spell the same thing: set names are words, run
ids are hex, and a person who typed ``none`` means the set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tuner.errors import InputError, NotFoundError
from tuner.guidelines import RuleSet
from tuner.hashing import short
from tuner.store import RunRecord

__all__ = ["Side", "resolve_side", "file_label"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class Side:
    token: str
    label: str
    rule_set: RuleSet | None = None
    run: RunRecord | None = None
    offset: int = 0

    @property
    def kind(self) -> str:
        return "run" if self.run is not None else "set"


def _is_set(h, token: str) -> bool:
    path = Path(token)
    return (path.suffix in (".yaml", ".yml") and path.is_file()) or token in h.guidelines.set_names()


def resolve_side(h, token: str, offset: int, option: str) -> Side:
    """``h`` is a ``tuner.runs.Harness``; ``option`` names the flag in error messages."""
    if _is_set(h, token):
        rule_set = h.guidelines.load_set(token)
        return Side(token=token, label=rule_set.name, rule_set=rule_set, offset=offset)
    published = _published(h, token, option)
    if published is not None:
        return Side(token=token, label=token, rule_set=published, offset=offset)
    try:
        run = h.existing_store().run(token)
    except NotFoundError:
        known = ", ".join(h.guidelines.set_names())
        raise NotFoundError(f"{option} {token!r}: neither a rule set (known: {known}) nor a stored run") from None
    if offset:
        raise InputError(
            f"{option}-offset applies to a rule set; run {short(run.id)} was recorded at sample offset {run.sample_offset}"
        )
    return Side(token=token, label=f"run-{short(run.id, 8)}", run=run, offset=run.sample_offset)


def _published(h, token: str, option: str) -> RuleSet | None:
    """The published selection ``token`` names, as a set; None when it names no published file."""
    from tuner.guidelines import resolve_ref

    root = h.project.published_dir
    name, at, version = token.partition("@")
    if not name or not (root / name).is_dir() or _UNSAFE.search(name):
        return None
    if not at and not (root / name / "manifest.json").is_file():
        return None
    refs = resolve_ref(h.guidelines, token)  # NotFoundError names the missing version file
    library = h.guidelines.library
    for rid, ref in refs.items():
        # The published file was composed from rule texts that may have been edited since: a run
        # of today's text under the published name would measure something that was not published.
        if rid not in library.rules:
            raise InputError(f"{option} {token!r}: rule '{rid}' no longer exists in guidelines/rules")
        rule = library.get(rid)
        if ref.variant not in rule.variant_names or rule.hash(ref.variant) != ref.hash:
            raise InputError(
                f"{option} {token!r}: rule '{rid}' changed since it was published (compare a stored run of it instead)"
            )
    rule_set = RuleSet.from_selection(token, {rid: r.variant for rid, r in sorted(refs.items())})
    manifest = root / name / ("history" if at else "") / (f"{version}.json" if at else "manifest.json")
    published_hash = _prompt_hash(manifest)
    if published_hash and h.guidelines.compose(rule_set).hash != published_hash:
        raise InputError(
            f"{option} {token!r}: today's template composes a different prompt than the published one "
            "(compare a stored run of it instead)"
        )
    return rule_set


def _prompt_hash(manifest: Path) -> str | None:
    import json

    try:
        return json.loads(manifest.read_text(encoding="utf-8")).get("prompt_hash")
    except (OSError, ValueError, AttributeError):
        return None


def file_label(side: Side) -> str:
    """A file-name-safe label for report names."""
    return _UNSAFE.sub("-", side.label).strip("-") or "side"
