"""The rule-effect engine: adaptive estimation of every rule's effect per model x category, with
planned looks and error control. ``ablate`` and ``tune`` both run it; its method and why are in
``tuner.engine.engine``'s docstring and docs/engine.md."""

from tuner.engine.design import PRIORITY_WEIGHT, look_weights, targeted
from tuner.engine.engine import (
    Cell,
    EngineOutcome,
    Graded,
    Observe,
    Plan,
    Point,
    planned_looks,
    planned_shape,
    planned_spending,
    run_engine,
    split_key,
    swap_key,
)

__all__ = [
    "PRIORITY_WEIGHT",
    "Cell",
    "EngineOutcome",
    "Graded",
    "Observe",
    "Plan",
    "Point",
    "planned_looks",
    "planned_shape",
    "planned_spending",
    "look_weights",
    "run_engine",
    "split_key",
    "swap_key",
    "targeted",
]
