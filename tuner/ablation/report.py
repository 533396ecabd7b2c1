"""Ablation output: Markdown, JSON and a PNG heatmap of the effect matrix."""

from __future__ import annotations

from pathlib import Path

from tuner.ablation.ablate import AblationReport
from tuner.files import write_atomic

__all__ = ["render_markdown", "write_heatmap"]


def render_markdown(report: AblationReport) -> str:
    categories = sorted({e.category for e in report.effects})
    lines = [
        f"# Ablation ({report.design}) of `{report.set_name}`",
        "",
        f"Models: {', '.join(report.models)}. {report.runs} variants × {len(report.eval_ids)} evals × {report.samples} "
        f"samples; {report.calls} provider calls. Effects are changes in pass rate from including the rule, "
        "95% intervals, Benjamini–Hochberg q-values across the whole matrix.",
        "",
    ]
    for model in report.models:
        lines += [f"## {model}", "", "| rule | tokens | " + " | ".join(categories) + " |", "|---|---|" + "---|" * len(categories)]
        cells: dict[str, dict[str, str]] = {}
        tokens: dict[str, int] = {}
        for e in report.effects:
            if e.model != model:
                continue
            mark = {"helps": " ✅", "hurts": " ❌"}.get(e.verdict, "")
            cells.setdefault(e.rule, {})[e.category] = "n/a" if e.delta is None else f"{e.delta:+.2f} [{e.lo:+.2f}, {e.hi:+.2f}] q={e.q_value:.3f}{mark}"
            tokens[e.rule] = e.tokens
        for rule in sorted(cells):
            lines.append(f"| {rule} | {tokens[rule]} | " + " | ".join(cells[rule].get(c, "") for c in categories) + " |")
        lines.append("")
    return "\n".join(lines)


def write_heatmap(report: AblationReport, path: Path) -> None:
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    categories = sorted({e.category for e in report.effects})
    rules = sorted({e.rule for e in report.effects})
    fig, axes = plt.subplots(1, len(report.models), figsize=(1.1 * len(categories) * len(report.models) + 4, 0.38 * len(rules) + 2),
                             squeeze=False)
    for ax, model in zip(axes[0], report.models):
        grid = np.zeros((len(rules), len(categories)))
        for e in report.effects:
            if e.model == model and e.delta is not None:
                grid[rules.index(e.rule), categories.index(e.category)] = e.delta
        image = ax.imshow(grid, cmap="RdYlGn", vmin=-1, vmax=1, aspect="auto")
        for e in report.effects:
            if e.model == model and e.verdict != "no detectable effect":
                ax.text(categories.index(e.category), rules.index(e.rule), "+" if e.verdict == "helps" else "−",
                        ha="center", va="center", fontsize=11, fontweight="bold")
        ax.set_xticks(range(len(categories)), categories, rotation=35, ha="right")
        ax.set_yticks(range(len(rules)), rules)
        ax.set_title(model)
    fig.colorbar(image, ax=axes[0].tolist(), label="effect on pass rate (+/− = significant)")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    write_atomic(path, buffer.getvalue())
