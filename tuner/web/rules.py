"""A rule as a first-class page: its text and versions, where it is used, and every effect measured
for it, per category and model, with the interval and the rule that decided each verdict.

Versions are content hashes (``Rule.hash``): those of the current file, of every stored prompt that
held the rule, and of every published manifest. Effects come from the experiments in the store
(ablations, and tunes' evidence for their winners' rules) and from ablation reports on disk that the
store does not hold (a report copied from elsewhere), each counted once.
"""

from __future__ import annotations

import json
from datetime import datetime

from tuner.errors import NotFoundError
from tuner.store.prompts import prompt_rules
from tuner.store.runs import prompt_first_use

__all__ = ["rule_page", "decided_by", "all_rules"]


def _libraries(project, suites) -> list:
    """The guidelines of the project's chosen suite and of every suite that brings its own."""
    from dataclasses import replace

    from tuner.evals import suite_categories
    from tuner.guidelines import Guidelines

    out, seen = [], set()
    for p in [project, *(replace(project, suite_path=s.root) for s in suites)]:
        try:
            key = p.guidelines.resolve()
        except OSError:
            continue
        if key not in seen and p.rules_dir.is_dir():
            seen.add(key)
            out.append(Guidelines(p, suite_categories(p)))
    return out


def all_rules(project, suites) -> list:
    """Every rule of the project and of the suites that bring their own guidelines, by id."""
    out = {}
    for g in _libraries(project, suites):
        try:
            for r in g.library:
                out.setdefault(r.id, r)
        except Exception:  # noqa: BLE001 - a broken rule file elsewhere must not break browsing
            continue
    return [out[k] for k in sorted(out)]


def decided_by(effect: dict, design: str, adaptive: dict | None) -> str:
    """Which rule turned this effect's interval into its verdict (reports show both kinds side by side)."""
    if design == "adaptive" or effect.get("decided_round") is not None:
        a = adaptive or {}
        zone = a.get("delta0"), a.get("delta")
        zone_text = f" (zone ±{zone[0]:.0%} / ±{zone[1]:.0%})" if None not in zone else ""
        look = effect.get("decided_round")
        return (
            f"adaptive design{zone_text}: the interval of look {look} lies beyond or within the zone"
            if look is not None
            else f"adaptive design{zone_text}: no look decided it before the budget ran out"
        )
    q = effect.get("q_value")
    return f"fixed design: BH q = {q:.3f} against alpha 0.05" if q is not None else "fixed design: no q-value"


def _measured(store, project, rule_id: str, suite_of=None) -> list[dict]:
    from tuner.web.effects import measured_effects

    effects = [e for e in measured_effects(store, project, suite_of) if e["rule"] == rule_id]
    effects.sort(key=lambda e: (e["category"], e["model"], e["source"]))
    return effects


def _versions(store, project, rule_id: str, current: dict[str, str]) -> list[dict]:
    """Every hash of the rule seen: now (per variant), in stored prompts (first run using it), in manifests."""
    seen: dict[str, dict] = {}

    def version(h: str, variant: str) -> dict:
        return seen.setdefault(h, {"hash": h, "variant": variant, "where": [], "first_run": None, "prompts": 0})

    for variant, h in current.items():
        version(h, variant)["where"].append("the rule file now")
    first_use = prompt_first_use(store)
    for phash, rules in prompt_rules(store):
        for rid, variant, h in rules:
            if rid != rule_id:
                continue
            v = version(h, variant)
            v["prompts"] += 1
            first = first_use.get(phash)
            if first is not None and (v["first_run"] is None or first < v["first_run"]):
                v["first_run"] = first
    for name, ver, rules in _manifests(project):
        for r in rules:
            if r.get("id") == rule_id:
                version(r["hash"], r.get("variant", "default"))["where"].append(f"published {name}@{ver}")
    out = list(seen.values())
    out.sort(key=lambda v: (v["first_run"] is None, v["first_run"] or datetime.min))
    return out


def _manifests(project) -> list[tuple[str, str, list[dict]]]:
    root = project.published_dir
    out = []
    for path in sorted(root.glob("*/history/*.json")) if root.is_dir() else []:
        try:
            body = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        out.append((path.parent.parent.name, path.stem, body.get("rules") or [] if isinstance(body, dict) else []))
    for path in sorted(root.glob("*/manifest.json")) if root.is_dir() else []:
        try:
            body = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(body, dict):
            out.append((path.parent.name, str(body.get("version", "current")), body.get("rules") or []))
    return out


def rule_page(store, project, suites, rule_id: str, suite_of=None) -> dict:
    rule, sets, libs = None, [], _libraries(project, suites)
    for g in libs:
        if rule_id in g.library.rules:
            rule = rule or g.library.get(rule_id)
            for name in g.set_names():
                try:
                    if rule_id in g.load_set(name).select(g.library):
                        sets.append(name)
                except Exception:  # noqa: BLE001 - a broken set elsewhere must not hide this rule
                    continue
    effects = _measured(store, project, rule_id, suite_of)
    if rule is None and not effects:
        raise NotFoundError(f"unknown rule '{rule_id}'")
    current = {v: rule.hash(v) for v in rule.variant_names} if rule else {}
    published = sorted(
        {f"{n}@{v}" for n, v, rules in _manifests(project) if any(r.get("id") == rule_id for r in rules)}
    )
    return {
        "rule_id": rule_id,
        "rule": rule,
        "variants": {v: rule.text(v) for v in rule.variant_names} if rule else {},
        "versions": _versions(store, project, rule_id, current),
        "sets": sorted(set(sets)),
        "published": published,
        "effects": effects,
    }
