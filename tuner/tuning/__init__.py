"""Tuning: which rules (and phrasings) to include for one target category, without regressing the
others: the screening, the regression check, the confirmation, the decision (``tuning/tune.py``)."""

from tuner.tuning.config import TuneConfig, fresh_offset
from tuner.tuning.evidence import CategoryRow, paired_table
from tuner.tuning.report import RuleEffect, TuneReport
from tuner.tuning.study import best_trial, open_study
from tuner.tuning.tune import baseline_selection, build_config, finish, tune

__all__ = [
    "CategoryRow",
    "RuleEffect",
    "TuneConfig",
    "TuneReport",
    "baseline_selection",
    "best_trial",
    "build_config",
    "finish",
    "fresh_offset",
    "open_study",
    "paired_table",
    "tune",
]
