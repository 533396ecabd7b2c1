"""What ``--before`` / ``--after`` name: a rule set (name or YAML file) or a stored run (id or prefix).

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


def file_label(side: Side) -> str:
    """A file-name-safe label for report names."""
    return _UNSAFE.sub("-", side.label).strip("-") or "side"
