"""The simulated analyst's answers, derived from the planted truth (``<suite>/sim/``).

A simulated model labels every answer with the mistakes it planted, so the truth about each
failure is known:

- a planted gap the system prompt has no real guidance for (no cure cue of strength >= 0.5) is a
  ``MODEL_FAULT``: a rule could prevent it;
- a planted gap despite such guidance is a ``KNOWN_GAP``: the guidance exists, the model missed it;
- a side effect of over-eager rule following is a ``MODEL_FAULT`` caused by a rule (named);
- nothing planted, yet the answer failed: it is the reference answer, so the grader is
  ``OVERLY_STRICT`` (or flaky);
- an answer to no task of the suite: ``AMBIGUOUS_TASK`` (the model did not recognise the task).
"""

from __future__ import annotations

import re

from tuner.analysis.failures import Failure
from tuner.errors import InputError

__all__ = ["planted_of", "simulated_verdicts", "GUIDED"]

GUIDED = 0.5  # a cure cue at least this strong in the prompt counts as "the prompt covers it"
_LABEL = re.compile(r"\(simulated by tuner (sim/[\w.-]+): (?:planted gaps ([^)]*)|(no eval of the suite matches))")


def planted_of(output: str) -> tuple[str, list[str] | None] | None:
    """(profile, planted ids) from a simulated answer's label; ids None for an unrecognised task."""
    m = _LABEL.search(output or "")
    if m is None:
        return None
    if m.group(3):
        return m.group(1), None
    ids = [s.strip() for s in (m.group(2) or "").split(",") if s.strip() and s.strip() != "none"]
    return m.group(1), ids


def _answer(f: Failure, classification: str, cause: str, reasoning: str) -> dict[str, str]:
    return {
        "error_line": f.reason,
        "classification": classification,
        "root_cause": cause,
        "reasoning": reasoning,
        "problematic_snippet": f.problematic,
        "expected_snippet": f.expected,
    }


def _verdict(f: Failure, data, planted: list[str] | None) -> dict[str, str]:
    if planted is None:
        return _answer(
            f,
            "AMBIGUOUS_TASK",
            "task not recognised",
            "The simulated model did not recognise the task text and answered with no code. "
            "In the planted truth this means the task was not understood as written.",
        )
    gaps = {g.id: g for g in data.gaps}
    planted_gaps = [gaps[i] for i in planted if i in gaps]
    if planted_gaps:
        g = planted_gaps[0]
        strength = g.cure_strength(f.system_prompt)
        others = f" It also carries {', '.join(x.id for x in planted_gaps[1:])}." if len(planted_gaps) > 1 else ""
        if strength >= GUIDED:
            return _answer(
                f,
                "KNOWN_GAP",
                g.id,
                f"The answer carries the planted mistake {g.id}: {g.description} The system prompt already "
                f"has guidance against it (cue strength {strength:.1f}); the model did not follow it.{others}",
            )
        return _answer(
            f,
            "MODEL_FAULT",
            g.id,
            f"The answer carries the planted mistake {g.id}: {g.description} No rule in the system prompt "
            f"gives real guidance against it, so a rule could prevent it.{others}",
        )
    if planted:
        effect = planted[0]
        return _answer(
            f,
            "MODEL_FAULT",
            effect,
            f"The answer carries {effect}, a side effect of following a rule in the prompt too eagerly. "
            "The rule that triggers it should be narrowed or dropped for this category.",
        )
    return _answer(
        f,
        "OVERLY_STRICT",
        "reference answer rejected",
        "The simulated model planted no mistake, so its answer is the reference answer. "
        "The grader rejected a correct answer: it is too strict or flaky.",
    )


def simulated_verdicts(failures: list[Failure], suite_root) -> dict[str, dict[str, str]]:
    """{failure id: the analyst's output fields} for failures of a simulated model's run."""
    from tuner.models.sim.profiles import load_sim_data

    data = load_sim_data(suite_root)
    out = {}
    for f in failures:
        label = planted_of(f.output)
        if label is None:
            raise InputError(
                f"{f.eval_id}: the simulated analyst only knows the planted truth of sim/* answers; "
                "pass --analyst MODEL"
            )
        out[f.id] = _verdict(f, data, label[1])
    return out
