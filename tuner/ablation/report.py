"""Ablation output: Markdown, JSON and a PNG heatmap of the effect matrix."""

from __future__ import annotations

from pathlib import Path

from tuner.ablation.ablate import AblationReport
from tuner.files import write_atomic

__all__ = ["render_markdown", "write_heatmap", "heatmap_figure", "lead_lines"]


# Words, not emoji: a browser or terminal without an emoji font draws ✅/❌ as empty boxes.
_MARKS = {"helps": " **helps**", "hurts": " **hurts**", "no meaningful effect": " no effect", "undecided": " undecided"}


def _intro(report: AblationReport) -> str:
    if report.adaptive is None:
        return (
            f"Models: {', '.join(report.models)}. {report.runs} variants × {len(report.eval_ids)} evals × {report.samples} "
            f"samples; {report.calls} provider calls. Effects are changes in pass rate from including the rule, "
            "95% intervals, Benjamini–Hochberg q-values across the whole matrix."
            + (
                f" Not measured: {report.lost} answers lost to provider or grader failures, left out of every estimate."
                if report.lost
                else ""
            )
        )
    a = report.adaptive
    counts = {
        v: sum(1 for e in report.effects if e.verdict == v)
        for v in ("helps", "hurts", "no meaningful effect", "undecided")
    }
    return (
        f"Models: {', '.join(report.models)}. {len(report.eval_ids)} evals; {a['rounds']} rounds, {a['calls']} calls of a "
        f"budget of {a['budget_calls']} ({a['new_calls']} paid in this invocation; stopped: {a['stopped']}). "
        f"Zone: helps/hurts = confidently beyond ±{a['delta0']:.0%}; no effect = no meaningful effect (confidently within "
        f"±{a['delta']:.0%}); undecided = the budget ran out first. Error budget α={a['alpha']} spent over "
        f"the looks ({_spending(a)}), BH within each look. A decided cell shows its estimate and interval at the "
        "deciding look (stopping at the first crossing reads high: re-measure before acting on the size). "
        f"Cells: {counts['helps']} helps, {counts['hurts']} hurts, "
        f"{counts['no meaningful effect']} no meaningful effect, {counts['undecided']} undecided."
        + (
            f" Not measured: {a['lost']} answers lost to provider or grader failures, left out of every estimate."
            if a.get("lost")
            else ""
        )
    )


def _leads(report: AblationReport) -> list[str]:
    """What would decide the leading undecided cells (recorded by the CLI: ``adaptive.leads``)."""
    a = report.adaptive or {}
    return lead_lines(
        a.get("leads"),
        a.get("continue"),
        by_category=True,
        intro=(
            "## What would decide the open questions\n\nThe leading undecided cells, with the budget whose design "
            "decides an effect of the size each reads now with 80% power:"
        ),
    )


def lead_lines(leads: list[dict] | None, continue_with: str | None, *, intro: str, by_category: bool) -> list[str]:
    """Markdown lines for the leading open questions the CLI recorded (``leads``: rule, category, model,
    the effect each reads now, the calls that decide it; ``continue``: the command), after ``intro``.
    Shared by the ablation and tune reports; a tune report is one category, so it leaves it out."""
    if not leads:
        return []
    lines = [*intro.split("\n"), ""]
    for x in leads:
        calls = "none up to 10,000,000 calls" if x["calls"] is None else f"{x['calls']:,} calls"
        cell = " · ".join([f"`{x['rule']}`", *([x["category"]] if by_category else []), x["model"]])
        lines.append(f"- {cell}: {x['delta'] * 100:+.0f} points; {calls}")
    if continue_with:
        lines += ["", f"To decide the leading one: `{continue_with}`"]
    return lines + [""]


def _spending(a: dict) -> str:
    if a.get("spending") == "obrien-fleming":
        return "O'Brien-Fleming-type shares of the planned calls: little at the first looks, most at the last"
    return "6α/π²k² at look k: this report was recorded before the engine planned its looks"


def _where(report: AblationReport, model: str) -> list[str]:
    """For the decided cells, the evals where the rule seemed to matter most (descriptive)."""
    lines = []
    for e in sorted(report.effects, key=lambda e: (e.rule, e.category)):
        if e.model != model or e.verdict not in ("helps", "hurts") or not e.by_eval:
            continue
        cells = ", ".join(f"{ev} {d:+.0%} ({n} left out)" for ev, (d, n) in e.by_eval.items())
        lines.append(f"- `{e.rule}` ({e.verdict}, {e.category}): {cells}")
    if not lines:
        return []
    return [
        "Where each decided rule seems to matter (pass rate with it minus without it, per eval; read, not tested):",
        "",
        *lines,
        "",
    ]


def _cell(e) -> str:
    if e.verdict == "not measured":
        return "not measured"
    if e.delta is None:
        return "n/a"
    level = "" if e.level is None else f" at {e.level:.0%}"  # the level the look that decided tested at
    interval = "" if e.lo is None else f" [{e.lo:+.2f}, {e.hi:+.2f}]{level}"
    q = "" if e.q_value is None else f" q={e.q_value:.3f}"
    calls = "" if e.calls is None else f" ({e.calls} calls)"
    return f"{e.delta:+.2f}{interval}{q}{calls}{_MARKS.get(e.verdict, '')}"


def render_markdown(report: AblationReport) -> str:
    categories = sorted({e.category for e in report.effects})
    lines = [f"# Ablation ({report.design}) of `{report.set_name}`", "", _intro(report), ""]
    for model in report.models:
        lines += [
            f"## {model}",
            "",
            "| rule | tokens | " + " | ".join(categories) + " |",
            "|---|---|" + "---|" * len(categories),
        ]
        cells: dict[str, dict[str, str]] = {}
        tokens: dict[str, int] = {}
        for e in report.effects:
            if e.model != model:
                continue
            cells.setdefault(e.rule, {})[e.category] = _cell(e)
            tokens[e.rule] = e.tokens
        for rule in sorted(cells):
            lines.append(
                f"| {rule} | {tokens[rule]} | " + " | ".join(cells[rule].get(c, "") for c in categories) + " |"
            )
        lines.append("")
        lines += _where(report, model)
    lines += _leads(report)
    return "\n".join(lines)


def write_heatmap(report: AblationReport, path: Path) -> None:
    import io

    import matplotlib.pyplot as plt

    fig = heatmap_figure(report)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    write_atomic(path, buffer.getvalue())


def heatmap_figure(report: AblationReport):
    """The effect matrix per model as a matplotlib figure (the caller closes it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    categories = sorted({e.category for e in report.effects})
    rules = sorted({e.rule for e in report.effects})
    # Sized from the labels: rule ids down the side, category names at 45 degrees along the bottom,
    # so neither overlaps its neighbour however long or many they are.
    label_in = 0.075 * max([len(r) for r in rules] or [10])
    width = (0.55 * len(categories) + label_in + 0.6) * len(report.models) + 1.5
    height = 0.3 * len(rules) + 0.07 * max([len(c) for c in categories] or [8]) + 1.2
    fig, axes = plt.subplots(1, len(report.models), figsize=(width, height), squeeze=False, layout="constrained")
    for ax, model in zip(axes[0], report.models):
        grid = np.zeros((len(rules), len(categories)))
        for e in report.effects:
            if e.model == model and e.delta is not None:
                grid[rules.index(e.rule), categories.index(e.category)] = e.delta
        image = ax.imshow(grid, cmap="RdYlGn", vmin=-1, vmax=1, aspect="auto")
        for e in report.effects:
            if e.model == model and e.verdict in ("helps", "hurts"):
                ax.text(
                    categories.index(e.category),
                    rules.index(e.rule),
                    "+" if e.verdict == "helps" else "-",
                    ha="center",
                    va="center",
                    fontsize=11,
                    fontweight="bold",
                )
        ax.set_xticks(range(len(categories)), categories, rotation=45, ha="right", rotation_mode="anchor", fontsize=9)
        ax.set_yticks(range(len(rules)), rules, fontsize=9)
        ax.set_title(model)
    fig.colorbar(image, ax=axes[0].tolist(), label="effect on pass rate (+/- = significant)", shrink=0.8)
    return fig
