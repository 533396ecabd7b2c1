"""Ablation designs: which rule selections to run.

- ``loo`` (leave-one-out): the set, and the set without each of its rules.
- ``add`` (add-one-in): no rules, and each rule of the pool alone.
- ``adaptive``: rounds of random-dropout prompts that keep randomising only the rules whose verdict
  is still open, until each is decided or the call budget is spent (``tuner.engine``).
- ``screening``: for each eval, N random selections ("runs"), each rule included with
  probability ½. Every call informs every rule's effect, which is why it needs fewer calls than
  leave-one-out for the same precision when there are many rules.
"""

from __future__ import annotations

from pydantic import BaseModel

from tuner.errors import InputError

__all__ = ["Variant", "loo", "add_one_in", "screening", "DESIGNS"]

DESIGNS = ("adaptive", "loo", "add", "screening")


class Variant(BaseModel):
    name: str
    selection: dict[str, str]
    role: str  # "reference" | "without:<rule>" | "only:<rule>" | "screen"
    eval_id: str | None = None  # screening cells run on one eval
    replicate: int = 0


def loo(selection: dict[str, str]) -> list[Variant]:
    if not selection:
        raise InputError("leave-one-out needs a set with at least one rule")
    out = [Variant(name="all", selection=dict(selection), role="reference")]
    out += [
        Variant(
            name=f"without-{rid}", selection={k: v for k, v in selection.items() if k != rid}, role=f"without:{rid}"
        )
        for rid in selection
    ]
    return out


def add_one_in(selection: dict[str, str]) -> list[Variant]:
    if not selection:
        raise InputError("add-one-in needs a pool with at least one rule")
    out = [Variant(name="none", selection={}, role="reference")]
    out += [Variant(name=f"only-{rid}", selection={rid: v}, role=f"only:{rid}") for rid, v in selection.items()]
    return out


def screening(selection: dict[str, str], eval_ids: list[str], replicates: int, seed: int = 0) -> list[Variant]:
    """One random selection per (eval, replicate) cell, each rule in with probability ½.

    Randomising per cell rather than per whole-suite run gives every graded sample its own design
    point, so the regression identifies R rule effects from far fewer calls than R+1 full runs.
    """
    import numpy as np

    rules = sorted(selection)
    if len(rules) < 2:
        raise InputError("screening needs at least two rules")
    if replicates < 2:
        raise InputError(f"--runs {replicates}: screening needs at least 2 runs (replicates per eval)")
    rng = np.random.default_rng(seed)
    cells = []
    for rep in range(replicates):
        for eval_id in eval_ids:
            chosen = {r: selection[r] for r in rules if rng.random() < 0.5}
            cells.append(
                Variant(name=f"screen-{rep:03d}", selection=chosen, role="screen", eval_id=eval_id, replicate=rep)
            )
    return cells
