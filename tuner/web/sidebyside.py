"""Two runs side by side: the flipped samples first (their answers next to each other, the step
whose result changed), every flip a page at a time, each eval's outcomes before and after, and the
diff between the two system prompts (collapsed). ``category`` narrows it to one category (what a
tune's refusal points at).

Samples are paired by (eval, sample index), as compare pairs them. Only light columns are read for
every result; answers and steps are loaded for the flipped pairs of the page shown (``MAX_SHOWN``).
"""

from __future__ import annotations

import difflib

from tuner.store.records import ResultRecord
from tuner.store.results import result_outlines, results_by_id

__all__ = ["side_by_side", "pick", "MAX_SHOWN"]

MAX_SHOWN = 20


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


def side_by_side(
    store, before_id: str, after_id: str, *, only_changed: bool = True, category: str | None = None, offset: int = 0
) -> dict:
    before, after = store.run(before_id), store.run(after_id)
    lb, la = result_outlines(store, before.id), result_outlines(store, after.id)
    categories = sorted({x["category"] for x in (*lb.values(), *la.values())})
    if category is not None and category not in categories:
        from tuner.errors import NotFoundError

        raise NotFoundError(f"neither run has results in category '{category}' (they have: {', '.join(categories)})")
    evals: dict[str, dict] = {}
    flips = []
    for key in sorted(set(lb) | set(la)):
        b, a = lb.get(key), la.get(key)
        cat = (b or a)["category"]
        if category is not None and cat != category:
            continue
        row = evals.setdefault(key[0], {"eval": key[0], "category": cat, "before": [], "after": [], "changed": False})
        row["before"].append(b["outcome"] if b else "missing")
        row["after"].append(a["outcome"] if a else "missing")
        if b and a and {b["outcome"], a["outcome"]} == {"pass", "fail"}:
            row["changed"] = True
            flips.append((key, b["id"], a["id"], "fail->pass" if a["outcome"] == "pass" else "pass->fail"))
    # Harms first: a reader who follows a refusal here wants the pass-to-fail flips.
    flips.sort(key=lambda f: (f[3] != "pass->fail", f[0]))
    offset = min(max(0, offset), max(0, (len(flips) - 1) // MAX_SHOWN * MAX_SHOWN))
    page = flips[offset : offset + MAX_SHOWN]
    full = results_by_id(store, [i for _, b, a, _ in page for i in (b, a)])
    shown = []
    for (eval_id, sample), b, a, direction in page:
        rb, ra = full[b], full[a]
        shown.append(
            {
                "eval": eval_id,
                "sample": sample,
                "direction": direction,
                "before": rb,
                "after": ra,
                "step": _changed_step(rb, ra),
            }
        )
    rows = [r for r in evals.values() if r["changed"] or not only_changed]
    paired = {k for k in set(lb) & set(la) if category is None or lb[k]["category"] == category}
    return {
        "before": before,
        "after": after,
        "rows": rows,
        "flips": shown,
        "n_flips": len(flips),
        "fail_to_pass": sum(1 for f in flips if f[3] == "fail->pass"),
        "pass_to_fail": sum(1 for f in flips if f[3] == "pass->fail"),
        "paired": len(paired),
        "prompt_diff": _prompt_diff(store, before.prompt_hash, after.prompt_hash),
        "only_changed": only_changed,
        "category": category,
        "categories": categories,
        "offset": offset,
        "page_size": MAX_SHOWN,
        "next_offset": offset + MAX_SHOWN if offset + MAX_SHOWN < len(flips) else None,
        "prev_offset": max(0, offset - MAX_SHOWN) if offset else None,
    }


def pick(store, *, model: str = "", suite: str = "", limit: int = 200) -> dict:
    """Runs to choose two from (the runs a person asked for, newest first), and their prompts."""
    from tuner.store.runs import list_runs

    runs = list_runs(store, model=model or None, suite=suite or None, limit=limit)
    return {"runs": runs, "model": model, "suite": suite}
