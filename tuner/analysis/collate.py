"""From verdicts to conclusions: patterns, repeats from earlier reports, recommendations, net impact."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Collection
from pathlib import Path

from pydantic import BaseModel

from tuner.analysis.analyst import CLASSIFICATIONS, UNCLASSIFIED, Verdict
from tuner.analysis.failures import FailureSummary
from tuner.hashing import short

__all__ = ["Recommendation", "Repeat", "Collation", "collate", "earlier_reports", "GROUPS"]

GROUPS = ("eval improvements", "lint or config changes", "model-specific notes", "no action needed")


class Recommendation(BaseModel):
    group: str
    text: str
    evals: list[str]


class Repeat(BaseModel):
    eval_id: str
    classification: str
    earlier: list[dict]  # [{report, date, classification}]
    recommendation: str | None = None  # an earlier recommendation that should have fixed it


class Collation(BaseModel):
    counts: dict[str, int]
    shared_causes: list[dict]  # [{cause, evals}]
    harder_categories: list[dict]  # [{category, failed, scored, rate}]
    repeats: list[Repeat]
    recommendations: list[Recommendation]
    actionable: int
    model_faults: int
    unclassified: int
    pass_rate_if_fixed: float | None


def earlier_reports(folder: Path, exclude: Path, run_id: str) -> list[dict]:
    """The JSON twins of earlier analyses of this model (other runs), oldest first; unreadable ones skipped."""
    out = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        if path.resolve() == exclude.resolve():
            continue
        try:
            body = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(body, dict) and body.get("kind") == "analysis" and body.get("run_id") != run_id:
            out.append({**body, "_file": path.name})
    return sorted(out, key=lambda b: (b.get("date", ""), b["_file"]))


def _norm(cause: str) -> str:
    return re.sub(r"\s+", " ", cause.strip().lower().rstrip("."))


def _repeats(verdicts: list[Verdict], earlier: list[dict]) -> list[Repeat]:
    out = []
    for v in verdicts:
        seen, fix = [], None
        for body in earlier:
            for old in body.get("verdicts", []):
                if old.get("eval_id") == v.eval_id:
                    seen.append(
                        {
                            "report": body["_file"],
                            "date": body.get("date", ""),
                            "classification": old.get("classification", ""),
                        }
                    )
            for rec in body.get("recommendations", []):
                if v.eval_id in rec.get("evals", []) and rec.get("group") != "no action needed":
                    fix = f"{rec.get('text', '')} ({body['_file']})"
        if seen:
            out.append(Repeat(eval_id=v.eval_id, classification=v.classification, earlier=seen, recommendation=fix))
    return out


def _recommendations(s: FailureSummary, verdicts: list[Verdict], tool_steps: Collection[str]) -> list[Recommendation]:
    recs: list[Recommendation] = []
    faults: dict[tuple[str, str], list[str]] = defaultdict(list)
    for v in verdicts:
        if v.classification == "OVERLY_STRICT":
            group = "lint or config changes" if v.failed_step in tool_steps else "eval improvements"
            what = (
                f"the {v.failed_step} setting behind"
                if group == "lint or config changes"
                else f"the grader of {v.eval_id} ({v.failed_step}):"
            )
            recs.append(
                Recommendation(
                    group=group,
                    text=f"Review {what} it rejected an acceptable answer: {v.error_line}",
                    evals=[v.eval_id],
                )
            )
        elif v.classification == "AMBIGUOUS_TASK":
            recs.append(
                Recommendation(
                    group="eval improvements",
                    text=f"Clarify the task of {v.eval_id}: {v.reasoning or v.error_line}",
                    evals=[v.eval_id],
                )
            )
        elif v.classification == "MODEL_FAULT":
            faults[(v.category, _norm(v.root_cause) or v.error_line)].append(v.eval_id)
        elif v.classification == "KNOWN_GAP":
            recs.append(
                Recommendation(
                    group="no action needed",
                    text=f"{v.eval_id}: already covered by guidance ({v.root_cause}); "
                    "if it keeps recurring, try a stronger phrasing (`tuner tune` tries variants)",
                    evals=[v.eval_id],
                )
            )
        else:
            recs.append(
                Recommendation(
                    group="model-specific notes",
                    text=f"{v.eval_id}: the analyst's answer could not be used "
                    "(recorded raw below); read this failure by hand",
                    evals=[v.eval_id],
                )
            )
    run8 = short(s.run_id, 8) + _suite_flag()
    for (category, cause), evals in sorted(faults.items()):
        recs.append(
            Recommendation(
                group="model-specific notes",
                text=f"{s.model} makes '{cause}' in {len(evals)} eval(s) of "
                f"{category}: draft a rule with `tuner propose --category {category} --run {run8}`",
                evals=evals,
            )
        )
    return sorted(recs, key=lambda r: GROUPS.index(r.group))


def _suite_flag() -> str:
    """`` --suite PATH`` when a suite other than the project's evals/ was chosen (so the command runs as shown)."""
    import os
    import shlex

    suite = os.environ.get("TUNER_SUITE")
    return f" --suite {shlex.quote(suite)}" if suite else ""


def collate(s: FailureSummary, verdicts: list[Verdict], earlier: list[dict], *, steps: tuple[str, ...]) -> Collation:
    """``steps``: the suite kind's grading steps. Those between the first (the files' check) and
    the last (the eval's own tests) run tools with settings of ours (Convex: codegen, bundle, tsc,
    eslint; pytest: syntax): an answer they wrongly reject points at a setting, not at an eval."""
    counts = Counter(v.classification for v in verdicts)
    causes: dict[str, list[str]] = defaultdict(list)
    for v in verdicts:
        if v.classification != UNCLASSIFIED and v.root_cause:
            causes[_norm(v.root_cause)].append(v.eval_id)
    scored_total = s.passed + s.failed
    overall = s.failed / scored_total if scored_total else 0.0
    harder = []
    for cat, n in s.categories.items():
        scored = n["pass"] + n["fail"]
        if scored and n["fail"] and n["fail"] / scored >= overall:
            harder.append({"category": cat, "failed": n["fail"], "scored": scored, "rate": n["fail"] / scored})
    harder.sort(key=lambda h: -h["rate"])
    actionable_evals = {v.eval_id for v in verdicts if v.classification in ("OVERLY_STRICT", "AMBIGUOUS_TASK")}
    freed = sum(f.failed_samples for f in s.failures if f.eval_id in actionable_evals)
    return Collation(
        counts={c: counts.get(c, 0) for c in (*CLASSIFICATIONS, UNCLASSIFIED)},
        shared_causes=[
            {"cause": c, "evals": e} for c, e in sorted(causes.items(), key=lambda kv: -len(kv[1])) if len(e) > 1
        ],
        harder_categories=harder if len(s.categories) > 1 else [],
        repeats=_repeats(verdicts, earlier),
        recommendations=_recommendations(s, verdicts, set(steps[1:-1])),
        actionable=len(actionable_evals),
        model_faults=counts.get("MODEL_FAULT", 0) + counts.get("KNOWN_GAP", 0),
        unclassified=counts.get(UNCLASSIFIED, 0),
        pass_rate_if_fixed=(s.passed + freed) / scored_total if scored_total else None,
    )
