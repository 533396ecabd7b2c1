"""The analyst: a DSPy program that classifies one failed eval, run over a run's failures at most
``CONCURRENCY`` at a time.

A malformed or out-of-set answer gets one retry (DSPy's chat adapter re-asks for JSON), then the
failure is recorded ``UNCLASSIFIED`` with the raw answer: a classification is never invented.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel

from tuner.analysis.failures import Failure

__all__ = ["CLASSIFICATIONS", "UNCLASSIFIED", "CONCURRENCY", "Verdict", "analyse_all", "analyst_inputs"]

CLASSIFICATIONS = ("MODEL_FAULT", "OVERLY_STRICT", "AMBIGUOUS_TASK", "KNOWN_GAP")
UNCLASSIFIED = "UNCLASSIFIED"
CONCURRENCY = 4  # analyses in flight at once: a polite load on a provider, and what the issue asks
_CALL_FAILED = "(analyst call failed: "
Classification = Literal["MODEL_FAULT", "OVERLY_STRICT", "AMBIGUOUS_TASK", "KNOWN_GAP"]

_INSTRUCTIONS = """You review one failed eval of a code-generation benchmark and decide why it failed.

Classify the failure as exactly one of:
- MODEL_FAULT: the model's code is wrong; the task and the grader are fine, and the rules in the
  model's system prompt do not address this mistake (a new rule or better guidance could help).
- KNOWN_GAP: the model's code is wrong in a way the system prompt already warns against (the
  guidance exists; the model did not follow it).
- OVERLY_STRICT: the model's code is acceptable (it does what the task asks, like the reference
  answer) but the grader, a lint setting or a type check rejects it.
- AMBIGUOUS_TASK: the task text allows the model's reading; the task should be clarified.

Use the task, the model's output files, the reference answer, the grader, the failing step's errors
and the grader's documented gaps. Quote short snippets, do not paraphrase code."""


class Verdict(BaseModel):
    failure_id: str
    eval_id: str
    category: str
    failed_step: str
    error_line: str
    classification: str  # one of CLASSIFICATIONS or UNCLASSIFIED
    root_cause: str = ""
    reasoning: str = ""
    problematic: str = ""
    expected: str = ""
    raw: str | None = None  # the analyst's unparseable answer, when UNCLASSIFIED


@lru_cache(maxsize=1)
def _signature(dspy):
    class AnalyseFailure(dspy.Signature):
        failure_id: str = dspy.InputField(desc="eval id and sample index of the failure")
        category: str = dspy.InputField()
        failed_step: str = dspy.InputField(desc="the first grading step that failed")
        errors: str = dspy.InputField(desc="the failing step's error output")
        task: str = dspy.InputField(desc="the task the model was given")
        system_prompt_rules: str = dspy.InputField(desc="the guidance (system prompt) the model was given")
        model_output: str = dspy.InputField(desc="the model's output files")
        reference_answer: str = dspy.InputField(desc="a reference answer that passes")
        difference: str = dspy.InputField(desc="where the output first differs from the reference")
        grader: str = dspy.InputField(desc="the grader's tests")
        grader_gaps: str = dspy.InputField(desc="what the grader documents it does not check")
        error_line: str = dspy.OutputField(desc="the one error line that explains the failure")
        classification: Classification = dspy.OutputField()
        root_cause: str = dspy.OutputField(desc="a short name for the underlying cause (same words for the same cause)")
        reasoning: str = dspy.OutputField(desc="two or three sentences")
        problematic_snippet: str = dspy.OutputField(desc="the problematic part of the output, quoted")
        expected_snippet: str = dspy.OutputField(desc="what it should have been, quoted")

    return AnalyseFailure.with_instructions(_INSTRUCTIONS)


def _files(files: dict[str, str]) -> str:
    return "\n\n".join(f"--- {p}\n{t}" for p, t in files.items()) or "(no files)"


def analyst_inputs(f: Failure) -> dict[str, str]:
    output = _files(f.files) if f.files else f.output
    if f.stopped:  # the analyst must not judge code that was cut off as if the model wrote it that way
        output = f"(the answer is incomplete: {f.stopped})\n\n{output}"
    return {
        "failure_id": f.id,
        "category": f.category,
        "failed_step": f.failed_step,
        "errors": f.errors or f.reason,
        "task": f.task,
        "system_prompt_rules": f.system_prompt or "(none)",
        "model_output": output,
        "reference_answer": _files(f.reference),
        "difference": f"output:\n{f.problematic}\n\nreference:\n{f.expected}",
        "grader": f.grader or "(not available)",
        "grader_gaps": f.gaps or "(none documented)",
    }


def _one(dspy, program, lm, f: Failure) -> Verdict:
    from dspy.utils.exceptions import AdapterParseError

    base = {
        "failure_id": f.id,
        "eval_id": f.eval_id,
        "category": f.category,
        "failed_step": f.failed_step,
        "problematic": f.problematic,
        "expected": f.expected,
    }
    try:
        with dspy.context(lm=lm):
            p = program(**analyst_inputs(f))
    except AdapterParseError as exc:
        return Verdict(**base, error_line=f.reason, classification=UNCLASSIFIED, raw=str(exc.lm_response or "")[:4000])
    except Exception as exc:  # noqa: BLE001 - a provider failure leaves this one unclassified, said why
        from tuner.secrets import scrub

        return Verdict(
            **base, error_line=f.reason, classification=UNCLASSIFIED, raw=f"{_CALL_FAILED}{scrub(str(exc))})"
        )
    return Verdict(
        **{**base, "problematic": p.problematic_snippet or f.problematic, "expected": p.expected_snippet or f.expected},
        error_line=(p.error_line or f.reason).strip().splitlines()[0]
        if (p.error_line or f.reason).strip()
        else f.reason,
        classification=p.classification,
        root_cause=(p.root_cause or "").strip(),
        reasoning=(p.reasoning or "").strip(),
    )


def analyse_all(dspy, lm, failures: list[Failure], progress: Callable[[int, int], None] | None = None) -> list[Verdict]:
    """One verdict per failure, in the failures' order, at most ``CONCURRENCY`` analyses in flight."""
    program = dspy.Predict(_signature(dspy))
    done = 0
    out: list[Verdict | None] = [None] * len(failures)
    with ThreadPoolExecutor(max_workers=CONCURRENCY, thread_name_prefix="analyst") as pool:
        futures = {pool.submit(_one, dspy, program, lm, f): i for i, f in enumerate(failures)}
        from concurrent.futures import as_completed

        for fut in as_completed(futures):
            out[futures[fut]] = fut.result()
            done += 1
            if progress:
                progress(done, len(failures))
    verdicts = [v for v in out if v is not None]
    if verdicts and all((v.raw or "").startswith(_CALL_FAILED) for v in verdicts):
        # Not one answer came back (bad key, unreachable server): a report of nothing but failed
        # calls would only hide that. Stop before anything is written.
        from tuner.errors import ProviderError

        raise ProviderError(
            f"the analyst could not be reached: {verdicts[0].raw.removeprefix(_CALL_FAILED).rstrip(')')}"
        )
    return verdicts
