"""The repair loop (``--turns N``): after a failed grade the model is shown the failed step and its
error and answers again, up to N turns, as agents that read compiler and test output do.

What the model is told is this module's ``FEEDBACK_TEMPLATE`` filled with the failed step's name
and its detail, bounded to ``FEEDBACK_LIMIT`` characters, with secrets masked (``tuner.secrets``,
the one scrubber) and host paths replaced by placeholders. The template and the limit are hashed
(``feedback_hash``) into the run's identity, so editing what the model is told never replays a
stale run.

A result of an N-turn run keeps every turn (``ResultRecord.turns``: outcome, failed step and
detail, calls and tokens of each) and the turn at which it passed (``pass_turn``); ``at_turn``
reads any result as it stood after turn k, which is how every verdict can be asked at a chosen
turn. A turn the provider lost is "not measured" from that turn on (outcome ``infra``), never a
failed repair; the turns before it keep their measurement.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from tuner.hashing import sha256_json

__all__ = [
    "FEEDBACK_TEMPLATE",
    "FEEDBACK_LIMIT",
    "feedback_hash",
    "feedback_message",
    "hide_host_paths",
    "at_turn",
    "outcome_at",
    "turn_summaries",
    "repair_identity",
    "turns_paid",
]

FEEDBACK_LIMIT = 2000
FEEDBACK_TEMPLATE = (
    "Your answer failed the `{step}` step. Its output:\n\n"
    "```\n{detail}\n```\n\n"
    "Fix the problem and answer again with the complete files, in the same answer format."
)
_ABSOLUTE = re.compile(r"(?<![\w.:/-])/(?:home|Users|tmp|var|private|root|work|opt|srv|mnt|usr/local)/[^\s'\"`:,)\]]*")


def feedback_hash() -> str:
    """Identity of what a failed turn tells the model (template + bound)."""
    return sha256_json({"template": FEEDBACK_TEMPLATE, "limit": FEEDBACK_LIMIT, "paths": _ABSOLUTE.pattern})


def repair_identity(turns: int) -> dict | None:
    """What a repair loop adds to a run's inputs hash; None for one turn (ids stay as they were)."""
    return None if turns <= 1 else {"turns": turns, "feedback": feedback_hash()}


def hide_host_paths(text: str, roots: list[str | Path] = ()) -> str:
    """``text`` with this machine's folders (the given roots, the home and temp folders, then any
    absolute path under a usual host prefix) replaced by placeholders."""
    pairs = [(str(r), "<project>") for r in roots if str(r) not in ("", "/")]
    pairs += [(os.path.expanduser("~"), "<home>"), (tempfile.gettempdir(), "<tmp>")]
    for host, shown in sorted(pairs, key=lambda p: len(p[0]), reverse=True):
        if host and host != "/":
            text = text.replace(host, shown)
    return _ABSOLUTE.sub("<path>", text)


def feedback_message(result, roots: list[str | Path] = ()) -> str:
    """The next user message after a failed answer: its failed step and that step's error."""
    from tuner.secrets import mask

    step = result.failed_step or (result.steps[0].name if result.steps else "answer")
    failed = next((s for s in result.steps if s.name == step and s.status == "fail"), None)
    detail = (failed.detail if failed is not None and failed.detail else None) or result.error or "(no output)"
    detail = hide_host_paths(mask(detail), roots).strip()
    if len(detail) > FEEDBACK_LIMIT:  # masked before the cut, so no half key is left behind
        detail = detail[:FEEDBACK_LIMIT].rstrip() + "\n[... cut]"
    return FEEDBACK_TEMPLATE.format(step=step, detail=detail)


def outcome_at(result, turn: int) -> str:
    """pass | fail | infra of ``result`` as it stood after ``turn``."""
    if not result.turns:  # a one-turn result is the same at every turn
        return result.outcome
    seen = [t for t in result.turns if t["turn"] <= turn]
    return seen[-1]["outcome"] if seen else "infra"


def at_turn(results: list, turn: int | None) -> list:
    """The results as they stood after ``turn`` (None: as recorded, i.e. after the last turn)."""
    if turn is None:
        return list(results)
    out = []
    for r in results:
        seen = [t for t in (r.turns or []) if t["turn"] <= turn]
        if not r.turns or seen[-1] is r.turns[-1]:
            out.append(r)  # one turn, or nothing happened after ``turn``: the result as recorded
            continue
        t = seen[-1]
        # The answer of that turn: its outcome and step, and its grade's key as what identifies it
        # (pairing folds samples that gave one same answer; the last answer's key would say so wrongly).
        out.append(
            r.model_copy(
                update={
                    "outcome": t["outcome"],
                    "failed_step": t.get("failed_step"),
                    "grade_key": t.get("grade_key"),
                    "output": None,
                }
            )
        )
    return out


def turn_summaries(results: list, turns: int) -> dict:
    """Pass rates at every turn up to ``turns``, and the answers and provider calls of each turn."""
    from tuner.runs.runner import summarize

    by_turn = {}
    for k in range(1, turns + 1):
        s = summarize(at_turn(results, k))
        entries = [t for r in results for t in (r.turns or []) if t["turn"] == k]
        if k == 1:  # one-turn results (none here in practice) answered at turn 1
            entries += [{"attempts": r.attempts or 0} for r in results if not r.turns and r.outcome != "infra"]
        s["answers"] = len(entries)
        s["provider_calls"] = sum(t.get("attempts") or 0 for t in entries)
        by_turn[str(k)] = s
    return {"turns": turns, "feedback": feedback_hash(), "by_turn": by_turn}


def turns_paid(jobs: list, last_paid: list) -> dict:
    """Tokens and cost of every paid turn of ``jobs`` (a turn answered from the cache costs nothing)."""
    paid = [t for j in jobs for t in j.turns if t.get("attempts")]
    costs = [t.get("cost_usd") for t in paid]
    real = any(not c.model.startswith("sim/") for c in last_paid)
    return {
        "response_cache_hits": sum(1 for j in jobs for t in j.turns if not t.get("attempts")),
        "tokens_in": sum(t.get("prompt_tokens") or 0 for t in paid),
        "tokens_out": sum(t.get("completion_tokens") or 0 for t in paid),
        "cost_usd": None if real and any(c is None for c in costs) else round(sum(c or 0.0 for c in costs), 6),
    }
