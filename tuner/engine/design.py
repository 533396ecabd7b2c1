"""What the engine asks, one prompt at a time: the plan (rules, evals, models, cap, error zone) and the
points of a look (which open rules each prompt leaves out, which phrasings it switches), drawn from
(seed, category, eval, replicate) and the open rules alone so that a rerun replays them exactly."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from tuner.stats.zones import Zone

_MIN_DROPS = 8  # a rule is not judged before it was left out this many times in the category
_MIN_DF = 20  # nor before the category's fit has this many residual degrees of freedom
# The weight of a question asked first (a rule targeting the category) in each look's BH step,
# against 1 for the others before rescaling to mean 1 (``look_weights``). An option, off in the
# product: in the design lab it gained nothing measurable at the default budget (docs/engine.md,
# "Fewer, better questions").
PRIORITY_WEIGHT = 4.0


@dataclass(frozen=True)
class Point:
    """One prompt on one eval: the pool without ``dropped``, the rules of ``swapped`` (``rule@variant``)
    in that phrasing instead of their default, sample index ``replicate``."""

    category: str
    eval_id: str
    replicate: int
    dropped: tuple[str, ...]
    swapped: tuple[str, ...] = ()

    @property
    def applied(self) -> tuple[str, ...]:
        """The design's factors this point applies: rules left out and phrasings switched."""
        return self.dropped + self.swapped


@dataclass(frozen=True)
class Plan:
    rules: tuple[str, ...]
    evals: dict[str, tuple[str, ...]]  # category -> its eval ids
    models: tuple[str, ...]  # model keys
    budget_calls: int
    zone: Zone = Zone()
    seed: int = 0
    # Other phrasings to weigh against each rule's default: {rule: (variant, ...)}. A point uses one of
    # them, for a rule it keeps, with the probability a rule is dropped (together at most _MAX_SWAPPED).
    variants: dict[str, tuple[str, ...]] = field(default_factory=dict)
    max_dropped: float = 12.0
    max_share: float = 0.25  # never drop more than this share of the open rules from one prompt
    max_rounds: int = 12  # a guard: with doubling rounds, 12 looks is 4,000x the first round
    # Read each rule through the failure modes it acts on (``tuner.engine.modes``, cross-fitted);
    # False, the default: the pass bit alone (see that module for why not yet).
    modes: bool = False
    # One experiment over several invocations (``Zone.continued``): the replicates per eval at the last
    # planned look of the experiment's first invocation (None: this is the first), and the looks its
    # earlier invocations made, (replicates per eval, alpha, beta spent) each, replayed as they were.
    anchor: int | None = None
    made: tuple[tuple[int, float, float], ...] = ()
    # Questions asked first (issue 29): per category, the rules the user's question is about (e.g.
    # those whose ``targets`` include the category: ``targeted``); each look's Benjamini-Hochberg step
    # weighs their cells ``priority_weight`` times the others' (``look_weights``). 1: plain BH. Off in
    # the product (no measurable gain in the design lab; docs/engine.md).
    priority: dict[str, tuple[str, ...]] = field(default_factory=dict)
    priority_weight: float = 1.0


def swap_key(rule: str, variant: str) -> str:
    """The key of a phrasing's cell: ``rule@variant``."""
    return f"{rule}@{variant}"


def split_key(key: str) -> tuple[str, str | None]:
    """(rule, phrasing) of a cell's key; the phrasing is None for a rule's own cell."""
    rule, _, variant = key.partition("@")
    return rule, variant or None


def _factors(plan: Plan) -> list[str]:
    """Every cell's key: the rules, then their other phrasings."""
    return [*plan.rules, *(swap_key(r, v) for r in plan.rules for v in plan.variants.get(r, ()))]


def _sign(key: str) -> float:
    """A fitted coefficient is the effect of applying a factor: leaving a rule out (the effect of
    including it is its negative) or switching to a phrasing (the effect as it is)."""
    return -1.0 if split_key(key)[1] is None else 1.0


def _uniform(*parts: object) -> float:
    digest = hashlib.sha256("|".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _uniforms(prefix: tuple, suffixes: list[bytes]) -> list[float]:
    """``_uniform(*prefix, suffix)`` for each (encoded) suffix, the same values: the prefix is hashed
    once and the hash state copied (a point draws one uniform per open question: 94 at tune's
    screening, where hashing each whole key was half the design's time)."""
    copy = hashlib.sha256(("|".join(map(str, prefix)) + "|").encode()).copy
    out = []
    for suffix in suffixes:
        h = copy()
        h.update(suffix)
        out.append(int.from_bytes(h.digest()[:8], "big") / 2**64)
    return out


def _p_drop(plan: Plan, n_open: int) -> float:
    return min(plan.max_share, plan.max_dropped / max(1, n_open))


_MAX_SWAPPED = 0.5  # a kept rule is shown in another phrasing in at most this share of the prompts


def _swap_p(p_drop: float, phrasings: int) -> float:
    """Each open phrasing's chance of replacing its kept rule's default in a prompt."""
    return min(p_drop, _MAX_SWAPPED / max(1, phrasings))


def _points(plan: Plan, category: str, open_keys: list[str], first: int, reps: int) -> list[Point]:
    p_drop = _p_drop(plan, len(open_keys))
    rules = [k for k in open_keys if split_key(k)[1] is None]
    swaps: dict[str, list[str]] = {}
    for key in open_keys:
        rule, variant = split_key(key)
        if variant is not None:
            swaps.setdefault(rule, []).append(key)
    # The uniforms' keys: _uniform(..., rule) to drop a rule, _uniform(..., rule, "phrasing") to switch one.
    keys_hashed = [r.encode() for r in rules] + [f"{rule}|phrasing".encode() for rule in swaps]
    by_rule = [(rule, keys, _swap_p(p_drop, len(keys))) for rule, keys in swaps.items()]
    points = []
    for eval_id in plan.evals[category]:
        for rep in range(first, first + reps):
            u = _uniforms((plan.seed, category, eval_id, rep), keys_hashed)
            dropped = tuple(r for r, x in zip(rules, u) if x < p_drop)
            swapped = []
            for (rule, keys, q), x in zip(by_rule, u[len(rules) :]):
                if rule in dropped:
                    continue
                # At most one phrasing per rule: each open one with probability p_drop, but together
                # never more than _MAX_SWAPPED, so the rule is still shown in its default phrasing.
                # (Uncapped, a rule with 1 / p_drop phrasings or more was never shown in its default
                # when kept: the phrasings' columns then add up to the rule's, nothing is identified,
                # and an A/A world flagged 11 of 24 phrasing cells.)
                if x < q * len(keys):
                    swapped.append(keys[int(x / q)])
            points.append(Point(category, eval_id, rep, dropped, tuple(swapped)))
    return points


def targeted(rules, evals: dict, targets_of) -> dict:
    """The Plan fields that ask each category's targeted rules first: ``priority`` (per category of
    ``evals``, the ``rules`` whose ``targets_of(rule)`` include it) and ``PRIORITY_WEIGHT``."""
    priority = {c: tuple(sorted(r for r in rules if c in targets_of(r))) for c in evals}
    return {"priority": {c: rs for c, rs in priority.items() if rs}, "priority_weight": PRIORITY_WEIGHT}


def look_weights(plan: Plan, keys: list[tuple[str, str]]) -> list[float] | None:
    """The weighted BH step's weight of each (rule or phrasing key, category) tested at a look:
    ``priority_weight`` for a prioritized rule's cells (its phrasings' too), 1 for the others,
    rescaled to mean 1 over the cells tested (so the look spends its share, no more: weighted BH keeps
    BH's error when the weights average 1). Fixed by the plan and by which cells are tested, never
    by an estimate. None when nothing is weighed (plain BH, the engine as before)."""
    if plan.priority_weight == 1.0 or not plan.priority or not keys:
        return None
    raw = [plan.priority_weight if split_key(k)[0] in plan.priority.get(c, ()) else 1.0 for k, c in keys]
    mean = sum(raw) / len(raw)
    return [w / mean for w in raw]


def _design_matrix(rows: list[tuple[tuple[str, ...], str, bool]], rules: list[str]):
    """(the factors applied at least once, in ``rules``' order; the design matrix: intercept, those
    factors' indicators, the evals' fixed effects but the first), filled row by row from the
    factors each point applied (a row applies about a tenth of them)."""
    import numpy as np

    applied = set().union(*(d for d, _, _ in rows))
    rules = [r for r in rules if r in applied]
    evals = sorted({e for _, e, _ in rows})
    column = {r: j for j, r in enumerate(rules, start=1)}
    column.update({ev: j for j, ev in enumerate(evals[1:], start=1 + len(rules))})
    X = np.zeros((len(rows), len(rules) + len(evals)))
    X[:, 0] = 1.0
    for i, (d, e, _) in enumerate(rows):
        X[i, [j for j in map(column.get, (*d, e)) if j is not None]] = 1.0
    return rules, X
