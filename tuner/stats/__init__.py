"""Statistics for noisy LLM outputs: intervals, paired tests, gates, false-discovery control, power."""

from tuner.stats.difference import Difference, difference_interval
from tuner.stats.gates import (
    NON_INFERIOR,
    NOT_ENOUGH,
    REGRESSED,
    DropTest,
    GateResult,
    drop_counts,
    drop_tests,
    noninferiority,
)
from tuner.stats.intervals import CONFIDENCE, Estimate, rate_interval
from tuner.stats.paired import (
    ALPHA,
    PairedResult,
    bh_adjust,
    mcnemar_p,
    pair_interval,
    paired_compare,
    paired_estimate,
    verdict,
)
from tuner.stats.power import PowerPoint, PowerResult, estimate_icc, power_curve

__all__ = [
    "ALPHA",
    "CONFIDENCE",
    "Difference",
    "DropTest",
    "Estimate",
    "GateResult",
    "NON_INFERIOR",
    "NOT_ENOUGH",
    "PairedResult",
    "PowerPoint",
    "PowerResult",
    "REGRESSED",
    "bh_adjust",
    "difference_interval",
    "drop_counts",
    "drop_tests",
    "estimate_icc",
    "mcnemar_p",
    "noninferiority",
    "pair_interval",
    "paired_compare",
    "paired_estimate",
    "power_curve",
    "rate_interval",
    "verdict",
]
