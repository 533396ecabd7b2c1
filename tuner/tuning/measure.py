"""Where tune's phases get their answers: one seam, so the calibration runs the product's own code.

The regression check, the confirmation and the publish gate ask for the same thing: some named rule
selections, on every model of the study, over some evals, ``samples`` answers per eval from sample
index ``offset``, graded. In the product that is the harness (prompts, providers, grading, the
store, the caches); in the calibration (``tuner.tuning.simulate``) it is a draw from planted pass
probabilities, thousands of times faster, through the same decision code.
"""

from __future__ import annotations

from typing import Protocol

from tuner.runs import Harness, RunOutcome, run_selections

__all__ = ["Measure", "harness_measure"]


class Measure(Protocol):
    """``measure(selections, eval_ids, samples, offset)`` -> per selection, ``{model key: RunOutcome}``.

    The contract: ``selections`` are ``(name, {rule id: variant})``; each outcome holds one result
    per eval x sample index ``offset .. offset + samples - 1`` (``outcome == "infra"`` for an answer
    lost to a provider or grader failure, never left out silently); the same selection, eval and
    sample index always give the same answer (a replay, as the response cache does); ``new_calls``
    counts what was paid now.
    """

    def __call__(self, selections: list[tuple[str, dict[str, str]]], eval_ids: list[str], samples: int,
                 offset: int = 0) -> list[dict[str, RunOutcome]]: ...


def harness_measure(h: Harness, specs: list, progress=None) -> Measure:
    """The product's answers: ``run_selections`` on the study's models."""

    def measure(selections, eval_ids, samples, offset=0):
        return run_selections(h, selections, specs, list(eval_ids), samples=samples, sample_offset=offset,
                              progress=progress)

    return measure
