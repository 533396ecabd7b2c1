"""What stored runs say about this suite's tasks: their pass rate and how much tasks differ.

Feeds ``tuner power``: a power estimate made from the suite's own history is better than a default.
Only runs with at least two samples per eval say anything about within-task spread.
"""

from __future__ import annotations

from tuner.stats.power import estimate_icc

__all__ = ["stored_heterogeneity", "MAX_RUNS"]

MAX_RUNS = 20  # the most recent runs of this suite version; older prompts say less about today


def stored_heterogeneity(store, suite_hash: str, category: str | None = None) -> tuple[float, float] | None:
    """(pooled pass rate, intra-task correlation) over recent runs, or None without enough data."""
    clusters: list[tuple[int, int]] = []
    used = 0
    for run in store.runs(suite_hash=suite_hash):  # newest first
        if used >= MAX_RUNS:
            break
        if run.samples < 2 or run.status != "complete":
            continue
        used += 1
        counts: dict[str, list[int]] = {}
        for r in store.results(run.id):
            if r.outcome == "infra" or (category and r.category != category):
                continue
            c = counts.setdefault(r.eval_id, [0, 0])
            c[0] += r.outcome == "pass"
            c[1] += 1
        clusters += [(k, n) for k, n in counts.values()]
    return estimate_icc(clusters)
