"""Planning before spending: what a budget decides (minimum detectable effects) and what an effect needs."""

from tuner.planning.families import (
    Detectable,
    calls_to_decide,
    confirmation_family,
    decide_value,
    engine_family,
    paired_family,
)
from tuner.planning.mde import POWER, RATE, Design, mde, power

__all__ = [
    "POWER",
    "RATE",
    "Design",
    "Detectable",
    "calls_to_decide",
    "confirmation_family",
    "decide_value",
    "engine_family",
    "mde",
    "paired_family",
    "power",
]
