"""Before/after comparisons of guideline variants: pairing, the tested table, report and chart.

Importing this package pulls in no heavy library: scipy/statsmodels load on the first test,
matplotlib inside ``write_chart``.
"""

from tuner.compare.chart import write_chart
from tuner.compare.engine import compare, default_report_path, placebo_cells
from tuner.compare.rates import OVERALL, RateRow, is_simulated, model_label, rate_rows
from tuner.compare.report import render_markdown, write_atomic
from tuner.compare.sides import Side, resolve_side
from tuner.compare.table import Cell, Comparison, Flip, SideInfo, build_cells, finalize
from tuner.runs.pairing import Paired, pair_results

__all__ = [
    "OVERALL",
    "Cell",
    "Comparison",
    "Flip",
    "Paired",
    "RateRow",
    "Side",
    "SideInfo",
    "build_cells",
    "compare",
    "default_report_path",
    "finalize",
    "is_simulated",
    "model_label",
    "placebo_cells",
    "pair_results",
    "rate_rows",
    "render_markdown",
    "resolve_side",
    "write_atomic",
    "write_chart",
]
