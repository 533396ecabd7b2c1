"""tune's placebo arm (``tune --placebo``): does the accepted winner beat a length-matched placebo?

The confirmation says the winner beats the baseline on its target. Part of that can be any
instruction text priming the model, not what the winner's rules say (issue 31). This arm measures
the winner's prompt against a placebo of it (``tuner.guidelines.placebo``: the winner's template and
token count, rules of another domain, deterministic from a seed) on fresh samples of the target's
tuning evals, at sample indices of their own (``fresh_offset(config, "placebo")``, after the
confirmation's and the evidence's windows), so no answer tune saw is replayed to it.

Statistics: exactly the compare's placebo cells (``tuner.compare.placebo_cells``): placebo → winner
paired by eval and sample index, cluster-robust Δ interval, exact McNemar p, one Benjamini–Hochberg
family of its own. The arm runs only after the confirmation accepted the winner and never changes
that decision: a "beats the placebo" claim is the intersection of the accepted gain against the
baseline and an improvement against the placebo, each at its own ``alpha`` (an intersection–union
test, as ``tuner.compare.placebo`` argues). A cell with an answer lost (a provider or grader failure,
a call refused by the cap) is "not measured", and so is the claim.
"""

from __future__ import annotations

from tuner.compare.table import NOT_MEASURED
from tuner.errors import InputError
from tuner.tuning.budgets import evidence_samples, placebo_calls
from tuner.tuning.config import TuneConfig, fresh_offset
from tuner.tuning.measure import Measure
from tuner.tuning.records import PlaceboArm

__all__ = [
    "BEATS",
    "NO_MORE",
    "NOT_MEASURED",
    "NOTHING_ACCEPTED",
    "arm_calls",
    "arm_evals",
    "placebo_arm",
    "claim_of",
    "not_run",
]

BEATS = "beats the placebo"
NO_MORE = "no more than the placebo"
NOTHING_ACCEPTED = "no placebo arm: nothing accepted"


def arm_evals(h, config: TuneConfig) -> list[str]:
    """The target's tuning evals (where the winner's gain was claimed)."""
    return [e for e in config.eval_ids if h.suite.get(e).category == config.category]


def arm_calls(h, config: TuneConfig, n_models: int) -> int:
    """What the arm costs (``budgets.placebo_calls``)."""
    return placebo_calls(config, len(arm_evals(h, config)), n_models)


def claim_of(verdicts: list[str | None]) -> str:
    """The arm's claim from its cells' verdicts (placebo → winner): every model's cell must improve."""
    if not verdicts or any(v in (None, NOT_MEASURED) for v in verdicts):
        return NOT_MEASURED
    return BEATS if all(v == "improved" for v in verdicts) else NO_MORE


def not_run(seed: int, reason: str = NOTHING_ACCEPTED) -> PlaceboArm:
    """The arm's record when it did not run (nothing accepted): no cells, no claim."""
    return PlaceboArm(seed=seed, ran=False, claim=None, note=reason)


def placebo_arm(
    h, config: TuneConfig, specs: list, winner: dict[str, str], seed: int, measure: Measure, turn: int = 1
) -> PlaceboArm:
    """Measure ``winner`` against its placebo; the arm's record (cells, claim, calls, runs)."""
    from tuner.compare import placebo_cells
    from tuner.guidelines import PLACEBO_DOMAIN, RuleSet

    evals = arm_evals(h, config)
    k = evidence_samples(config)
    offset = fresh_offset(config, "placebo")
    base = {
        "seed": seed,
        "ran": True,
        "domain": PLACEBO_DOMAIN,
        "matches": "winner",
        "evals": len(evals),
        "samples": k,
        "offset": offset,
        "turn": turn,
    }
    try:
        prompt = h.guidelines.placebo(RuleSet.from_selection("winner", winner), seed)
    except InputError as exc:  # a winner of no rules: nothing to match
        return PlaceboArm(**{**base, "ran": False}, claim=NOT_MEASURED, note=str(exc))
    winner_out, placebo_out = measure(
        [("winner", winner), (prompt.set_name, {})], evals, k, offset, prompts={prompt.set_name: prompt}
    )
    recorded = [(spec, placebo_out[spec.key].results, winner_out[spec.key].results) for spec in specs]
    cells = placebo_cells(h, recorded, evals, k, offset, turn)
    outcomes = [*winner_out.values(), *placebo_out.values()]
    return PlaceboArm(
        **base,
        name=prompt.set_name,
        tokens=prompt.tokens,
        prompt_hash=prompt.hash,
        claim=claim_of([c.verdict for c in cells]),
        cells=cells,
        calls=placebo_calls(config, len(evals), len(specs)),
        new_calls=sum({o.run.id: o.new_calls for o in outcomes}.values()),
        run_ids=list(dict.fromkeys(o.run.id for o in outcomes)),
    )
