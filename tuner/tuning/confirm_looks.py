"""Tune's confirmation over several invocations: one sequential test, not a fresh one per rerun.

A rerun of ``tune`` with a larger ``--budget-calls`` gives the confirmation more calls. Its samples
sit at a fixed window per study (``fresh_offset``), so the rounds it shares with the earlier
invocation re-read the same answers and the new ones add fresh samples; but each invocation
planned its looks anew and spent all of ``alpha`` over them, so r reruns could spend up to r x
``alpha``, and a rerun whose screening picked another selection confirmed it at a full ``alpha``
again. Measured on the boundary world (a change worth exactly ``delta0`` on the target, confirmed
at the default cap and then at 2x, 4x and 8x): fresh tests per rerun accepted it 0.09-0.10
over the four invocations, against alpha 0.05 (``tests/stats/test_calibration_confirmation_reruns.py``).

Now the experiment's confirmations are one sequence of looks, recorded in the store with the
tune's experiment (``Store.engine_looks``; the experiment's id is the configuration's hash, which
holds no budget): design ``confirm`` has every look of every selection confirmed, ``confirm@<hash>``
those of one selection (by content). A rerun

- of the same selection replays its looks (the same samples, the same shares: the same verdicts)
  and goes on doubling from the last, the new looks spending what the experiment has left
  (``Zone.continued``: ``alpha G(n)`` minus every look's share so far, ``G`` anchored at the first
  invocation's last planned look, a third of ``alpha`` and ``beta`` kept for continuations);
- of another selection (the screening went on and chose differently) starts its looks from its
  first round, spending what is left of the same budgets.

However many reruns and selections come, the shares add up to less than ``alpha`` (the union bound
over every look of the experiment). Each look is recorded as soon as it is decided, so an
interrupted invocation's looks count too; a resumed one (the same cap) spends what the uninterrupted
one would have.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tuner.stats.zones import Zone

__all__ = ["ConfirmLooks", "MemoryLooks"]

ALL = "confirm"
_MAX_LOOKS = 10  # a guard, as the confirmation's: with doubling rounds, 10 looks is 128x the fixed design's samples


def _round_samples(k: int, look: int) -> int:
    """Samples per eval drawn in round ``look`` (1-based): K/4, K/4, K/2, K, ... (cumulative K/4, K/2, K, 2K, ...)."""
    first = max(1, -(-k // 4))
    return first if look == 1 else first * 2 ** (look - 2)


@dataclass
class ConfirmLooks:
    """One experiment's confirmation looks, for the selection being confirmed."""

    store: object  # ``Store.engine_looks`` / ``record_engine_look`` (or ``MemoryLooks``)
    exp_id: str
    selection: str  # the selection's hash
    anchor: int | None = None
    made: list[tuple[int, float, float]] = field(default_factory=list)  # every selection's, in order
    mine: list[tuple[int, float, float]] = field(default_factory=list)  # this selection's

    @classmethod
    def open(cls, store, exp_id: str, selection_hash: str) -> ConfirmLooks:
        anchor, made = store.engine_looks(exp_id, ALL)
        _, mine = store.engine_looks(exp_id, f"{ALL}@{selection_hash[-16:]}")
        return cls(store, exp_id, selection_hash, anchor, list(made), list(mine))

    @property
    def spent(self) -> tuple[float, float]:
        return sum(a for _, a, _ in self.made), sum(b for _, _, b in self.made)

    def plan(self, k: int, per_sample: int, budget: int) -> list[int]:
        """Cumulative samples per eval at each look: this selection's looks made (those the budget
        covers) replayed, then doubling rounds from the last, the last cut to the budget."""
        most = budget // max(1, per_sample)
        looks = [n for n, _, _ in self.mine if n <= most]
        if len(looks) < len(self.mine):  # a smaller cap than the looks made: replayed, none added
            return looks
        done = looks[-1] if looks else 0
        while done < most and len(looks) < _MAX_LOOKS:
            done = min(most, done + _round_samples(k, len(looks) + 1))
            looks.append(done)
        return looks

    def spending(self, looks: list[int], zone: Zone) -> list[tuple[float, float]]:
        """(alpha, beta) of each planned look: a replayed look what it spent then, a new one its
        share of what the experiment has left (module doc)."""
        return zone.replayed_then_continued(looks, [(a, b) for _, a, b in self.mine], self.spent, self.anchor)

    def record(self, index: int, look: tuple[int, float, float], last_planned: int) -> None:
        """Record look ``index`` (0-based) of this selection; a replayed look is not recorded again."""
        if index < len(self.mine):
            return
        if self.anchor is None:
            self.anchor = last_planned
        self.store.record_engine_look(self.exp_id, ALL, self.anchor, len(self.made), look)
        self.store.record_engine_look(self.exp_id, f"{ALL}@{self.selection[-16:]}", self.anchor, len(self.mine), look)
        self.made.append(look)
        self.mine.append(look)


class MemoryLooks:
    """``Store.engine_looks`` / ``record_engine_look`` in memory: the calibration's store."""

    def __init__(self):
        self.designs: dict[tuple[str, str], tuple[int, list]] = {}

    def engine_looks(self, exp_id: str, design: str):
        anchor, made = self.designs.get((exp_id, design), (None, []))
        return anchor, list(made)

    def record_engine_look(self, exp_id: str, design: str, anchor: int, index: int, look) -> None:
        have, made = self.designs.get((exp_id, design), (anchor, []))
        if index < len(made):
            return
        self.designs[(exp_id, design)] = (have, [*made, tuple(look)])
