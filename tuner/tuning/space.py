"""The search space of a tuning study: each rule is off or on in one of its phrasings."""

from __future__ import annotations

from tuner.guidelines import Rule, RuleLibrary
from tuner.hashing import sha256_json

__all__ = ["OFF", "choices", "rule_pool", "params_of", "selection_hash", "selection_of"]

OFF = "off"


def rule_pool(library: RuleLibrary, statuses: tuple[str, ...] = ("active", "candidate")) -> list[Rule]:
    return [r for r in library if r.status in statuses]


def choices(rule: Rule) -> list[str]:
    return [OFF, *rule.variant_names]


def selection_of(params: dict[str, str]) -> dict[str, str]:
    return {rid: v for rid, v in sorted(params.items()) if v != OFF}


def params_of(selection: dict[str, str], pool_ids: list[str]) -> dict[str, str]:
    """The parameters that reproduce ``selection`` (used to enqueue the baseline as trial 0)."""
    return {rid: selection.get(rid, OFF) for rid in pool_ids}


def selection_hash(selection: dict[str, str]) -> str:
    """A selection's identity by content ({rule id: phrasing}, order-free)."""
    return sha256_json(dict(sorted(selection.items())))
