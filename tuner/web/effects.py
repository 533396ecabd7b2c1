"""Which rules help which category: every measured rule effect in the store (ablations, tunes'
screenings and evidence) and in ablation reports on disk the store does not hold, and the latest
verdict per model x rule x category across them.

"Latest" prefers a decision: the newest experiment that decided the cell (helps, hurts, no
meaningful effect) speaks for it; a cell no experiment decided shows the newest measurement, open.
A later experiment that ran out of budget on a cell does not hide an earlier one's decision, and
every cell names its source, so the reader can open the experiment that decided it. Each verdict
is the recorded one; nothing is estimated here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime

from tuner.store.experiments import experiment_suites

__all__ = ["measured_effects", "effect_matrix", "rule_summaries", "DECIDED"]

DECIDED = ("helps", "hurts", "no meaningful effect")


def _decided_by(effect: dict, design: str, adaptive: dict | None) -> str:
    from tuner.web.rules import decided_by

    return decided_by(effect, design, adaptive)


def _from_source(source: dict, *, href: str, label: str, when, suite: str | None) -> list[dict]:
    out = []
    tune = "rule_effects" in source
    design = source.get("design") or ("tune evidence" if tune else "")
    adaptive = source.get("adaptive") or (source.get("evidence") if tune else None)
    for e in source.get("effects") or source.get("rule_effects") or []:
        if not isinstance(e, dict) or not e.get("rule") or not e.get("category"):
            continue
        out.append(
            {
                **e,
                "source": label,
                "href": href,
                "when": when,
                "suite": suite,
                "design": design or "adaptive",
                "decided_by": _decided_by(e, "adaptive" if tune else design, adaptive),
            }
        )
    return out


def measured_effects(store, project, suite_of: Callable[[list[str]], str | None] | None = None) -> list[dict]:
    """Every recorded effect, each with its source (label, link, when) and suite."""
    exps = [e for e in store.experiments() if e["kind"] in ("ablate", "tune") and e.get("result")]
    suites = experiment_suites(store, [e["id"] for e in exps])
    effects, seen = [], set()
    for exp in exps:
        seen.add(exp["id"])
        config = exp.get("config") or {}
        suite = suites.get(exp["id"]) or (config.get("suite") if isinstance(config.get("suite"), str) else None)
        if suite is None and suite_of is not None:
            evals = config.get("evals") or config.get("eval_ids") or (exp["result"] or {}).get("eval_ids")
            suite = suite_of(evals) if isinstance(evals, list) else None
        effects += _from_source(
            exp["result"],
            href=f"/experiments/{exp['id']}",
            label=f"{exp['kind']} {exp['name']}",
            when=exp.get("updated_at"),
            suite=suite,
        )
    folder = project.reports / "ablate"
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            body = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(body, dict) or body.get("id") in seen or "effects" not in body:
            continue
        rel = path.with_suffix(".md").relative_to(project.reports).as_posix()
        evals = body.get("eval_ids")
        effects += _from_source(
            body,
            href=f"/reports/{rel}",
            label=f"report {path.stem}",
            when=datetime.fromtimestamp(path.stat().st_mtime),
            suite=suite_of(evals) if suite_of and isinstance(evals, list) else None,
        )
    return effects


def _newest(effects: list[dict]) -> dict:
    return max(effects, key=lambda e: (e.get("when") or datetime.min, e["source"]))


def effect_matrix(effects: list[dict], *, suite: str = "", model: str = "", order: list[str] | None = None) -> dict:
    """The latest verdict per model x rule x category, and per category the rules that help and hurt it.

    ``order``: the categories in the suite's order (others follow, sorted)."""
    chosen = [e for e in effects if (not suite or e.get("suite") == suite) and (not model or e["model"] == model)]
    groups: dict[tuple[str, str, str], list[dict]] = {}
    for e in chosen:
        groups.setdefault((e["model"], e["rule"], e["category"]), []).append(e)
    latest: dict[tuple[str, str, str], dict] = {}
    for key, es in groups.items():
        decided = [e for e in es if e.get("verdict") in DECIDED]
        latest[key] = {**_newest(decided or es), "measurements": len(es)}
    cats_seen = {c for _, _, c in latest}
    categories = [c for c in (order or []) if c in cats_seen] + sorted(cats_seen - set(order or []))
    models = sorted({m for m, _, _ in latest})
    per_model = {
        m: {
            "rules": sorted({r for mm, r, _ in latest if mm == m}),
            "cells": {(r, c): e for (mm, r, c), e in latest.items() if mm == m},
        }
        for m in models
    }
    by_category = {}
    for c in categories:
        cells = [e for (m, r, cc), e in latest.items() if cc == c]
        by_category[c] = {
            "helps": sorted((e for e in cells if e.get("verdict") == "helps"), key=lambda e: -(e.get("delta") or 0)),
            "hurts": sorted((e for e in cells if e.get("verdict") == "hurts"), key=lambda e: e.get("delta") or 0),
            "no_effect": sum(1 for e in cells if e.get("verdict") == "no meaningful effect"),
            "open": sum(1 for e in cells if e.get("verdict") not in DECIDED),
        }
    return {
        "models": models,
        "categories": categories,
        "per_model": per_model,
        "by_category": by_category,
        "cells": len(latest),
    }


def rule_summaries(matrix: dict) -> dict[str, dict]:
    """{rule: {helps: [categories], hurts: [...], no_effect: n, open: n}} over every model, for the rules list."""
    out: dict[str, dict] = {}
    for m, data in matrix["per_model"].items():
        for (rule, cat), e in data["cells"].items():
            s = out.setdefault(rule, {"helps": [], "hurts": [], "no_effect": 0, "open": 0})
            v = e.get("verdict")
            label = cat if len(matrix["models"]) == 1 else f"{cat} ({m})"
            if v == "helps":
                s["helps"].append(label)
            elif v == "hurts":
                s["hurts"].append(label)
            elif v == "no meaningful effect":
                s["no_effect"] += 1
            else:
                s["open"] += 1
    return out
