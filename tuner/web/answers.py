"""What an experiment decided, as its page leads with it, read from what its command recorded.

Nothing here decides anything: a tune's decision and reasons are its recorded acceptance, an
ablation's verdicts its recorded effects, a compare's its recorded cells. What this module adds is
arrangement (counts of recorded verdicts, the winner's changes as the two recorded selections
differ) and navigation (the two runs whose side by side shows why a change was refused). A store
from before a field was recorded shows what it has and says what it lacks.
"""

from __future__ import annotations

import re

from tuner.store.runs import run_facts
from tuner.store.studies import trial_attributes

__all__ = ["headline", "verdict_counts", "tune_answer", "ablate_answer", "compare_answer", "run_answer", "report_of"]

_EFFECT_ORDER = ("helps", "hurts", "no meaningful effect", "undecided", "no detectable effect")
_FINDINGS = ("helps", "hurts")


def verdict_counts(effects: list[dict]) -> dict[str, int]:
    """{verdict: cells} of recorded effects, in reading order (every verdict present, zeros kept for the four
    the rule-effect engine gives)."""
    counts = (
        {v: 0 for v in _EFFECT_ORDER[:4]}
        if any(e.get("verdict") in _EFFECT_ORDER[:4] for e in effects) or not effects
        else {}
    )
    for e in effects:
        v = e.get("verdict") or "no verdict recorded"
        counts[v] = counts.get(v, 0) + 1
    return counts


def _counts_text(counts: dict[str, int]) -> str:
    words = {"no meaningful effect": "no effect", "no detectable effect": "not significant"}
    return " · ".join(f"{n} {words.get(v, v)}" for v, n in counts.items())


def headline(exp: dict) -> str:
    """One line for the home page: the experiment's answer as recorded (or its state while it has none)."""
    result, kind = exp.get("result") or {}, exp["kind"]
    if not result:
        return {
            "running": "running: no answer yet",
            "interrupted": "interrupted: the same command resumes it",
            "failed": "failed",
        }.get(exp.get("status") or "", "no result recorded")
    if kind == "tune":
        a = result.get("acceptance") or {}
        decision = a.get("decision")
        if not decision:
            return "no decision recorded (a tune from before decisions were recorded)"
        reasons = a.get("reasons") or []
        up = [c for c in a.get("cells") or [] if c.get("check") == "improved"]
        if decision == "accepted" and up:
            reasons = [f"{up[0]['category']} improved on fresh samples ({_pct(up[0])}); publish it"]
        line = f"{decision}: {reasons[0]}" if reasons else decision
        return line if len(line) <= 160 else line[:157] + "..."
    if kind == "ablate":
        return _counts_text(verdict_counts(result.get("effects") or []))
    if kind == "compare":
        line = (
            f"{result.get('improvements', 0)} improved · {result.get('regressions', 0)} regressed · "
            f"{result.get('not_measured', 0)} not measured"
        )
        return line
    if kind == "run":
        rates = [r.get("overall") or {} for r in (result.get("runs") or {}).values()]
        shown = [f"{r['pass_rate']:.0%}" for r in rates if r.get("pass_rate") is not None]
        return f"pass rate {', '.join(shown)}" if shown else ""
    if kind == "publish":
        gate = result.get("gate") or {}
        return f"gate: {gate.get('status', 'not recorded')}"
    return ""


def report_of(project, exp: dict) -> str | None:
    """The report the experiment's command wrote by default (a path under reports/), if it is there."""
    from tuner.hashing import short

    root = project.reports
    kind = exp["kind"]
    if kind == "tune":
        candidates = [root / "tune" / f"{exp['name']}.md"]
    elif kind in ("ablate", "compare"):
        folder = root / kind
        candidates = sorted(folder.glob(f"*_{short(exp['id'], 8)}.md")) if folder.is_dir() else []
    else:
        candidates = []
    found = next((p for p in candidates if p.is_file()), None)
    return found.relative_to(root).as_posix() if found else None


# --- tune ---------------------------------------------------------------------------------------


def _changes(baseline: dict[str, str], best: dict[str, str]) -> list[dict]:
    """The winner as changes to the baseline: rules added, dropped, or switched to another phrasing."""
    out = []
    for rid in sorted(set(baseline) | set(best)):
        if rid not in baseline:
            out.append({"kind": "add", "rule": rid, "variant": best[rid]})
        elif rid not in best:
            out.append({"kind": "drop", "rule": rid})
        elif baseline[rid] != best[rid]:
            out.append({"kind": "phrasing", "rule": rid, "variant": best[rid], "was": baseline[rid]})
    return out


def _trial_attrs(store, study: str) -> list[dict]:
    """The study's finished trials with the attributes the side by side needs (Optuna's tables in the
    store's database, when the study was stored there)."""
    return trial_attributes(store, study, ["baseline", "constraint", "run_ids", "regressed"])


def _model_keys(store, run_ids: list[str]) -> dict[str, tuple[str, str]]:
    """{run id: (model key, model)}."""
    return {rid: (f.model_key, f.model) for rid, f in run_facts(store, run_ids).items()}


def _pairs(store, before: list[str], after: list[str]) -> list[dict]:
    """Runs of the two sides paired by model (the side by side compares one model's two runs)."""
    keys = _model_keys(store, [*before, *after])
    by_key = {keys[r][0]: r for r in before if r in keys}
    return [
        {"model": keys[r][1], "before": by_key[keys[r][0]], "after": r}
        for r in after
        if r in keys and keys[r][0] in by_key
    ]


# A cell as the check records it: "model · category" (a model label may hold parentheses, never " · ").
_CELL = re.compile(r"^(?P<model>.+) · (?P<category>[^·:()]+?)(?: \((?P<split>fresh|held-out)\))?(?::.*)?$")


def _refused_trial(store, study: str) -> dict | None:
    """The first candidate the regression check refused, with its runs and the baseline trial's."""
    trials = _trial_attrs(store, study)
    base = next((t for t in trials if t.get("baseline")), None)
    refused = next((t for t in trials if not t.get("baseline") and (t.get("constraint") or 0) > 0), None)
    if base is None or refused is None:
        return None
    named = [c for c in refused.get("regressed") or [] if isinstance(c, str)]
    cells = [m.groupdict() for c in named if (m := _CELL.match(c))]
    return {
        "trial": refused["number"],
        "cells": named,
        "category": cells[0]["category"] if cells else None,
        "pairs": _pairs(store, base.get("run_ids") or [], refused.get("run_ids") or []),
    }


def _confirm_pairs(store, exp_id: str) -> list[dict]:
    """The confirmation's first round: baseline and winner runs on the same fresh samples, by model."""
    rows = list(run_facts(store, (), experiment=exp_id, role="confirm").values())
    if not rows:
        return []
    first = min(r.sample_offset for r in rows)
    arm = lambda name: [r.id for r in rows if r.set_name == name and r.sample_offset == first]  # noqa: E731
    return _pairs(store, arm("baseline"), arm("winner"))


def _pct(c: dict) -> str:
    if c.get("delta") is None:
        return "n/a"
    interval = f" [{c['lo']:+.0%}, {c['hi']:+.0%}]" if c.get("lo") is not None and c.get("hi") is not None else ""
    return f"{c['delta']:+.0%}{interval}"


def tune_answer(store, project, exp: dict) -> dict:
    """The tune's decision and why, the winner's changes, what the screening found, and where to see it."""
    result = exp.get("result") or {}
    acceptance = result.get("acceptance") or {}
    baseline, best = result.get("baseline_selection") or {}, result.get("best_selection") or {}
    screening = result.get("screening") or {}
    effects = result.get("rule_effects") or []
    target = result.get("category") or (exp.get("config") or {}).get("category")
    decision = acceptance.get("decision")
    show = None  # the side by side that shows why
    if decision == "withheld":
        down = [c for c in acceptance.get("cells") or [] if c.get("check") in ("regressed", "no gain")]
        worst = next((c for c in down if c.get("check") == "regressed"), down[0] if down else None)
        pairs = _confirm_pairs(store, exp["id"])
        if pairs:
            show = {
                "what": "the confirmation's first round, baseline and winner on the same fresh samples",
                "category": worst.get("category") if worst else target,
                "pairs": pairs,
            }
    elif decision == "accepted":
        pairs = _confirm_pairs(store, exp["id"])
        if pairs:
            show = {
                "what": "the confirmation's first round, baseline and winner on the same fresh samples",
                "category": target,
                "pairs": pairs,
            }
    elif decision == "no change" and screening.get("changes"):
        refused = _refused_trial(store, exp["name"])
        if refused and refused["pairs"]:
            show = {
                "what": f"the regression check: the baseline's trial and trial {refused['trial']} (the refused change)",
                "category": refused["category"],
                "pairs": refused["pairs"],
            }
    decided = [e for e in effects if e.get("verdict") in _FINDINGS]
    reasons = list(acceptance.get("reasons") or [])
    if decision == "accepted" and not reasons:
        # An accepted winner records no reasons: the cells its decision read say why.
        cells = acceptance.get("cells") or []
        up = [c for c in cells if c.get("check") == "improved"]
        reasons = [f"{c['model']} · {c['category']} ({c['split']}) improved: {_pct(c)}" for c in up]
        drops = acceptance.get("drops") or []
        reasons.append(
            f"no drop is established in another cell ({len(drops)} tested)"
            if drops
            else f"no other cell points down ({len(cells) - len(up)} checked)"
        )
        ruled_out = acceptance.get("noninferiority") or []  # recorded since the acceptance requires it
        if ruled_out:
            reasons.append(
                f"a drop of more than {ruled_out[0]['margin'] * 100:.0f} points is ruled out in every other "
                f"category ({len(ruled_out)} cells)"
            )
    return {
        "decision": decision,
        "reasons": reasons,
        "target": target,
        "baseline": result.get("baseline") or (exp.get("config") or {}).get("baseline"),
        "recorded": bool(result),
        "changes": _changes(baseline, best) if best else [],
        "screened": {
            "changes": screening.get("changes") or [],
            "chosen_by": screening.get("chosen_by"),
            "questions": screening.get("factors"),
            "stopped": (screening.get("engine") or {}).get("stopped"),
            "leads": screening.get("leads") or [],
            "continue": screening.get("continue"),
        }
        if screening
        else None,
        "counts": verdict_counts(effects),
        "decided": decided,
        "helps": result.get("found_helpful") or [],
        "hurts": result.get("found_harmful") or [],
        "cells": [c for c in acceptance.get("cells") or []],
        # A winner withheld by the acceptance's margin: the command whose cap rules it out (``margin_cap``).
        "margin_continue": (result.get("confirmation") or {}).get("margin_continue"),
        "show": show,
        "report": report_of(project, exp),
        "publish": decision == "accepted",
    }


# --- ablate, compare, run -----------------------------------------------------------------------


def ablate_answer(project, exp: dict) -> dict:
    result = exp.get("result") or {}
    effects = result.get("effects") or []
    decided = sorted(
        (e for e in effects if e.get("verdict") in (*_FINDINGS, "no meaningful effect")),
        key=lambda e: (e.get("verdict") not in _FINDINGS, e.get("category", ""), -abs(e.get("delta") or 0)),
    )
    adaptive = result.get("adaptive") or {}
    return {
        "counts": verdict_counts(effects),
        "decided": decided,
        "cells": len(effects),
        "design": result.get("design"),
        "stopped": adaptive.get("stopped"),
        "budget": adaptive.get("budget_calls"),
        "leads": adaptive.get("leads") or [],
        "continue": adaptive.get("continue"),
        "report": report_of(project, exp),
    }


def compare_answer(project, exp: dict) -> dict:
    result = exp.get("result") or {}
    cells = [c for c in result.get("cells") or [] if isinstance(c, dict) and "category" in c]
    return {
        "cells": cells,
        "recorded": bool(cells),
        "report": report_of(project, exp),
        "improvements": result.get("improvements", 0),
        "regressions": result.get("regressions", 0),
        "not_measured": result.get("not_measured", 0),
        "exit_code": result.get("exit_code"),
        "placebo": result.get("placebo") if isinstance(result.get("placebo"), dict) else None,
        "helps": [h for h in result.get("helps") or [] if isinstance(h, dict) and "claim" in h],
    }


def run_answer(exp: dict) -> dict:
    return {"runs": (exp.get("result") or {}).get("runs") or {}}
