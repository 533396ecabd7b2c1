"""Pairing two sides (before/after, baseline/trial, with/without a rule): same eval, same sample position.

Every paired statistic in tuner reads its pairs from here (compare, tune's trials and confirmation,
the evidence table, the publish gate, ablation). Pairing by rank after dropping failures would
invent flips: before [infra, pass, fail, fail] vs after [pass, pass, fail, fail] is one pair short,
not a +1/3 change.

A side's samples are numbered from its own offset, so the i-th sample after the offset before is
paired with the i-th after the offset after (an A/A comparison on disjoint sample indices pairs
sample 0 with sample 20, 1 with 21, ...). A pair where either side is an infrastructure failure
is dropped, and the failures are counted, never scored.

Identical samples are one observation (issue 28.8): a model at ``temperature: 0`` or with a fixed
``seed`` gives the same answer at every sample index, and K copies of one deterministic flip are
not K independent pairs (one flip repeated 12 times reads McNemar p = 0.0005). When every sample
of an eval gave one and the same answer on each side (the grader's content key, else the text),
its K pairs are one pair; ``Paired.repeated`` counts the copies left out. Only whole evals fold: a
sampling model repeats an answer now and then by chance, and those draws are independent.
"""

from __future__ import annotations

from pydantic import BaseModel

from tuner.store import ResultRecord

__all__ = ["Paired", "answer_identity", "pair_results", "pair_outcomes"]


class Paired(BaseModel):
    """Aligned outcomes: ``before[eval][i]`` and ``after[eval][i]`` are one pair."""

    before: dict[str, list[bool]]
    after: dict[str, list[bool]]
    infra_before: int = 0
    infra_after: int = 0
    unpaired: int = 0  # scored samples with no partner (different sample counts, infra partner)
    repeated: int = 0  # pairs identical to an earlier pair of their eval (same answers on both sides): counted once
    expected: int | None = None  # pairs the design planned (evals x samples), when the caller knows

    @property
    def pairs(self) -> int:
        return sum(len(v) for v in self.before.values())

    @property
    def missing(self) -> int:
        """Planned pairs that were not measured (an infrastructure failure or no result on a side)."""
        return max(0, (self.expected or 0) - self.pairs - self.repeated)

    @property
    def complete(self) -> bool:
        return self.pairs > 0 and self.missing == 0


def _by_position(results: list[ResultRecord], offset: int) -> dict[tuple[str, int], ResultRecord]:
    return {(r.eval_id, r.sample_index - offset): r for r in results}


def answer_identity(r: ResultRecord) -> tuple | None:
    """What makes two answers the same answer: the grade's content key (eval, files, grader) when it
    was graded, else the answer's text and outcome; None when the record holds neither (unknown,
    never equal to another). Never the sample index or the timing."""
    # getattr: the simulators' light result records (``tuner.tuning.simulate``) carry outcomes only
    grade_key, output = getattr(r, "grade_key", None), getattr(r, "output", None)
    if grade_key:
        return ("grade", grade_key)
    if output is None:
        return None
    tools = getattr(r, "tool_calls", None)
    return (
        "text",
        output,
        getattr(r, "reasoning", None),
        str(tools) if tools else None,
        r.outcome,
        getattr(r, "failed_step", None),
    )


def _repeats_one_answer(records: list[ResultRecord]) -> bool:
    ids = {answer_identity(r) for r in records}
    return len(records) > 1 and len(ids) == 1 and None not in ids


def pair_results(
    before: list[ResultRecord],
    after: list[ResultRecord],
    *,
    before_offset: int = 0,
    after_offset: int = 0,
    category: str | None = None,
    eval_ids: set[str] | None = None,
    expected: int | None = None,
) -> Paired:
    """Pair two runs' results (optionally one category, or only ``eval_ids``) by (eval, sample position)."""

    def keep(r: ResultRecord) -> bool:
        return (category is None or r.category == category) and (eval_ids is None or r.eval_id in eval_ids)

    b = _by_position([r for r in before if keep(r)], before_offset)
    a = _by_position([r for r in after if keep(r)], after_offset)
    out_b: dict[str, list[bool]] = {}
    out_a: dict[str, list[bool]] = {}
    unpaired = 0
    kept: dict[str, list[tuple[ResultRecord, ResultRecord]]] = {}
    for key in sorted(b.keys() | a.keys()):
        rb, ra = b.get(key), a.get(key)
        if rb is None or ra is None or rb.outcome == "infra" or ra.outcome == "infra":
            unpaired += sum(1 for r in (rb, ra) if r is not None and r.outcome != "infra")
            continue
        kept.setdefault(key[0], []).append((rb, ra))
    repeated = 0
    for eval_id, pairs in kept.items():
        if _repeats_one_answer([x for x, _ in pairs]) and _repeats_one_answer([y for _, y in pairs]):
            repeated += len(pairs) - 1
            pairs = pairs[:1]
        for rb, ra in pairs:
            out_b.setdefault(eval_id, []).append(rb.outcome == "pass")
            out_a.setdefault(eval_id, []).append(ra.outcome == "pass")
    return Paired(
        before=out_b,
        after=out_a,
        infra_before=sum(r.outcome == "infra" for r in b.values()),
        infra_after=sum(r.outcome == "infra" for r in a.values()),
        unpaired=unpaired,
        repeated=repeated,
        expected=expected,
    )


def pair_outcomes(
    before: list[ResultRecord],
    after: list[ResultRecord],
    category: str | None = None,
    *,
    eval_ids: set[str] | None = None,
    before_offset: int = 0,
    after_offset: int = 0,
) -> tuple[dict[str, list[bool]], dict[str, list[bool]]]:
    """``(before, after)`` as ``{eval: [passed, ...]}`` tables aligned pair by pair (for the paired tests)."""
    p = pair_results(
        before, after, before_offset=before_offset, after_offset=after_offset, category=category, eval_ids=eval_ids
    )
    return p.before, p.after
