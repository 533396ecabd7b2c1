"""Ablation: the adaptive design, leave-one-out, add-one-in and randomized screening → a rule × category effect matrix."""

from tuner.ablation.ablate import (
    MIN_BUDGET,
    AblationReport,
    ablate,
    adaptive_experiment,
    default_budget,
    engine_budget,
    engine_effects,
    engine_plan,
    rule_tokens,
)
from tuner.ablation.designs import DESIGNS, Variant
from tuner.ablation.effects import Effect
from tuner.ablation.report import render_markdown, write_heatmap

__all__ = [
    "DESIGNS",
    "MIN_BUDGET",
    "AblationReport",
    "Effect",
    "adaptive_experiment",
    "Variant",
    "ablate",
    "engine_budget",
    "engine_effects",
    "default_budget",
    "engine_plan",
    "render_markdown",
    "rule_tokens",
    "write_heatmap",
]
