"""Statistics for noisy LLM outputs: intervals, paired tests, false-discovery control, power."""

from tuner.stats.intervals import CONFIDENCE, Estimate, rate_interval
from tuner.stats.paired import ALPHA, PairedResult, bh_adjust, paired_compare, verdict

__all__ = ["ALPHA", "CONFIDENCE", "Estimate", "PairedResult", "bh_adjust", "paired_compare", "rate_interval", "verdict"]
