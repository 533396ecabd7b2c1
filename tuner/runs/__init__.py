"""Runs: a model answering every eval of a selection under one rule set, graded and stored."""

from tuner.runs.harness import Harness
from tuner.runs.pairing import Paired, pair_outcomes, pair_results
from tuner.runs.points import DesignPoint, execute_points
from tuner.runs.runner import RunConfig, RunOutcome, execute_runs, outcomes_by_task, run_selections, summarize

__all__ = [
    "DesignPoint",
    "execute_points",
    "Paired",
    "pair_outcomes",
    "pair_results",
    "Harness",
    "RunConfig",
    "RunOutcome",
    "execute_runs",
    "outcomes_by_task",
    "run_selections",
    "summarize",
]
