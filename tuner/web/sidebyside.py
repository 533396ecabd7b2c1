"""Two runs side by side: each eval's outcomes before and after, the step whose result changed, the
answers of flipped samples next to each other, and the diff between the two system prompts.

Samples are paired by (eval, sample index), as compare pairs them. Only light columns are read for
every result; answers and steps are loaded for the flipped pairs shown (at most ``MAX_SHOWN``).
"""

from __future__ import annotations

import difflib

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from tuner.store.records import ResultRecord
from tuner.store.schema import ResultRow

__all__ = ["side_by_side", "MAX_SHOWN"]

MAX_SHOWN = 40


def _light(store, run_id: str) -> dict[tuple[str, int], dict]:
    r = ResultRow.__table__
    with store.reading() as s:
        rows = s.execute(select(r.c.id, r.c.eval_id, r.c.category, r.c.sample_index, r.c.outcome, r.c.failed_step)
                         .where(r.c.run_id == run_id)).all()
    return {(x.eval_id, x.sample_index): dict(x._mapping) for x in rows}


def _full(store, ids: list[int]) -> dict[int, ResultRecord]:
    if not ids:
        return {}
    with store.reading() as s:
        rows = s.execute(select(ResultRow).where(ResultRow.id.in_(ids)).options(selectinload(ResultRow.steps))).scalars()
        return {x.id: ResultRecord.from_row(x) for x in rows}


def _changed_step(before: ResultRecord, after: ResultRecord) -> str:
    """The first grading step whose status differs ("tests: pass -> fail"), or what else changed."""
    a = {st.name: st.status for st in before.steps}
    b = {st.name: st.status for st in after.steps}
    for name in list(dict.fromkeys([*a, *b])):
        if a.get(name) != b.get(name):
            return f"{name}: {a.get(name, 'not run')} -> {b.get(name, 'not run')}"
    if before.outcome != after.outcome:
        return f"outcome: {before.outcome} -> {after.outcome}"
    return ""


def _prompt_diff(store, before_hash: str, after_hash: str) -> list[dict]:
    from tuner.web.data import _kind

    if before_hash == after_hash:
        return []
    a, b = store.prompt_text(before_hash).splitlines(), store.prompt_text(after_hash).splitlines()
    lines = difflib.unified_diff(a, b, "before", "after", lineterm="", n=2)
    return [{"kind": _kind(line), "text": line} for line in lines]


def side_by_side(store, before_id: str, after_id: str, *, only_changed: bool = True) -> dict:
    before, after = store.run(before_id), store.run(after_id)
    lb, la = _light(store, before.id), _light(store, after.id)
    evals: dict[str, dict] = {}
    flips = []
    for key in sorted(set(lb) | set(la)):
        b, a = lb.get(key), la.get(key)
        row = evals.setdefault(key[0], {"eval": key[0], "category": (b or a)["category"], "before": [], "after": [],
                                        "changed": False})
        row["before"].append(b["outcome"] if b else "missing")
        row["after"].append(a["outcome"] if a else "missing")
        if b and a and {b["outcome"], a["outcome"]} == {"pass", "fail"}:
            row["changed"] = True
            flips.append((key, b["id"], a["id"], "fail->pass" if a["outcome"] == "pass" else "pass->fail"))
    full = _full(store, [i for _, b, a, _ in flips[:MAX_SHOWN] for i in (b, a)])
    shown = []
    for (eval_id, sample), b, a, direction in flips[:MAX_SHOWN]:
        rb, ra = full[b], full[a]
        shown.append({"eval": eval_id, "sample": sample, "direction": direction, "before": rb, "after": ra,
                      "step": _changed_step(rb, ra)})
    rows = [r for r in evals.values() if r["changed"] or not only_changed]
    return {"before": before, "after": after, "rows": rows, "flips": shown, "n_flips": len(flips),
            "fail_to_pass": sum(1 for f in flips if f[3] == "fail->pass"),
            "pass_to_fail": sum(1 for f in flips if f[3] == "pass->fail"),
            "paired": len(set(lb) & set(la)), "prompt_diff": _prompt_diff(store, before.prompt_hash, after.prompt_hash),
            "only_changed": only_changed}
