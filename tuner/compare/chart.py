"""A PNG chart of a comparison: per category, before and after pass rates with their intervals."""

from __future__ import annotations

from pathlib import Path

from tuner.compare.report import write_atomic
from tuner.compare.table import Comparison

__all__ = ["write_chart"]


def _errors(estimates) -> tuple[list[float], list[list[float]]]:
    rates = [e.rate if e.rate is not None else 0.0 for e in estimates]
    lo = [max(0.0, r - (e.lo if e.lo is not None else r)) for r, e in zip(rates, estimates)]
    hi = [max(0.0, (e.hi if e.hi is not None else r) - r) for r, e in zip(rates, estimates)]
    return rates, [lo, hi]


def _draw(comparison: Comparison, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")  # headless: CI runners and servers have no display
    import matplotlib.pyplot as plt

    models = list(dict.fromkeys(c.model_key for c in comparison.cells))
    fig, axes = plt.subplots(len(models), 1, figsize=(9.0, 3.6 * len(models)), squeeze=False)
    for ax, model in zip(axes[:, 0], models):
        cells = [c for c in comparison.cells if c.model_key == model]
        xs = list(range(len(cells)))
        width = 0.38
        for shift, side, estimates, color in (
            (-width / 2, f"before: {comparison.before.label}", [c.before for c in cells], "#8c8c8c"),
            (width / 2, f"after: {comparison.after.label}", [c.after for c in cells], "#1f77b4"),
        ):
            rates, err = _errors(estimates)
            ax.bar([x + shift for x in xs], rates, width, yerr=err, capsize=3, color=color, label=side)
        for x, c in zip(xs, cells):
            if c.verdict in ("improved", "regressed"):
                ax.annotate(
                    c.verdict, (x, 1.02), ha="center", fontsize=8, color="green" if c.verdict == "improved" else "red"
                )
        ax.set_xticks(xs, [c.category for c in cells], rotation=20, ha="right")
        ax.set_xlim(-0.75, max(len(cells), 3) - 0.25)  # one category still gets narrow bars
        ax.set_ylim(0, 1.1)
        ax.set_ylabel("pass rate (95% CI)")
        ax.set_title(cells[0].model_label if cells else model)
        ax.legend(loc="lower right", fontsize=8)
    fig.suptitle(f"{comparison.before.label} → {comparison.after.label}, {comparison.samples} samples per eval")
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=110)
    plt.close(fig)


def write_chart(comparison: Comparison, path: Path) -> Path:
    return write_atomic(path, lambda tmp: _draw(comparison, tmp))
