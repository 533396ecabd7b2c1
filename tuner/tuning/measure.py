"""Where tune's phases get their answers: one seam, so the calibration runs the product's own code.

The regression check, the confirmation and the publish gate ask for the same thing: some named rule
selections, on every model of the study, over some evals, ``samples`` answers per eval from sample
index ``offset``, graded. In the product that is the harness (prompts, providers, grading, the
store, the caches); in the calibration (``tuner.tuning.simulate``) it is a draw from planted pass
probabilities, thousands of times faster, through the same decision code.
"""

from __future__ import annotations

from typing import Protocol

from tuner.guidelines import Prompt
from tuner.runs import Harness, RunConfig, RunOutcome, execute_runs, run_selections

__all__ = ["Measure", "harness_measure"]


class Measure(Protocol):
    """``measure(selections, eval_ids, samples, offset)`` -> per selection, ``{model key: RunOutcome}``.

    The contract: ``selections`` are ``(name, {rule id: variant})``; each outcome holds one result
    per eval x sample index ``offset .. offset + samples - 1`` (``outcome == "infra"`` for an answer
    lost to a provider or grader failure, never left out silently); the same selection, eval and
    sample index always give the same answer (a replay, as the response cache does); ``new_calls``
    counts what was paid now. ``prompts``: a selection named here is sent that composed prompt
    instead of what its rules compose to (a placebo, ``tuner.guidelines.placebo``); its run's
    identity is that prompt's hash, as for any run.
    """

    def __call__(
        self,
        selections: list[tuple[str, dict[str, str]]],
        eval_ids: list[str],
        samples: int,
        offset: int = 0,
        prompts: dict[str, Prompt] | None = None,
    ) -> list[dict[str, RunOutcome]]: ...


def harness_measure(h: Harness, specs: list, progress=None) -> Measure:
    """The product's answers: ``run_selections`` on the study's models."""

    def measure(selections, eval_ids, samples, offset=0, prompts=None):
        if not prompts:
            return run_selections(
                h, selections, specs, list(eval_ids), samples=samples, sample_offset=offset, progress=progress
            )
        return _run_prompts(h, selections, prompts, specs, list(eval_ids), samples, offset, progress)

    return measure


def _run_prompts(
    h: Harness,
    selections,
    prompts: dict[str, Prompt],
    specs: list,
    eval_ids: list[str],
    samples: int,
    offset: int,
    progress,
) -> list[dict[str, RunOutcome]]:
    """``run_selections`` with some selections sent a given prompt: one ``execute_runs`` batch."""
    from tuner.guidelines import RuleSet

    configs = []
    for name, selection in selections:
        prompt = prompts.get(name)
        rule_set = (
            RuleSet.from_selection(name, selection)
            if prompt is None
            else RuleSet(name=name, template=prompt.template, description=f"the prompt {prompt.hash[:12]}")
        )
        configs += [
            RunConfig(
                spec=spec,
                rule_set=rule_set,
                eval_ids=tuple(eval_ids),
                samples=samples,
                sample_offset=offset,
                prompt=prompt,
            )
            for spec in specs
        ]
    outcomes = execute_runs(h, configs, progress)
    n = len(specs)
    return [{spec.key: o for spec, o in zip(specs, outcomes[i * n : (i + 1) * n])} for i in range(len(selections))]
