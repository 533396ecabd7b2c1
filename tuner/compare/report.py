"""The Markdown report of a comparison, written atomically (temp file, then rename)."""

from __future__ import annotations

from tuner.compare.table import Cell, Comparison
from tuner.files import write_atomic
from tuner.hashing import short

__all__ = ["render_markdown", "write_atomic", "fmt_rate", "fmt_delta"]


def fmt_rate(est) -> str:
    if est.rate is None:
        return "n/a"
    return f"{est.rate:.0%} [{est.lo:.0%}, {est.hi:.0%}]"


def fmt_delta(cell: Cell) -> str:
    if cell.delta is None:
        return "n/a"
    return f"{cell.delta:+.0%} [{cell.lo:+.0%}, {cell.hi:+.0%}]"


def _side(name: str, side) -> list[str]:
    lines = [
        f"- **{name}**: `{side.token}` ({side.kind}{', sample offset ' + str(side.offset) if side.offset else ''})"
    ]
    for model, run in side.runs.items():
        lines.append(f"  - {model}: run `{short(run)}`, prompt `{short(side.prompts.get(model, ''))}`")
    return lines


def _table(cells: list[Cell]) -> list[str]:
    lines = [
        "| model | category | before | after | Δ [95% CI] | p | q (BH) | fail→pass | pass→fail | infra b/a | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in cells:
        f2p = sum(f.fail_to_pass for f in c.flips.values())
        p2f = sum(f.pass_to_fail for f in c.flips.values())
        verdict = f"**{c.verdict}**" if c.verdict != "no detectable change" else c.verdict
        if c.verdict == "not measured":
            verdict = f"**not measured** ({c.pairs}/{c.expected} pairs)"
        lines.append(
            f"| {c.model_label} | {c.category} | {fmt_rate(c.before)} | {fmt_rate(c.after)} | {fmt_delta(c)} "
            f"| {c.p_value:.3g} | {'-' if c.q_value is None else format(c.q_value, '.3g')} | {f2p} | {p2f} | {c.infra_before}/{c.infra_after} | {verdict} |"
        )
    return lines


def _flips(cells: list[Cell]) -> list[str]:
    seen: dict[tuple[str, str], object] = {}
    for c in cells:
        if c.category == "overall":
            continue
        for ev, flip in c.flips.items():
            seen[(c.model_label, ev)] = flip
    if not seen:
        return ["No eval changed outcome on any paired sample."]
    lines = ["| model | eval | fail→pass | pass→fail |", "|---|---|---|---|"]
    for (model, ev), flip in sorted(seen.items()):
        lines.append(f"| {model} | `{ev}` | {flip.fail_to_pass} | {flip.pass_to_fail} |")
    return lines


def _placebo(c: Comparison) -> list[str]:
    """Every "helps" read against none and against the length-matched placebo."""
    arm = c.placebo
    lines = [
        "## Against a length-matched placebo",
        "",
        f"Placebo `{arm.side.label}`: {arm.tokens} tokens (the length of `{arm.matches}`) of rule-shaped text about "
        f"{arm.domain}, seed {arm.seed}; it teaches nothing about the product, so a gain it shares is priming, not content.",
        *[
            f"- {model}: run `{short(run)}`, prompt `{short(arm.side.prompts.get(model, ''))}`"
            for model, run in arm.side.runs.items()
        ],
        "",
        f"| model | category | vs `{c.before.label}`: Δ [95% CI] | q | vs placebo: Δ [95% CI] | q | claim |",
        "|---|---|---|---|---|---|---|",
    ]
    placebo_by = {(x.model_key, x.category): x for x in arm.cells}
    for cell, row in zip(c.cells, c.helps):
        p = placebo_by.get((cell.model_key, cell.category))
        q = "-" if row.q_placebo is None else format(row.q_placebo, ".3g")
        claim = f"**{row.claim}**" if row.claim.startswith("helps") else row.claim
        lines.append(
            f"| {cell.model_label} | {cell.category} | {fmt_delta(cell)} | "
            f"{'-' if cell.q_value is None else format(cell.q_value, '.3g')} | {fmt_delta(p) if p else 'n/a'} | {q} | {claim} |"
        )
    lines += [
        "",
        "The placebo → after cells are paired like before → after (same evals and sample positions) and "
        "Benjamini–Hochberg-adjusted as a family of their own; a claim *helps beyond priming* needs both "
        f"verdicts (an intersection–union test: its error stays at most alpha {c.alpha}).",
    ]
    return lines


def _turns(c: Comparison) -> list[str]:
    """Each cell's Δ and verdict after every turn; the answers (model calls) each side made per turn."""
    head = "| model | category | " + " | ".join(f"turn {r['turn']}" for r in c.by_turn) + " |"
    lines = [head, "|---|---|" + "---|" * len(c.by_turn)]
    for i, cell in enumerate(c.by_turn[0]["cells"]):
        values = []
        for row in c.by_turn:
            x = row["cells"][i]
            values.append(("n/a" if x["delta"] is None else f"{x['delta']:+.0%}") + f" {x['verdict']}")
        lines.append(f"| {cell['model']} | {cell['category']} | " + " | ".join(values) + " |")
    lines.append(
        "| answers before / after | | "
        + " | ".join(f"{r['calls']['before']} / {r['calls']['after']}" for r in c.by_turn)
        + " |"
    )
    lines += [
        "",
        "A failed answer is shown its failed step and error and answered again; an answer that passed "
        "at turn j counts as passed at every later turn, a turn the provider lost is not measured from then on.",
    ]
    return lines


_EXIT = {
    0: "no significant regression",
    1: "a significant regression",
    4: "some cells were not measured (fewer pairs than planned)",
}


def render_markdown(comparison: Comparison, chart_name: str | None = None) -> str:
    c = comparison
    if c.regressions:
        headline = f"**Regressed** in {len(c.regressions)} cell(s): " + ", ".join(
            f"{x.model_label} · {x.category}" for x in c.regressions
        )
    elif c.improvements:
        headline = f"**Improved** in {len(c.improvements)} cell(s), no significant regression."
    else:
        headline = "No detectable change."
    if c.not_measured:
        missing = ", ".join(f"{x.model_label} · {x.category} ({x.pairs}/{x.expected} pairs)" for x in c.not_measured)
        headline += f" **Not measured**: {missing}; those cells have no verdict."
    if c.placebo is not None:
        from tuner.compare.placebo import BEYOND

        helped = [r for r in c.helps if r.vs_none == "improved"]
        beyond = [f"{r.model_label} · {r.category}" for r in helped if r.claim == BEYOND]
        headline += (
            f" Against the length-matched placebo: {len(beyond)} of {len(helped)} improved cell(s) help beyond "
            f"priming{': ' + ', '.join(beyond) if beyond else ''}."
        )
    lines = [
        f"# Compare `{c.before.label}` → `{c.after.label}`",
        "",
        headline,
        "",
        *_side("before", c.before),
        *_side("after", c.after),
        f"- samples per eval: {c.samples}; category: {c.category or 'all'}; alpha {c.alpha} on Benjamini–Hochberg q-values across the whole table",
    ]
    if c.simulated_models:
        lines.append(f"- **simulated models** (planted gaps, not a real LLM): {', '.join(c.simulated_models)}")
    lines += [f"- note: {n}" for n in c.notes]
    lines += ["", "## Pass rates", "", *_table(c.cells)]
    if chart_name:
        lines += ["", f"![before/after per category]({chart_name})"]
    if c.placebo is not None:
        lines += ["", *_placebo(c)]
    if c.by_turn:
        lines += ["", f"## By turn of the repair loop (the table above: turn {c.at_turn} of {c.turns})", "", *_turns(c)]
    lines += ["", "## Flips per eval", "", *_flips(c.cells), ""]
    lines += [
        "Pairs: same eval, same sample position (offsets applied). Rates: Clopper–Pearson with a design-effect correction for samples sharing an eval; Δ: a cluster-robust t interval over evals (the category's tasks are the unit; see docs/statistics.md). "
        "p: exact McNemar on the discordant pairs. Infrastructure failures are excluded from scores and counted.",
        "",
        f"Exit code: {c.exit_code} ({_EXIT[c.exit_code]}).",
        "",
    ]
    return "\n".join(lines)
