"""The proposer: a DSPy program that drafts one rule from one failed eval, and its simulated twin.

The simulated proposer drafts from the planted truth: for a failure carrying a planted gap that the
prompt gives no real guidance for, it writes the gap's description and its strongest cure phrasing
(the cure regex read back as words). It declines (``NONE``) where the truth says no rule would help.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

from pydantic import BaseModel

from tuner.analysis.analyst import CONCURRENCY
from tuner.analysis.failures import Failure

__all__ = ["Draft", "draft_all", "simulated_drafts", "NONE", "cure_phrase"]

NONE = "NONE"

_INSTRUCTIONS = """You maintain the guideline file that teaches models to write code for a product.
From one failed eval (the task, the error, the model's output against a passing reference answer)
and the rules the model already had, draft ONE new rule that would have prevented this mistake in
general (not just for this task): a short imperative title and two to four sentences of rule text
in Markdown, stating what to do and why. If the failure is not the model's fault, or an existing
rule already says it, answer NONE as the rule text."""


class Draft(BaseModel):
    failure_id: str
    eval_id: str
    name: str
    title: str
    text: str


@lru_cache(maxsize=1)
def _signature(dspy):
    class ProposeRule(dspy.Signature):
        failure_id: str = dspy.InputField(desc="eval id and sample index of the failure")
        category: str = dspy.InputField()
        task: str = dspy.InputField()
        errors: str = dspy.InputField(desc="the failing grading step's errors")
        difference: str = dspy.InputField(desc="the model's output against the reference where they first differ")
        current_rules: str = dspy.InputField(desc="the rules the model already had for this category")
        rule_name: str = dspy.OutputField(desc="a short kebab-case name for the rule")
        title: str = dspy.OutputField(desc="an imperative title, one line")
        rule_text: str = dspy.OutputField(desc="the rule text (Markdown), or NONE")

    return ProposeRule.with_instructions(_INSTRUCTIONS)


def proposer_inputs(f: Failure, current_rules: str) -> dict[str, str]:
    return {
        "failure_id": f.id,
        "category": f.category,
        "task": f.task,
        "errors": f.errors or f.reason,
        "difference": f"output:\n{f.problematic}\n\nreference:\n{f.expected}",
        "current_rules": current_rules or "(none)",
    }


def _one(dspy, program, lm, f: Failure, current_rules: str) -> Draft | None:
    from dspy.utils.exceptions import AdapterParseError

    try:
        with dspy.context(lm=lm):
            p = program(**proposer_inputs(f, current_rules))
    except AdapterParseError:
        return None  # never invent a rule from an answer we could not read
    except Exception as exc:  # noqa: BLE001 - the provider failed (after DSPy's retries): stop, say why
        from tuner.errors import IncompleteError
        from tuner.secrets import scrub

        # One scrubbed line: the provider's message can echo the key it was sent.
        raise IncompleteError(
            f"--proposer {getattr(lm, 'model', '?')}: the provider failed on {f.id}: "
            f"{scrub(exc, 300)}; no rule was written (run the same command again)"
        ) from None
    text = (p.rule_text or "").strip()
    if not text or text.upper().startswith(NONE):
        return None
    return Draft(
        failure_id=f.id, eval_id=f.eval_id, name=(p.rule_name or "").strip(), title=(p.title or "").strip(), text=text
    )


def draft_all(dspy, lm, failures: list[Failure], current_rules: str) -> list[Draft | None]:
    """One draft (or None: declined / unreadable) per failure, at most ``CONCURRENCY`` in flight."""
    program = dspy.Predict(_signature(dspy))
    with ThreadPoolExecutor(max_workers=CONCURRENCY, thread_name_prefix="proposer") as pool:
        return list(pool.map(lambda f: _one(dspy, program, lm, f, current_rules), failures))


def cure_phrase(pattern: str) -> str:
    """A cure regex read back as words (``\\s+`` a space, optional backticks kept, escapes dropped)."""
    s = re.sub(r"\(\?:([^()|]*)\|[^()]*\)", r"\1", pattern)
    s = s.replace(r"\s+", " ").replace(r"\s*", " ").replace(r"\s", " ")
    s = re.sub(r"`\?", "`", s)
    s = re.sub(r"(.)\?", r"\1", s)
    s = re.sub(r"\\([\\().\[\]{}*+?|^$\"'`])", r"\1", s)
    s = s.replace(r"\b", "").replace(r"\w+", "x").replace(r"\d+", "1")
    return re.sub(r" +", " ", s).strip()


def _draft_for_gap(gap) -> dict[str, str] | None:
    for cue in sorted(gap.cures, key=lambda c: -c.strength):
        phrase = cure_phrase(cue.pattern)
        if cue.matches(phrase):
            slug = gap.id.split(".", 1)[-1]
            title = gap.description.split(". ")[0].rstrip(".")
            text = f'Avoid this mistake: {gap.description}\n\nThe point to remember: "{phrase}".'
            return {"rule_name": f"avoid-{slug}", "title": f"Avoid: {title}"[:120], "rule_text": text}
    return None


def simulated_drafts(failures: list[Failure], suite_root) -> dict[str, dict[str, str]]:
    """{failure id: the proposer's output fields} from the planted truth."""
    from tuner.analysis.simulated import GUIDED, planted_of
    from tuner.models.sim.profiles import load_sim_data

    data = load_sim_data(suite_root)
    gaps = {g.id: g for g in data.gaps}
    decline = {"rule_name": "none", "title": "none", "rule_text": NONE}
    out = {}
    for f in failures:
        label = planted_of(f.output)
        planted = [gaps[i] for i in (label[1] or []) if i in gaps] if label else []
        uncured = [g for g in planted if g.cure_strength(f.system_prompt) < GUIDED]
        out[f.id] = (_draft_for_gap(uncured[0]) if uncured else None) or decline
    return out
