"""Pairing the two sides of a comparison: same eval, same sample position.

A side's samples are numbered from its own offset, so the i-th sample after the offset before is
paired with the i-th after the offset after (an A/A comparison on disjoint sample indices pairs
sample 0 with sample 20, 1 with 21, ...). A pair where either side is an infrastructure failure
is dropped, and the failures are counted, never scored.
"""

from __future__ import annotations

from pydantic import BaseModel

from tuner.store import ResultRecord

__all__ = ["Paired", "pair_results"]


class Paired(BaseModel):
    """Aligned outcomes: ``before[eval][i]`` and ``after[eval][i]`` are one pair."""

    before: dict[str, list[bool]]
    after: dict[str, list[bool]]
    infra_before: int = 0
    infra_after: int = 0
    unpaired: int = 0  # scored samples with no partner (different sample counts, infra partner)

    @property
    def pairs(self) -> int:
        return sum(len(v) for v in self.before.values())


def _by_position(results: list[ResultRecord], offset: int) -> dict[tuple[str, int], ResultRecord]:
    return {(r.eval_id, r.sample_index - offset): r for r in results}


def pair_results(
    before: list[ResultRecord],
    after: list[ResultRecord],
    *,
    before_offset: int = 0,
    after_offset: int = 0,
    category: str | None = None,
) -> Paired:
    """Pair two runs' results (optionally one category) by (eval, sample position)."""
    keep = (lambda r: r.category == category) if category else (lambda r: True)
    b = _by_position([r for r in before if keep(r)], before_offset)
    a = _by_position([r for r in after if keep(r)], after_offset)
    out_b: dict[str, list[bool]] = {}
    out_a: dict[str, list[bool]] = {}
    unpaired = 0
    for key in sorted(b.keys() | a.keys()):
        rb, ra = b.get(key), a.get(key)
        if rb is None or ra is None or rb.outcome == "infra" or ra.outcome == "infra":
            unpaired += sum(1 for r in (rb, ra) if r is not None and r.outcome != "infra")
            continue
        out_b.setdefault(key[0], []).append(rb.outcome == "pass")
        out_a.setdefault(key[0], []).append(ra.outcome == "pass")
    return Paired(
        before=out_b,
        after=out_a,
        infra_before=sum(r.outcome == "infra" for r in b.values()),
        infra_after=sum(r.outcome == "infra" for r in a.values()),
        unpaired=unpaired,
    )
