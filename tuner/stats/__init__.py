"""Statistics for noisy LLM outputs: intervals, paired tests, false-discovery control, power."""

from tuner.stats.intervals import CONFIDENCE, Estimate, rate_interval
from tuner.stats.paired import ALPHA, PairedResult, bh_adjust, mcnemar_p, pair_interval, paired_compare, paired_estimate, verdict
from tuner.stats.power import PowerPoint, PowerResult, estimate_icc, power_curve

__all__ = [
    "ALPHA", "CONFIDENCE", "Estimate", "PairedResult", "PowerPoint", "PowerResult",
    "bh_adjust", "estimate_icc", "mcnemar_p", "pair_interval", "paired_compare", "paired_estimate", "power_curve", "rate_interval", "verdict",
]
